/**
 * The permission table: every permission a manifest may declare, its risk and the words the
 * install dialog and the CLI show a player. The table is data, so the dialog, the bridge, the CLI
 * and the docs all read the same list.
 */

/**
 * How much a permission can harm the player; it sets the install dialog colour (normal blue,
 * warning yellow, danger red).
 */
export type PermissionRisk = 'normal' | 'warning' | 'danger';

/** Risks from lowest to highest. */
export const PERMISSION_RISKS: readonly PermissionRisk[] = ['normal', 'warning', 'danger'];

interface PermissionRow {
  readonly id: string;
  readonly risk: PermissionRisk;
  readonly title: string;
  readonly description: string;
}

const TABLE = [
  // normal
  { id: 'instance:read', risk: 'normal', title: 'See your game instances', description: 'See your game installations and their settings.' },
  {
    id: 'account:read',
    risk: 'normal',
    title: 'See your game accounts',
    description: 'See which game accounts are signed in to the launcher, such as your player name.',
  },
  { id: 'license:read', risk: 'normal', title: 'See license status', description: "See the launcher's license or activation status." },
  {
    id: 'config:read',
    risk: 'normal',
    title: 'Read its settings',
    description: "Read the settings it saved and the launcher's theme colour, and open launcher pages.",
  },
  { id: 'cache:access', risk: 'normal', title: 'Keep temporary data', description: 'Store and read temporary data of its own.' },
  { id: 'endpoint:discover', risk: 'normal', title: 'Find launcher services', description: 'See which launcher services are available.' },
  { id: 'page:list', risk: 'normal', title: 'List launcher pages', description: 'See the list of pages in the launcher.' },
  { id: 'ui:inject_sidebar', risk: 'normal', title: 'Add sidebar entries', description: "Add entries to the launcher's sidebar." },
  { id: 'ui:inject_settings', risk: 'normal', title: 'Add a settings page', description: 'Add its own page under Settings.' },
  { id: 'ui:context_menu', risk: 'normal', title: 'Add menu actions', description: 'Add entries to right-click menus.' },
  { id: 'ui:toast', risk: 'normal', title: 'Show messages', description: 'Show short messages inside the launcher.' },
  { id: 'ui:navigate', risk: 'normal', title: 'Open launcher pages', description: 'Switch the launcher to one of its pages.' },
  {
    id: 'system:info',
    risk: 'normal',
    title: 'See system information',
    description: 'See details of this computer, such as the operating system, memory and processor.',
  },
  { id: 'system:notification', risk: 'normal', title: 'Notify and open links', description: 'Show system notifications and open web links in your browser.' },
  { id: 'plugin:list', risk: 'normal', title: 'See installed plugins', description: 'See which plugins are installed and whether they are on.' },
  { id: 'resource:read', risk: 'normal', title: 'See game content', description: 'See the mods, resource packs and other content in your game instances.' },
  { id: 'game:log', risk: 'normal', title: 'Read game logs', description: 'Read what your games write to their logs.' },
  { id: 'connector:scan', risk: 'normal', title: 'Look for connections', description: 'Look for other apps or devices the launcher can connect to.' },
  { id: 'plugin:log', risk: 'normal', title: 'Write to the log', description: "Write messages to the launcher's log." },
  // warning
  {
    id: 'instance:write',
    risk: 'warning',
    title: 'Change game instances',
    description: 'Create and change game installations, including installing modpacks.',
  },
  {
    id: 'config:write',
    risk: 'warning',
    title: 'Change settings and appearance',
    description: "Save its settings, change the launcher's colours and offer functions to other plugins.",
  },
  {
    id: 'network:fetch',
    risk: 'warning',
    title: 'Use launcher services',
    description: "Call the launcher's internal services and functions of other plugins.",
  },
  { id: 'network:cors_proxy', risk: 'warning', title: 'Contact websites', description: 'Send requests to websites on the internet through the launcher.' },
  { id: 'network:websocket', risk: 'warning', title: 'Keep live connections', description: 'Keep live connections open to servers on the internet.' },
  { id: 'network:proxy', risk: 'warning', title: 'Use a network proxy', description: 'Send network traffic through a proxy server.' },
  {
    id: 'ui:picture_in_picture',
    risk: 'warning',
    title: 'Show a floating window',
    description: 'Show a small window that stays on top of your other windows.',
  },
  { id: 'ui:sub_window', risk: 'warning', title: 'Open overlay windows', description: 'Open extra windows over the launcher.' },
  { id: 'clipboard:read', risk: 'warning', title: 'Read your clipboard', description: 'See what you copied, which may include passwords or private text.' },
  { id: 'clipboard:write', risk: 'warning', title: 'Change your clipboard', description: 'Replace what you copied.' },
  { id: 'wasm:execute', risk: 'warning', title: 'Run compiled code', description: 'Run WebAssembly code that comes with plugins.' },
  { id: 'resource:write', risk: 'warning', title: 'Change game content', description: 'Add, update or remove mods, resource packs and other content.' },
  { id: 'java:manage', risk: 'warning', title: 'Manage Java', description: 'Install, choose or remove the Java versions your games run on.' },
  { id: 'game:process', risk: 'warning', title: 'Control running games', description: 'Start and stop games and watch the running game.' },
  { id: 'connector:host', risk: 'warning', title: 'Accept connections', description: 'Let other apps or devices connect to it.' },
  { id: 'filesystem:read', risk: 'warning', title: 'Read your files', description: 'Read files on this computer in folders you allow.' },
  {
    id: 'download:manage',
    risk: 'warning',
    title: 'Download files',
    description: 'Download files from the internet into your game folders or folders you allow.',
  },
  // danger
  { id: 'plugin:install', risk: 'danger', title: 'Install plugins', description: 'Install other plugins, with whatever permissions those plugins ask for.' },
  { id: 'shell:execute', risk: 'danger', title: 'Run programs', description: 'Run any command on this computer, with the same rights as you.' },
  {
    id: 'filesystem:write',
    risk: 'danger',
    title: 'Change and delete your files',
    description: 'Create, overwrite and delete files on this computer in folders you allow.',
  },
  {
    id: 'hook:register',
    risk: 'danger',
    title: 'Change how the launcher works',
    description: 'Intercept launcher functions, change what they do or block them.',
  },
] as const satisfies readonly PermissionRow[];

