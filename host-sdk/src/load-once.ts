/**
 * Loading a module on first use, once: what lets a launcher page start without code only some
 * plugins need (bridge method groups, the dependency rules, the inline plugin runtime).
 */

/**
 * Returns a function that runs `load` on its first call and then gives the same promise to every
 * caller, including calls made while it is still loading, so a module is fetched once. When the
 * load fails, every waiting caller gets that failure and the next call tries again (a network
 * hiccup must not disable the feature until the page reloads).
 *
 * @example
 * ```ts
 * const rules = loadOnce(() => import('./dependency-rules.js'));
 * const { planActivation } = await rules();
 * ```
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
