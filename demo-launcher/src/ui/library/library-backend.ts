import type { BackendClient } from '@plughost/host-sdk';
import type { LaunchRecord, LibraryInstance } from './library-types.js';

/** The launch body: the arguments after the hooks, and whether (and why) a hook prevented the launch. */
export interface LaunchRequest {
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly prevented?: { readonly reason?: string };
}

/** The launcher page's calls for its game library. */
export class LibraryBackend {
  constructor(private readonly client: BackendClient) {}

  instances(): Promise<LibraryInstance[]> {
    return this.client.json<LibraryInstance[]>('/api/instance');
  }

  /** Runs the (simulated) game, or records that a hook prevented it; answers the log when it ended. */
  launch(instanceId: string, request: LaunchRequest): Promise<LaunchRecord> {
    return this.client.json<LaunchRecord>(`/api/launcher/instances/${encodeURIComponent(instanceId)}/launch`, { json: request });
  }

  /** The instance's last launch, or null. */
  lastLaunch(instanceId: string): Promise<LaunchRecord | null> {
    return this.client.json<LaunchRecord | null>(`/api/launcher/instances/${encodeURIComponent(instanceId)}/last-launch`);
  }
}
