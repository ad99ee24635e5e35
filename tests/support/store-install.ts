/**
 * The launcher's two steps of a store install (decisions section 12), as the install dialog runs
 * them: `store-inspect`, then `store-install` with the package's SHA-256 and consent to what the
 * package itself asks for. For tests whose subject is not the dialog.
 */
import type { TestBackend } from './local-backend.js';

/** What `POST /api/plugins/store-inspect` answers (the fields tests read). */
export interface StoreInspection {
  readonly sha256: string;
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly permissions: readonly { readonly id: string; readonly risk: string }[];
  readonly unlistedPermissions: readonly string[];
  readonly unsigned: boolean;
  readonly source: string;
  readonly signer: { readonly keyId: string; readonly developerId?: string } | null;
}

/** `POST /api/plugins/store-inspect` with `{slug, version?}`. */
export function storeInspect(backend: TestBackend, body: { slug: string; version?: string }): Promise<Response> {
  return backend.api('/api/plugins/store-inspect', { json: body });
}

/**
 * Inspects, then installs what the inspection showed, accepting every permission it lists (and
 * an unsigned package). Answers the install's response; an inspection that fails is returned as it is.
 */
export async function consentedStoreInstall(
  backend: TestBackend,
  body: Readonly<Record<string, unknown>> & { slug: string; version?: string },
): Promise<Response> {
  const { slug, version, ...rest } = body;
  const inspected = await storeInspect(backend, { slug, ...(version !== undefined ? { version } : {}) });
  if (inspected.status !== 200) return inspected;
  const inspection = (await inspected.json()) as StoreInspection;
  return backend.api('/api/plugins/store-install', {
    json: {
      slug,
      ...(version !== undefined ? { version } : {}),
      sha256: inspection.sha256,
      acceptPermissions: inspection.permissions.map((permission) => permission.id),
      ...(inspection.unsigned ? { allowUnsigned: true } : {}),
      ...rest,
    },
  });
}
