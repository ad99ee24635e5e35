/**
 * Rewriting the relative URLs of a parsed plugin page, shared by the sandbox frame document and
 * the inline mount: URL attributes, `srcset` candidates, and `url(...)` in `<style>` elements and
 * `style` attributes. `javascript:` URLs are removed.
 */
import { rewriteCssUrls } from './css-urls.js';
import type { PluginUrlResolver, UrlRewrite } from './plugin-url.js';
import { rewriteSrcset } from './srcset.js';

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';
const XLINK_NAMESPACE = 'http://www.w3.org/1999/xlink';

/** Attributes (without namespace) holding one URL on any element. */
const URL_ATTRIBUTES = new Set(['src', 'href', 'poster', 'action', 'formaction', 'background']);
/** Attributes holding a list of image candidates. */
const SRCSET_ATTRIBUTES = new Set(['srcset', 'imagesrcset']);

/**
 * Rewrites, in place, every URL of the elements below `root`, including the content of
 * `<template>` elements (plugins clone those into the page later).
 */
export function rewritePluginUrls(root: ParentNode, resolver: PluginUrlResolver): void {
  for (const element of root.querySelectorAll('*')) {
    rewriteElement(element, resolver);
    if (element.namespaceURI === HTML_NAMESPACE && element.localName === 'template') {
      rewritePluginUrls((element as HTMLTemplateElement).content, resolver);
    }
  }
}

/**
 * Removes every `<base>` element. The frame's base URL is the launcher's to choose: a plugin's own
 * `<base>` could point relative fetches and imports at another host.
 */
export function removeBaseElements(root: ParentNode): void {
  for (const base of root.querySelectorAll('base')) base.remove();
}

function rewriteElement(element: Element, resolver: PluginUrlResolver): void {
  const resolve = (reference: string): UrlRewrite => resolver.resolve(reference);
  // A copy: removing an attribute while walking the live NamedNodeMap would skip the next one.
  for (const attribute of [...element.attributes]) {
    const name = attribute.localName;
    if (attribute.namespaceURI === XLINK_NAMESPACE) {
      if (name === 'href') rewriteUrlAttribute(element, attribute, resolve);
    } else if (attribute.namespaceURI !== null) {
    } else if (URL_ATTRIBUTES.has(name) || (name === 'data' && element.localName === 'object')) {
      rewriteUrlAttribute(element, attribute, resolve);
    } else if (SRCSET_ATTRIBUTES.has(name)) {
      attribute.value = rewriteSrcset(attribute.value, resolve);
    } else if (name === 'style') {
      attribute.value = rewriteCssUrls(attribute.value, resolve);
    }
  }
  if (element.localName === 'style') {
    const css = element.textContent ?? '';
    const rewritten = rewriteCssUrls(css, resolve);
    if (rewritten !== css) element.textContent = rewritten;
  }
}

function rewriteUrlAttribute(element: Element, attribute: Attr, resolve: (reference: string) => UrlRewrite): void {
  const decision = resolve(attribute.value);
  if (decision.action === 'remove') element.removeAttributeNode(attribute);
  else if (decision.action === 'rewrite') attribute.value = decision.url;
}
