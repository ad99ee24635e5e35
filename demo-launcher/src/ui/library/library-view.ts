import { html } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { GameLibrary } from './game-library.js';
import { instanceIcon } from './instance-icon.js';
import type { LibraryInstance } from './library-types.js';
import { timeAgo } from './time-text.js';

/** "Minecraft 1.20.4 · fabric 0.15.7", or vanilla. */
export function gameText(instance: LibraryInstance): string {
  const loader = instance.loader ? `${instance.loader} ${instance.loaderVersion ?? ''}`.trim() : 'vanilla';
  return `Minecraft ${instance.gameVersion ?? '(any version)'} · ${loader}`;
}

/** "Played yesterday" or "Never played". */
export function playedText(instance: LibraryInstance): string {
  return instance.lastPlayedAt ? `Played ${timeAgo(instance.lastPlayedAt)}` : 'Never played';
}

/** The route of an instance's page. */
export function instanceRoute(id: string): string {
  return `/instances/${encodeURIComponent(id)}`;
}

/** The game library on Home: a card per instance (picture, name, game, last played), each opening the instance's page. */
export function renderLibrary(library: GameLibrary) {
  const body = library.loadError
    ? html`<p class="banner error" role="alert">The game library could not be read: ${library.loadError}</p>`
    : library.loading
      ? html`<p class="hint">Loading the game library…</p>`
      : library.instances.length === 0
        ? html`<p class="hint">No instances yet: install a modpack through a plugin to create one.</p>`
        : html`<ul class="library" aria-labelledby="library-title">
            ${repeat(
              library.instances,
              (instance) => instance.id,
              (instance) => html`<li>
                <a class="instance-card" href=${`#${instanceRoute(instance.id)}`} data-instance-id=${instance.id}>
                  ${instanceIcon(instance.icon)}
                  <span class="instance-name">${instance.name}</span>
                  <span class="instance-game">${gameText(instance)}</span>
                  <span class="instance-played">${playedText(instance)}</span>
                </a>
              </li>`,
            )}
          </ul>`;
  return html`<h2 id="library-title">Game library</h2>
    ${body}`;
}
