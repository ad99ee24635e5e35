/** Something the host reports to the launcher. */
export type PluginHostEvent =
  | { readonly type: 'activated'; readonly pluginId: string }
  | { readonly type: 'skipped'; readonly pluginId: string; readonly message: string }
  | { readonly type: 'load-failed'; readonly pluginId: string; readonly message: string }
  /**
   * An error in the plugin: `message` is the error's (`TypeError: x is not a function`); `source`
   * says where, `stack` is its stack when the engine gave one, and `hidden` marks an uncaught error
   * whose text the engine hid (WebKit in sandboxed frames). Nothing but the error type leaves the
   * machine in telemetry.
   */
  | {
      readonly type: 'runtime-error';
      readonly pluginId: string;
      readonly message: string;
      readonly source?: string;
      readonly stack?: string;
      readonly hidden?: true;
    }
  | { readonly type: 'unresponsive'; readonly pluginId: string }
  | { readonly type: 'responsive'; readonly pluginId: string }
  | { readonly type: 'deactivated'; readonly pluginId: string };

/** The launcher's listeners of {@link PluginHostEvent}s. */
export class HostEvents {
  private readonly listeners = new Set<(event: PluginHostEvent) => void>();

  /** Adds a listener; returns the function that removes it. */
  on(listener: (event: PluginHostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Tells every listener; a listener that throws is logged and the others still hear the event. */
  emit(event: PluginHostEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        console.error('[plugins] A host event listener failed', error);
      }
    }
  }
}