/** The id of a permission a manifest may declare, such as `config:read` or `shell:execute`. */
export type PermissionId = (typeof TABLE)[number]['id'];

/** One row of the permission table. */
export interface Permission {
  /** The id a manifest declares in `permissions`. */
  readonly id: PermissionId;
  /** The risk, which sets the install dialog colour. */
  readonly risk: PermissionRisk;
  /** A short title for the install dialog and the CLI, such as "Run programs". */
  readonly title: string;
  /** One plain sentence telling a player what the plugin may do with it. */
  readonly description: string;
}

/**
 * Every permission, grouped by risk (normal, warning, danger) in the order of the specification's
 * table, with `plugin:log` last among the normal ones.
 */
export const PERMISSIONS: readonly Permission[] = Object.freeze(TABLE.map((row): Permission => Object.freeze({ ...row })));

const BY_ID: ReadonlyMap<string, Permission> = new Map(PERMISSIONS.map((permission) => [permission.id, permission]));

/** True when `id` is a permission of the table. */
export function isPermissionId(id: unknown): id is PermissionId {
  return typeof id === 'string' && BY_ID.has(id);
}

/**
 * The table row of `id`, or `undefined` for an id the table does not know.
 *
 * @example
 * ```ts
 * getPermission('shell:execute')?.risk; // 'danger'
 * ```
 */
export function getPermission(id: string): Permission | undefined {
  return BY_ID.get(id);
}

/** Orders risks: negative when `a` is lower than `b`, zero when equal, positive when higher. */
export function compareRisk(a: PermissionRisk, b: PermissionRisk): number {
  return PERMISSION_RISKS.indexOf(a) - PERMISSION_RISKS.indexOf(b);
}
