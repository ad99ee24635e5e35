import { BridgeFailure } from '../../host/backend-client.js';
import type { BridgeCallContext } from '../bridge-method.js';
import { idSegment } from './arguments.js';

/**
 * Runs a backend request for the calling plugin; when it answers 403 `FS_AUTHORIZATION_REQUIRED`,
 * asks the user through the UI adapter about the folder the backend named, and when they agree,
 * authorizes it (as the launcher, never as the plugin) and runs the request once more.
 */
export async function withConsent<T>(context: BridgeCallContext, operation: 'read' | 'write', request: () => Promise<T>): Promise<T> {
  const { plugin, services } = context;
  try {
    return await request();
  } catch (error) {
    const prefix = error instanceof BridgeFailure && error.wire.code === 'FS_AUTHORIZATION_REQUIRED' ? error.wire.details?.prefix : undefined;
    if (typeof prefix !== 'string') throw error;
    const agreed = await services.ui.requestFileAccess({ pluginId: plugin.id, pluginName: plugin.manifest.name, prefix, operation });
    if (!agreed) throw error;
    await services.backend.json(`/api/plugins/files/${idSegment(plugin.id)}/authorize`, { json: { path: prefix } });
    return request();
  }
}
