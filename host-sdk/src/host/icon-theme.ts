/**
 * The style sheet of a plugin's icon theme (`contributes.iconTheme`), loaded with the first plugin
 * that has one. Each icon becomes a custom property on `:root`, which the launcher's own styles
 * (shadow roots included: custom properties inherit through them) use with a fallback to their
 * default icon:
 *
 * ```css
 * .nav-home::before { background-image: var(--launcher-icon-home, url(/ui/icons/home.svg)); }
 * ```
 */
import { ErrorCode, PluginHostError } from '../core/errors.js';
import { parseIconTheme } from '../core/manifest/icon-theme.js';
import type { PluginManifest } from '../core/manifest/manifest-types.js';
import type { PluginFiles } from './plugin-files.js';
import type { ThemeController } from './theme-controller.js';

/** A CSS string: `"` and `\` escaped, and every control character as a hex escape, so nothing ends it early. */
function cssString(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must be escaped
  return `"${value.replace(/["\\\u0000-\u001f\u007f]/g, (character) => `\\${character.charCodeAt(0).toString(16)} `)}"`;
}

/**
 * The CSS of the icon theme `text` (the file `path` of `pluginId`): `:root` with
 * `--launcher-icon-<name>: url("<absolute URL>")` per icon. A package path is served from
 * `filesBase`, the plugin's files folder.
 *
 * @throws PluginHostError `PLUGIN_LOAD_FAILED` naming the file and what is wrong with it.
 */
export function iconThemeCss(pluginId: string, path: string, text: string, filesBase: string): string {
  const parsed = parseIconTheme(text);
  if (!parsed.ok) {
    throw new PluginHostError(
      ErrorCode.PLUGIN_LOAD_FAILED,
      `The icon theme ${path} of ${pluginId} is invalid: ${parsed.problem}; fix the file and reinstall the plugin`,
      {
        path,
      },
    );
  }
  const declarations = [...parsed.theme.icons].map(([name, image]) => {
    const url = image.kind === 'url' ? image.url : `${filesBase}/${image.path.split('/').map(encodeURIComponent).join('/')}`;
    return `  --launcher-icon-${name}: url(${cssString(url)});`;
  });
  return `:root {\n${declarations.join('\n')}\n}\n`;
}

/**
 * Reads, checks and injects the icon theme of `manifest` (`contributes.iconTheme`), replacing the
 * plugin's previous one; `ThemeController.removeTheme` removes it with the plugin.
 *
 * @throws PluginHostError `PLUGIN_LOAD_FAILED` when the file cannot be read or is not a valid icon theme.
 */
export async function applyIconTheme(manifest: PluginManifest, files: PluginFiles, theme: ThemeController): Promise<void> {
  const path = manifest.contributes?.iconTheme;
  if (path === undefined) return;
  theme.injectTheme(manifest.id, iconThemeCss(manifest.id, path, await files.text(manifest.id, path), files.base(manifest.id)), 'pluginIconTheme');
}
