import type { BackendContext } from '../local-backend/context.js';

/** PLACEHOLDER: the plugin lifecycle service (being written). */
export interface PluginService {
  readonly context: BackendContext;
}

/** PLACEHOLDER */
export async function createPluginService(context: BackendContext): Promise<PluginService> {
  return { context };
}
