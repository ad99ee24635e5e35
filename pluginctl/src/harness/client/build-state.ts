import type { DevServerEvent } from '@plughost/host-sdk/core';

/** Where one plugin's build stands, as the harness header shows it. */
export type PluginBuildState =
  /** Watched; nothing changed since the harness started. */
  | { readonly kind: 'watching' }
  | { readonly kind: 'building'; readonly at: Date }
  /** `durationMs` 0 with `noBuild`: a plugin without a build step was reloaded. */
  | { readonly kind: 'built'; readonly at: Date; readonly durationMs: number }
  | { readonly kind: 'failed'; readonly at: Date; readonly output: string };

/** The build state that `event` leads to for its plugin (`hello` names plugins without changing one). */
export function nextBuildState(event: Exclude<DevServerEvent, { type: 'hello' }>): PluginBuildState {
  const at = new Date(event.at);
  switch (event.type) {
    case 'building':
      return { kind: 'building', at };
    case 'rebuilt':
      return { kind: 'built', at, durationMs: event.durationMs };
    case 'build-failed':
      return { kind: 'failed', at, output: event.output };
  }
}

/** `HH:MM:SS` in the page's time zone (24-hour clock, whatever the locale, so it reads the same in every log). */
export function clockTime(at: Date): string {
  return [at.getHours(), at.getMinutes(), at.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
}

/** The words of the header for a build state. Each state has its own words: colour is never the only signal. */
export function describeBuildState(state: PluginBuildState): string {
  switch (state.kind) {
    case 'watching':
      return 'watching for changes';
    case 'building':
      return `building since ${clockTime(state.at)}…`;
    case 'built':
      return state.durationMs === 0
        ? `reloaded at ${clockTime(state.at)} (no build step)`
        : `built at ${clockTime(state.at)} in ${Math.round(state.durationMs)} ms`;
    case 'failed':
      return `build failed at ${clockTime(state.at)}`;
  }
}
