import type Router from '@koa/router';
import type { Context } from 'koa';
import { authRoute, stringField } from './auth-route.js';
import type { AuthServices } from './auth-services.js';
import { DeviceCsrf } from './device-csrf.js';
import { renderDevicePage, sendPage, type DevicePageView } from './device-page.js';
import { clientAddressOf } from '../http/client-address.js';
import { StoredRateLimiter } from '../limits/stored-rate-limiter.js';
import { normalizeUserCode } from './user-code.js';
import { isRegistryError } from '../errors/registry-error.js';

// What the page echoes back of a typed code; enough for any real code, little for anything else.
const ECHOED_CODE_LENGTH = 64;
/** Wrong user codes allowed per client address in 15 minutes (RFC 8628 section 5.1: codes must not be guessable by trying). */
export const USER_CODE_FAILURE_LIMIT = 20;

/**
 * The verification page of the device flow (`verification_uri`): `GET /device` shows the form
 * (`?user_code=` prefills the code, as `verification_uri_complete` does) and `POST /device`
 * approves or denies the request. Plain HTML forms, no script; see `device-page.ts` for the
 * headers and `device-csrf.ts` for the CSRF defence. Approving needs the username and password
 * (same checks and limits as `POST /auth/login`); denying needs only the code, so anyone shown a
 * code they did not ask for can refuse it.
 */
export function addVerificationPageRoutes(router: Router, services: AuthServices): void {
  const { context, repository, credentials, limits } = services;
  const csrf = new DeviceCsrf(repository);
  const codeFailures = new StoredRateLimiter(limits, {
    bucket: 'user-code',
    limit: USER_CODE_FAILURE_LIMIT,
    windowMs: 15 * 60 * 1000,
    now: () => context.now(),
  });

  async function answer(ctx: Context, status: number, view: Omit<DevicePageView, 'action' | 'csrfToken'>): Promise<void> {
    sendPage(ctx, status, renderDevicePage({ ...view, action: ctx.path, csrfToken: await csrf.issue(ctx) }));
  }

  router.get(
    '/device',
    authRoute('registry', async (ctx) => {
      const prefilled = typeof ctx.query.user_code === 'string' ? ctx.query.user_code : '';
      await answer(ctx, 200, { userCode: prefilled.slice(0, ECHOED_CODE_LENGTH), showForm: true });
    }),
  );

  router.post(
    '/device',
    authRoute('registry', async (ctx, fields) => {
      const typedCode = (stringField(fields, 'user_code') ?? '').slice(0, ECHOED_CODE_LENGTH);
      const username = (stringField(fields, 'username') ?? '').slice(0, 64);
      const form = { userCode: typedCode, username, showForm: true };
      if (!(await csrf.check(ctx, fields.csrf_token))) {
        await answer(ctx, 403, { ...form, notice: { kind: 'error', text: 'This form expired or was sent from another page. Check the code and try again.' } });
        return;
      }
      const action = stringField(fields, 'action');
      if (action !== 'approve' && action !== 'deny') {
        await answer(ctx, 400, { ...form, notice: { kind: 'error', text: 'Choose Approve or Deny.' } });
        return;
      }
      const addressKey = `address:${clientAddressOf(ctx)}`;
      const wait = await codeFailures.retryAfterMs(addressKey);
      if (wait > 0) {
        ctx.set('Retry-After', String(Math.ceil(wait / 1000)));
        await answer(ctx, 429, { ...form, notice: { kind: 'error', text: 'Too many wrong codes from this network; try again later.' } });
        return;
      }
      const now = context.now();
      const userCode = normalizeUserCode(typedCode);
      const request = userCode === null ? null : await repository.findDeviceAuthorizationByUserCode(userCode);
      const unknownCode = async (): Promise<void> => {
        await codeFailures.hit(addressKey);
        await answer(ctx, 400, {
          ...form,
          notice: { kind: 'error', text: 'This code is unknown, expired or already used. Start the sign-in on your device again.' },
        });
      };
      if (request?.status !== 'pending' || now.getTime() >= request.expiresAt.getTime()) {
        await unknownCode();
        return;
      }

      if (action === 'deny') {
        if (!(await repository.decideDeviceAuthorization(request.id, { status: 'denied' }, now))) return unknownCode();
        await answer(ctx, 200, { userCode: '', showForm: false, notice: { kind: 'success', text: 'Request denied. The device was not signed in.' } });
        return;
      }

      let accountId: string;
      try {
        accountId = (await credentials.verify(username, stringField(fields, 'password') ?? '', clientAddressOf(ctx))).id;
      } catch (error) {
        if (!isRegistryError(error)) throw error;
        for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
        await answer(ctx, error.status, { ...form, notice: { kind: 'error', text: error.message } });
        return;
      }
      if (!(await repository.decideDeviceAuthorization(request.id, { status: 'approved', accountId }, now))) return unknownCode();
      await answer(ctx, 200, {
        userCode: '',
        showForm: false,
        notice: { kind: 'success', text: `Device approved for ${username.toLowerCase()}. You can close this page and return to your device.` },
      });
    }),
  );
}
