/**
 * The manifest (`manifest.json` at the package root) as the SDK hands it out after validation.
 */
import type { PermissionId } from '../permissions.js';
import type { Contributes } from './contributes-types.js';

/**
 * A layer a package declares. Packages with page scripts use `l2`; WASM packages contain `l3`;
 * the store publishes packages whose layers are exactly `l3` without review.
 */
export type Layer = 'l0' | 'l1' | 'l2' | 'l3' | 'l4';

/** Every layer, in order. */
export const LAYERS: readonly Layer[] = ['l0', 'l1', 'l2', 'l3', 'l4'];

/** How the launcher renders `entry.frontend`: a sandboxed frame (default) or inline in its own window. */
export type RenderMode = 'iframe' | 'inline';

/** Every render mode; `iframe` is the default. */
export const RENDER_MODES: readonly RenderMode[] = ['iframe', 'inline'];

/** The files the launcher loads (`entry`). At least one field is present. */
export interface ManifestEntry {
  /** Package path of the HTML page activated in a frame or inline. Only plugins with it are activated. */
  readonly frontend?: string;
  /** Package path of the plugin's backend part. */
  readonly backend?: string;
  /** Package path of a CSS file injected as a style element marked `data-plugin-theme` on activation. */
  readonly theme?: string;
}

/** A dependency written as an object; `optional: true` lets the plugin run without it. */
export interface DependencyObject {
  /** A semver range the dependency's version must satisfy, such as `^1.2.0`. */
  readonly range: string;
  /** When true the plugin also activates without the dependency (default false). */
  readonly optional?: boolean;
}

/**
 * The `dependencies` object: plugin id to a semver range (required) or to
 * `{"range": "...", "optional": true}`.
 *
 * @example
 * ```json
 * { "com.example.core": "^1.2.0", "com.example.charts": { "range": ">=2.0.0", "optional": true } }
 * ```
 */
export type DependencySpec = Readonly<Record<string, string | DependencyObject>>;

/** A validated manifest. It is always a fresh plain object, never the object that was validated. */
export interface PluginManifest {
  /** URL of a JSON schema, for editors; not used by the launcher. */
  readonly $schema?: string;
  /** Reverse-domain, lower-case id; the install folder name and dependency key. Never changes after publishing. */
  readonly id: string;
  /** Human-readable name. */
  readonly name: string;
  /** Strict semver version, such as `1.2.3`, `1.2.3-beta.1` or `1.2.3+build5`. */
  readonly version: string;
  /** Lowest launcher version the plugin is made for (strict semver; not enforced at runtime). */
  readonly minLauncherVersion: string;
  /** Non-empty list of distinct layers. */
  readonly layers: readonly Layer[];
  /** Distinct permission ids from the permission table; may be empty. */
  readonly permissions: readonly PermissionId[];
  /** The files the launcher loads; absent only in a WASM-only package. */
  readonly entry?: ManifestEntry;
  /** How `entry.frontend` is rendered; absent means `iframe`. */
  readonly render?: RenderMode;
  /** Plugin card icon when there is no menu item: icon-font class, `https:`/`data:image/` URL or package path. */
  readonly icon?: string;
  /** Plugins this one needs, with version ranges. */
  readonly dependencies?: DependencySpec;
  /** What the plugin adds to the launcher's interface. */
  readonly contributes?: Contributes;
  /** One-paragraph description for plugin cards and the store. */
  readonly description?: string;
  /** Author name as shown to players. */
  readonly author?: string;
  /** An `https:` or `http:` URL of the plugin's home page. */
  readonly homepage?: string;
  /** License name, ideally an SPDX expression such as `MIT`. */
  readonly license?: string;
}
