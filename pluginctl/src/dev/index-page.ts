import { DEV_EVENTS_PATH, type DevServerEvent } from '@plughost/host-sdk/core';

/** What the dev server's page at `/` shows. */
export interface IndexPageState {
  readonly pluginId: string;
  /** The manifest's `entry.frontend`, linked when present. */
  readonly frontend: string | undefined;
  /** The build command, or `null` for a project without a build. */
  readonly buildCommand: string | null;
  /** The last build event, or `undefined` before the first one. */
  readonly lastEvent: Exclude<DevServerEvent, { type: 'hello' }> | undefined;
  /** The `.dev-plugins.json` the server's entry is in. */
  readonly devPluginsFile: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function statusText(state: IndexPageState): string {
  const event = state.lastEvent;
  if (event === undefined) return state.buildCommand === null ? 'Serving the project files (no build).' : 'Not built yet by this server.';
  switch (event.type) {
    case 'building':
      return `Building since ${event.at}.`;
    case 'rebuilt':
      return `Up to date: ${event.durationMs > 0 ? `built in ${event.durationMs} ms` : 'changed'} at ${event.at}.`;
    case 'build-failed':
      return `The last build failed at ${event.at}; the launcher keeps the previous version. Output:`;
  }
}

/**
 * The page a person sees who opens the dev server in a browser: which plugin it serves, how its
 * build is doing, and where the launcher finds it. It reloads itself on every build event.
 */
export function renderIndexPage(state: IndexPageState): string {
  const failure = state.lastEvent?.type === 'build-failed' ? `<pre>${escapeHtml(state.lastEvent.output)}</pre>` : '';
  const frontend = state.frontend ? `<li><a href="${escapeHtml(state.frontend)}">${escapeHtml(state.frontend)}</a> (entry.frontend)</li>` : '';
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="color-scheme" content="light dark">
<title>pluginctl dev: ${escapeHtml(state.pluginId)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;padding:.75rem;border:1px solid;overflow:auto}code{font-size:90%}</style>
<h1>pluginctl dev: <code>${escapeHtml(state.pluginId)}</code></h1>
<p><strong>Status:</strong> ${escapeHtml(statusText(state))}</p>
${failure}
<p>Build: <code>${escapeHtml(state.buildCommand ?? 'none (the files are served as they are)')}</code></p>
<ul>
<li><a href="manifest.json">manifest.json</a></li>
${frontend}
<li><a href="${DEV_EVENTS_PATH.slice(1)}">${DEV_EVENTS_PATH}</a> (build events)</li>
</ul>
<p>A launcher started with <code>NODE_ENV=development</code> loads this plugin as a dev plugin: this server's
entry is in <code>${escapeHtml(state.devPluginsFile)}</code>. It serves what <code>pluginctl pack</code> would package.</p>
<script>
const events = new EventSource(${JSON.stringify(DEV_EVENTS_PATH)});
for (const type of ['building', 'rebuilt', 'build-failed']) events.addEventListener(type, () => location.reload());
</script>
</html>
`;
}
