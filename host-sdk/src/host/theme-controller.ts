import { THEME_OVERRIDE_STYLE_ID, buildThemeOverrideCss } from '../core/bridge/theme-tokens.js';

/** The `dataset` key that marks a plugin's style element: its theme CSS, or its icon theme. */
export type ThemeMarker = 'pluginTheme' | 'pluginIconTheme';

/**
 * The document-level styling plugins may affect: a plugin's theme CSS (`entry.theme`, a style
 * element marked `data-plugin-theme`), its icon theme (`contributes.iconTheme`, a style element
 * marked `data-plugin-icon-theme`), its `contributes.fontLinks`, and the one theme override
 * (`applyThemeOverride`, a style element with id `plugin-theme-override` using `:root:root`).
 */
export class ThemeController {
  constructor(private readonly document: Document) {}

  /**
   * Injects (or replaces) a style element of `pluginId`: its theme CSS (`entry.theme`, marked
   * `data-plugin-theme`), or with `marker` `pluginIconTheme` its icon theme
   * (`contributes.iconTheme`, marked `data-plugin-icon-theme`). The CSS is text content, never markup.
   */
  injectTheme(pluginId: string, css: string, marker: ThemeMarker = 'pluginTheme'): void {
    this.removeStyles(pluginId, marker);
    const style = this.document.createElement('style');
    style.dataset[marker] = pluginId;
    style.textContent = css;
    this.document.head.append(style);
  }

  /** Removes the theme CSS and the icon theme of `pluginId`. */
  removeTheme(pluginId: string): void {
    this.removeStyles(pluginId, 'pluginTheme');
    this.removeStyles(pluginId, 'pluginIconTheme');
  }

  private removeStyles(pluginId: string, marker: ThemeMarker): void {
    for (const element of this.document.head.querySelectorAll('style')) {
      if (element.dataset[marker] === pluginId) element.remove();
    }
  }

  /**
   * Adds `<link rel="stylesheet">` elements for font stylesheets: https URLs, and URLs of
   * `filesOrigin` (the backend serving the plugin's own files); other URLs are ignored.
   */
  injectFontLinks(pluginId: string, urls: readonly string[], filesOrigin?: string): void {
    this.removeFontLinks(pluginId);
    for (const url of urls) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        continue;
      }
      if (parsed.protocol !== 'https:' && parsed.origin !== filesOrigin) continue;
      const link = this.document.createElement('link');
      link.rel = 'stylesheet';
      link.href = parsed.href;
      link.crossOrigin = 'anonymous';
      link.referrerPolicy = 'no-referrer';
      link.dataset.pluginFont = pluginId;
      this.document.head.append(link);
    }
  }

  removeFontLinks(pluginId: string): void {
    for (const element of this.document.head.querySelectorAll('link[data-plugin-font]')) {
      if ((element as HTMLElement).dataset.pluginFont === pluginId) element.remove();
    }
  }

  /**
   * Applies a theme override (every token and value validated; see `buildThemeOverrideCss`),
   * replacing the previous one.
   *
   * @throws PluginHostError `INVALID_ARGUMENT` naming the bad token or value.
   */
  applyOverride(vars: unknown): void {
    const css = buildThemeOverrideCss(vars);
    let style = this.document.getElementById(THEME_OVERRIDE_STYLE_ID);
    if (!(style instanceof HTMLStyleElement)) {
      style?.remove();
      style = this.document.createElement('style');
      style.id = THEME_OVERRIDE_STYLE_ID;
      this.document.head.append(style);
    }
    style.textContent = css;
  }

  clearOverride(): void {
    this.document.getElementById(THEME_OVERRIDE_STYLE_ID)?.remove();
  }
}
