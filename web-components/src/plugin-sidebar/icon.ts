/**
 * How a sidebar icon is shown: an icon-font class string (`ri-server-line`), an `https:` or
 * `data:image/` URL, or a package path of an image (the manifest's icon rule, see the core's
 * `readIcon`). Other URL schemes show no icon.
 */

/** An icon, classified. */
export type SidebarIcon = { readonly kind: 'class'; readonly className: string } | { readonly kind: 'image'; readonly src: string } | { readonly kind: 'none' };

const URL_SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
const IMAGE_FILE = /\.(?:png|apng|svg|jpe?g|gif|webp|avif|ico|bmp)$/i;
const CLASS_LIST = /^[A-Za-z0-9_\-: ]+$/;

/**
 * Classifies `icon` of `pluginId`. A package path needs `filesOrigin` (the backend origin that
 * serves `/api/plugins/<id>/files/<path>`); without it the item shows no icon.
 */
export function sidebarIcon(icon: string | undefined, pluginId: string, filesOrigin: string | undefined): SidebarIcon {
  const value = icon?.trim();
  if (!value) return { kind: 'none' };
  const scheme = URL_SCHEME.exec(value)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (scheme === 'https' || (scheme === 'data' && /^data:image\//i.test(value))) return { kind: 'image', src: value };
    if (scheme === 'http' && filesOrigin && value.startsWith(`${filesOrigin.replace(/\/+$/, '')}/`)) return { kind: 'image', src: value };
    return { kind: 'none' };
  }
  if (IMAGE_FILE.test(value) || value.includes('/')) {
    if (!filesOrigin) return { kind: 'none' };
    const path = value
      .replace(/^\.?\/+/, '')
      .split('/')
      .map(encodeURIComponent)
      .join('/');
    return { kind: 'image', src: `${filesOrigin.replace(/\/+$/, '')}/api/plugins/${encodeURIComponent(pluginId)}/files/${path}` };
  }
  return CLASS_LIST.test(value) ? { kind: 'class', className: value.replace(/\s+/g, ' ') } : { kind: 'none' };
}
