/** Method names each plugin registered with `registerMethod`; the functions stay in the frames. */
export class MethodRegistry {
  private readonly byPlugin = new Map<string, Set<string>>();

  register(pluginId: string, method: string): void {
    let methods = this.byPlugin.get(pluginId);
    if (!methods) {
      methods = new Set();
      this.byPlugin.set(pluginId, methods);
    }
    methods.add(method);
  }

  has(pluginId: string, method: string): boolean {
    return this.byPlugin.get(pluginId)?.has(method) === true;
  }

  /** The methods of `pluginId`, sorted (for the harness and tests). */
  list(pluginId: string): string[] {
    return [...(this.byPlugin.get(pluginId) ?? [])].sort();
  }

  /** Forgets every method of `pluginId` (deactivation). */
  removeAll(pluginId: string): void {
    this.byPlugin.delete(pluginId);
  }
}
