import { LitElement, css, html } from 'lit';
import { customElement, state } from 'lit/decorators.js';

interface Health {
  status: string;
  name: string;
  version: string;
}

/**
 * The demo launcher's shell. It shows the backend's health; plugin pages, settings, the store and
 * the plugin manager are added to it as the SDK grows.
 */
@customElement('launcher-app')
export class LauncherApp extends LitElement {
  static override styles = css`
    :host {
      display: grid;
      grid-template-columns: 14rem 1fr;
      min-height: 100vh;
      color: hsl(var(--foreground));
      background: hsl(var(--background));
      font: 15px/1.5 system-ui, sans-serif;
    }
    nav {
      background: hsl(var(--sidebar-background));
      color: hsl(var(--sidebar-foreground));
      padding: 1rem;
    }
    main {
      padding: 1.5rem 2rem;
    }
    .status[data-state='ok'] {
      color: hsl(var(--primary));
    }
    .status[data-state='error'] {
      color: hsl(var(--destructive));
    }
  `;

  @state() accessor health: Health | undefined;
  @state() accessor failure: string | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.loadHealth();
  }

  private async loadHealth(): Promise<void> {
    try {
      const response = await fetch('/api/health');
      if (!response.ok) throw new Error(`the backend answered ${response.status}`);
      this.health = (await response.json()) as Health;
      this.failure = undefined;
    } catch (error) {
      this.failure = error instanceof Error ? error.message : String(error);
    }
  }

  override render() {
    const state = this.failure ? 'error' : this.health ? 'ok' : 'loading';
    return html`
      <nav aria-label="Launcher">
        <strong>${this.health?.name ?? 'Launcher'}</strong>
      </nav>
      <main>
        <h1>Home</h1>
        <p class="status" role="status" data-state=${state}>
          ${this.failure
            ? `Backend unreachable: ${this.failure}. Is the launcher process still running?`
            : this.health
              ? `Backend ${this.health.status}, version ${this.health.version}`
              : 'Connecting to the backend…'}
        </p>
      </main>
    `;
  }
}
