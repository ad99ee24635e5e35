/**
 * Keeps an element in step with a shared {@link PluginUpdates}: re-renders on its `change` events
 * while connected, and asks it to read the list of updates the first time it is shown.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { PluginUpdates } from './plugin-updates.js';

export class UpdatesSubscription implements ReactiveController {
  #updates: PluginUpdates | undefined;
  #connected = false;
  readonly #onChange = (): void => this.host.requestUpdate();

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  /** Follows `updates` from now on (the element calls this when its property changes). */
  follow(updates: PluginUpdates | undefined): void {
    if (updates === this.#updates) return;
    if (this.#connected) this.#updates?.removeEventListener('change', this.#onChange);
    this.#updates = updates;
    if (this.#connected) this.#listen();
  }

  hostConnected(): void {
    this.#connected = true;
    this.#listen();
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.#updates?.removeEventListener('change', this.#onChange);
  }

  #listen(): void {
    const updates = this.#updates;
    if (!updates) return;
    updates.addEventListener('change', this.#onChange);
    updates.ensureLoaded();
  }
}
