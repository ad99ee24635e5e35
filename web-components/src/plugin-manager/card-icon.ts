/**
 * The plugin card icon (specification, manifest `icon`): `contributes.menuItems[0].icon`, then
 * `icon`. Each may be an icon-font class string, an `https:` or `data:image/` URL, or a package
 * path of an image. Anything else (another URL scheme, an unsafe package path) falls back to the
 * plugin's initial, the same rules manifest validation applies, so an unvalidated manifest cannot
 * point an image at `javascript:` or outside the package.
 */
import { findPackagePathProblem, type PluginManifest } from '@plughost/host-sdk/core';

/** What a card shows as its icon. */
export type CardIcon =
  | { readonly kind: 'class'; readonly className: string }
  | { readonly kind: 'image'; readonly src: string }
  | { readonly kind: 'initial'; readonly text: string };

const URL_SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
const IMAGE_FILE = /\.(?:png|apng|svg|jpe?g|gif|webp|avif|ico|bmp)$/i;

/** The icon value a card uses: the first menu item's icon, else the top-level icon. */
export function cardIconValue(manifest: Pick<PluginManifest, 'icon' | 'contributes'> | undefined): string | undefined {
  const fromMenu = manifest?.contributes?.menuItems?.[0]?.icon;
  if (typeof fromMenu === 'string' && fromMenu.trim() !== '') return fromMenu.trim();
  const top = manifest?.icon;
  return typeof top === 'string' && top.trim() !== '' ? top.trim() : undefined;
}

/** The first character of `name` (upper case), or `?` for an empty name. */
export function initialOf(name: string): string {
  const first = Array.from(name.trim())[0];
  return first === undefined ? '?' : first.toLocaleUpperCase();
}

/**
 * Classifies a card icon.
 *
 * @param value - The icon value from {@link cardIconValue}.
 * @param name - The plugin name, for the initial fallback.
 * @param filesBase - The URL of the plugin's files folder, such as `/api/plugins/<id>/files`.
 */
export function resolveCardIcon(value: string | undefined, name: string, filesBase: string): CardIcon {
  const initial: CardIcon = { kind: 'initial', text: initialOf(name) };
  if (value === undefined) return initial;
  const scheme = URL_SCHEME.exec(value)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (scheme === 'https' || (scheme === 'data' && /^data:image\//i.test(value))) return { kind: 'image', src: value };
    return initial;
  }
  if (IMAGE_FILE.test(value) || value.includes('/')) {
    if (findPackagePathProblem(value) !== null) return initial;
    const base = filesBase.replace(/\/+$/, '');
    return { kind: 'image', src: `${base}/${value.split('/').map(encodeURIComponent).join('/')}` };
  }
  // An icon-font class string: set as the `class` attribute (text), never parsed as markup.
  return { kind: 'class', className: value.split(/\s+/).filter(Boolean).join(' ') };
}
