/** The groups of the description, one per router module, in display order. */
export const TAGS: readonly { readonly name: string; readonly description: string }[] = [
  { name: 'health', description: 'Liveness checks; no token.' },
  { name: 'plugins', description: 'Installed plugins and their lifecycle.' },
  { name: 'store', description: 'Installing plugins from the store sources.' },
  { name: 'dev-plugins', description: 'Rebuild notices of the plugins of running dev servers (development mode).' },
  { name: 'plugin-files', description: 'Files of installed packages, loaded by plugin frames; no token, any origin.' },
  { name: 'settings', description: 'Per-plugin settings.' },
  { name: 'cache', description: 'Per-plugin cache with expiry.' },
  { name: 'system', description: 'System information and opening links.' },
  { name: 'telemetry', description: 'Opt-in plugin error reports, forwarded to the store.' },
  { name: 'launcher', description: "Launcher lifecycle, the launcher's own settings and its store sources (launcher page only)." },
  { name: 'network', description: 'The CORS proxy for plugins, behind the SSRF guard.' },
  { name: 'shell', description: 'Running commands for plugins with shell:execute.' },
  { name: 'filesystem', description: 'Reading and writing user files with per-folder consent.' },
  { name: 'wasm', description: 'WASM modules of installed plugins, run in workers with a time limit.' },
  { name: 'downloads', description: 'The download manager: file tasks and modpack installs in one queue, with progress events.' },
  { name: 'modpacks', description: 'Installing Modrinth, CurseForge and FTB modpacks into new instances.' },
  { name: 'instances', description: "The launcher's game instances (read-only)." },
  {
    name: 'launcher-routes',
    description:
      "The launcher's own routes (`createLocalBackend`'s `launcherRoutes`). Plugins reach those the launcher page allowlists through `callBackend`; routes under `/launcher/` serve the launcher page only.",
  },
  { name: 'openapi', description: 'This description (development mode).' },
];
