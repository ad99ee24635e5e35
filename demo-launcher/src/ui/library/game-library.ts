import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { launchThroughHooks, type HookRunner } from './launch-flow.js';
import type { LibraryBackend } from './library-backend.js';
import type { LaunchRecord, LibraryInstance } from './library-types.js';

/** The outcome of a launch, for the page to announce. */
export type LaunchOutcome = { readonly kind: 'ran' | 'prevented'; readonly record: LaunchRecord } | { readonly kind: 'failed'; readonly error: unknown };

/**
 * The game library's state for the launcher page: the instances, each one's last launch once
 * opened, and the launch in progress. A Lit reactive controller: every change re-renders its host.
 */
export class GameLibrary implements ReactiveController {
  instances: readonly LibraryInstance[] = [];
  /** Why the instances could not be read, until they could. */
  loadError = '';
  /** True until the first answer about the instances. */
  loading = true;
  /** The instance being launched, if any. */
  launching: string | null = null;
  private readonly lastLaunches = new Map<string, LaunchRecord | null>();

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly backend: LibraryBackend,
  ) {
    host.addController(this);
  }

  hostConnected(): void {}

  instance(id: string): LibraryInstance | undefined {
    return this.instances.find((instance) => instance.id === id);
  }

  /** The last launch of an instance: a record, `null` when it has none, `undefined` while not read yet. */
  lastLaunch(id: string): LaunchRecord | null | undefined {
    return this.lastLaunches.get(id);
  }

  /** Reads the instances (again). */
  async load(): Promise<void> {
    try {
      this.instances = await this.backend.instances();
      this.loadError = '';
    } catch (error) {
      this.loadError = error instanceof Error ? error.message : String(error);
    } finally {
      this.loading = false;
      this.host.requestUpdate();
    }
  }

  /** Reads an instance's last launch, once per opening of its page. */
  async loadLastLaunch(id: string): Promise<void> {
    try {
      this.lastLaunches.set(id, await this.backend.lastLaunch(id));
    } catch {
      this.lastLaunches.set(id, null);
    }
    this.host.requestUpdate();
  }

  /** Launches through the plugins' hooks; the log becomes the instance's last launch. */
  async launch(id: string, hooks: HookRunner): Promise<LaunchOutcome> {
    const instance = this.instance(id);
    if (!instance || this.launching !== null) return { kind: 'failed', error: new Error(this.launching ? 'Another game is starting' : `No instance ${id}`) };
    this.launching = id;
    this.host.requestUpdate();
    try {
      const record = await launchThroughHooks(hooks, this.backend, instance);
      this.lastLaunches.set(id, record);
      // Last played changed.
      await this.load();
      return { kind: record.outcome === 'exited' ? 'ran' : 'prevented', record };
    } catch (error) {
      return { kind: 'failed', error };
    } finally {
      this.launching = null;
      this.host.requestUpdate();
    }
  }
}
