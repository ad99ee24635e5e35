import Router from '@koa/router';
import type { LauncherRouteServices } from '@plughost/backend-kit';

/**
 * The launcher's public preferences: what a plugin may know to fit in (language, theme, memory
 * default), and nothing secret (no token, installation id or store addresses).
 */
export interface PublicPreferences {
  /** BCP 47 language tag of the launcher's interface. */
  readonly language: string;
  readonly theme: 'dark' | 'light';
  /** Memory a new instance gets, in MiB. */
  readonly defaultMemoryMiB: number;
  /** Whether the launcher window closes when a game starts. */
  readonly closeOnLaunch: boolean;
  /** Whether the user opted in to plugin error reports (launcher settings). */
  readonly telemetryEnabled: boolean;
  /** Hours between plugin update checks (launcher settings). */
  readonly updateCheckHours: number;
}

/** The demo's fixed interface preferences (it has no screen to change them). */
export const DEMO_PREFERENCES = { language: 'en', theme: 'dark', defaultMemoryMiB: 4096, closeOnLaunch: false } as const;

/**
 * `GET /settings`: the public preferences, read-only (every other method answers 405). The
 * launcher's full settings (`/launcher/settings`) stay for the launcher page.
 */
export function createSettingsRouter({ settings }: Pick<LauncherRouteServices, 'settings'>): Router {
  const router = new Router({ strict: true, sensitive: true });
  router.get('/settings', (ctx) => {
    const { telemetryEnabled, updateCheckHours } = settings.get();
    const preferences: PublicPreferences = { ...DEMO_PREFERENCES, telemetryEnabled, updateCheckHours };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = preferences;
  });
  return router;
}
