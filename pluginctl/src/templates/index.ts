/**
 * The project templates of `pluginctl create`, embedded as file maps so the one-file bundle needs
 * no template files at run time.
 */
import { HTML_TEMPLATE } from './html-template.js';
import { LIB_TEMPLATE } from './lib-template.js';
import { REACT_TEMPLATE } from './react-template.js';
import type { ProjectTemplate } from './template-types.js';
import { WASM_TEMPLATE } from './wasm-template.js';

export type { ProjectTemplate } from './template-types.js';

/** Template names, the first being the default. */
export const TEMPLATE_NAMES = ['react', 'html', 'lib', 'wasm'] as const;

/** A template name. */
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

/** Every template by name. */
export const TEMPLATES: Readonly<Record<TemplateName, ProjectTemplate>> = {
  react: REACT_TEMPLATE,
  html: HTML_TEMPLATE,
  lib: LIB_TEMPLATE,
  wasm: WASM_TEMPLATE,
};

/** True when `name` is a template name. */
export function isTemplateName(name: string): name is TemplateName {
  return (TEMPLATE_NAMES as readonly string[]).includes(name);
}

/**
 * A display name from a plugin id: its last segment in words, capitalised
 * (`com.example.server-status` → `Server Status`).
 */
export function displayNameOf(id: string): string {
  const last = id.slice(id.lastIndexOf('.') + 1);
  return last
    .split(/[-_]+/)
    .filter((word) => word !== '')
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join(' ');
}

/** The files of `template` for the plugin `id`, placeholders replaced. */
export function renderTemplate(template: ProjectTemplate, id: string): Map<string, string> {
  const name = displayNameOf(id);
  const files = new Map<string, string>();
  for (const [path, text] of Object.entries(template.files)) {
    // The id and name are [a-z0-9._-] and words of it, so they need no escaping in JSON, HTML or
    // JS. split/join rather than replaceAll with a string: no `$&`-style replacement patterns.
    files.set(path, text.split('__PLUGIN_ID__').join(id).split('__PLUGIN_NAME__').join(name));
  }
  return files;
}
