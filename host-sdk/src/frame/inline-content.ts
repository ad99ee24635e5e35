/**
 * Turning a plugin page into content for the launcher's own document (inline mode): the HTML shell
 * is stripped, URLs are rewritten, and scripts are set aside so they can run in order later.
 */
import type { PluginUrlResolver } from './plugin-url.js';
import { removeBaseElements, rewritePluginUrls } from './rewrite-urls.js';

/** A plugin script waiting to run, kept as data until its turn. */
export interface PendingScript {
  /** Stands where the script was; the live script replaces it. */
  readonly placeholder: Comment;
  /** Namespace of the script element: HTML, or SVG for a script inside `<svg>`. */
  readonly namespace: string | null;
  readonly attributes: readonly { readonly namespace: string | null; readonly name: string; readonly value: string }[];
  readonly text: string;
}

/** The prepared content: nodes owned by the target document, scripts set aside. */
export interface InlineContent {
  readonly fragment: DocumentFragment;
  readonly scripts: readonly PendingScript[];
}

/**
 * Parses `html`, keeps the body's content and, from `<head>`, only what belongs to the plugin's
 * content (`<style>`, stylesheet `<link>`, `<script>`, `<template>`). `<title>`, `<meta>`,
 * `<base>` and other links are dropped: they would act on the launcher's document.
 */
export function prepareInlineContent(target: Document, html: string, resolver: PluginUrlResolver, nonce?: string): InlineContent {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  removeBaseElements(parsed);
  rewritePluginUrls(parsed, resolver);

  const fragment = target.createDocumentFragment();
  for (const node of [...parsed.head.children].filter(keepFromHead)) fragment.append(target.importNode(node, true));
  for (const node of parsed.body.childNodes) fragment.append(target.importNode(node, true));
  if (nonce !== undefined) for (const style of fragment.querySelectorAll('style')) style.setAttribute('nonce', nonce);

  // Scripts are replaced by placeholders before the fragment reaches the document: whether a
  // script that came from DOMParser would run when inserted is not something to rely on, and
  // they must run one after the other anyway.
  const scripts: PendingScript[] = [];
  for (const script of fragment.querySelectorAll('script')) {
    const placeholder = target.createComment(' plugin script ');
    scripts.push({
      placeholder,
      namespace: script.namespaceURI,
      attributes: [...script.attributes].map((attribute) => ({
        namespace: attribute.namespaceURI,
        name: attribute.name,
        value: attribute.value,
      })),
      text: script.textContent ?? '',
    });
    script.replaceWith(placeholder);
  }
  return { fragment, scripts };
}

function keepFromHead(element: Element): boolean {
  switch (element.localName) {
    case 'style':
    case 'script':
    case 'template':
      return true;
    case 'link':
      return (element.getAttribute('rel') ?? '')
        .toLowerCase()
        .split(/[\t\n\f\r ]+/)
        .includes('stylesheet');
    default:
      return false;
  }
}
