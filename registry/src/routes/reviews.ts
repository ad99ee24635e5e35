import Router from '@koa/router';
import { jsonBody } from '@plughost/backend-kit';
import type { CatalogRepository } from '../catalog/catalog-repository.js';
import { RegistryError, invalidArgument, notFound } from '../errors/registry-error.js';
import type { RegistryAuthenticate } from '../http/authenticated-account.js';
import { CACHE_SECONDS, sendCachedJson } from '../http/cached-json.js';
import { jsonObjectBody, pageRequest } from '../http/request-input.js';
import type { RegistryReviewList } from '../protocol/registry-protocol.js';
import { reviewView } from '../protocol/views.js';
import type { RegistryContext } from '../registry-context.js';

/** Longest review text. */
export const MAX_REVIEW_TEXT_LENGTH = 2000;

/** Options of {@link createReviewsRouter}. */
export interface ReviewsRouterOptions {
  /** Resolves the account of a write; `null` answers 401 `unauthorized`. */
  readonly authenticate: RegistryAuthenticate;
}

function reviewInput(body: Readonly<Record<string, unknown>>): { rating: number; text: string } {
  const unknown = Object.keys(body).filter((key) => key !== 'rating' && key !== 'text');
  if (unknown.length > 0) throw invalidArgument(`Unknown field "${unknown[0]}"; the body is {rating, text?}`);
  const rating = body.rating;
  if (typeof rating !== 'number' || !Number.isInteger(rating) || rating < 1 || rating > 5) throw invalidArgument('rating must be a whole number from 1 to 5');
  const text = body.text ?? '';
  if (typeof text !== 'string') throw invalidArgument('text must be a string');
  if (text.length > MAX_REVIEW_TEXT_LENGTH) throw invalidArgument(`text must be at most ${MAX_REVIEW_TEXT_LENGTH} characters`);
  return { rating, text: text.trim() };
}

/**
 * `GET /plugins/<slug>/reviews?page&pageSize`: a published plugin's reviews, newest first, with
 * `ratingAverage` (omitted without reviews) and `ratingCount` (cached 15 s). `POST
 * /plugins/<slug>/reviews` `{rating, text?}` (a signed-in account; one review per account and
 * plugin, a second one replaces the first: 201 when created, 200 when replaced; an owner cannot
 * review their own plugin: 403 `forbidden`). Write operations go to the primary store only.
 */
export function createReviewsRouter(context: RegistryContext, catalog: CatalogRepository, options: ReviewsRouterOptions): Router {
  const router = new Router({ strict: true, sensitive: true });

  router.get('/plugins/:slug/reviews', async (ctx) => {
    const slug = ctx.params.slug ?? '';
    const { page, pageSize } = pageRequest(ctx);
    if ((await catalog.getPublishedBySlug(slug)) === null) throw notFound(`No published plugin ${slug}`);
    const reviews = await catalog.listReviews(slug, page, pageSize);
    if (reviews === null) throw notFound(`No published plugin ${slug}`);
    const body: RegistryReviewList = {
      total: reviews.total,
      page,
      pageSize,
      ...(reviews.ratingAverage !== null ? { ratingAverage: reviews.ratingAverage } : {}),
      ratingCount: reviews.ratingCount,
      items: reviews.items.map(reviewView),
    };
    sendCachedJson(ctx, body, CACHE_SECONDS.reviews);
  });

  router.post('/plugins/:slug/reviews', jsonBody('16kb'), async (ctx) => {
    const account = await options.authenticate(ctx);
    if (account === null) {
      throw new RegistryError('unauthorized', 'Sign in to review plugins (Authorization: Bearer <access token>)', { 'WWW-Authenticate': 'Bearer' });
    }
    const slug = ctx.params.slug ?? '';
    const plugin = await catalog.getPublishedBySlug(slug);
    if (plugin === null) throw notFound(`No published plugin ${slug}`);
    if (plugin.ownerAccountId === account.accountId) throw new RegistryError('forbidden', 'Owners cannot review their own plugin');
    const input = reviewInput(jsonObjectBody(ctx));
    const { created, review } = await catalog.addReview({
      pluginId: plugin.id,
      accountId: account.accountId,
      authorName: account.displayName ?? null,
      rating: input.rating,
      text: input.text,
      createdAt: context.now().toISOString(),
    });
    ctx.status = created ? 201 : 200;
    ctx.body = reviewView(review);
  });

  return router;
}
