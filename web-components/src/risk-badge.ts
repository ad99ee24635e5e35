import { html, type TemplateResult } from 'lit';
import type { PermissionRisk } from '@plughost/host-sdk/core';

/** Each risk's word, shown with its colour: colour is never the only signal of a risk. */
export const RISK_LABEL: Readonly<Record<PermissionRisk, string>> = {
  normal: 'Normal',
  warning: 'Warning',
  danger: 'Danger',
};

/** Each risk's shape, a second signal beside the colour for who cannot tell the colours apart. */
const RISK_SHAPE: Readonly<Record<PermissionRisk, string>> = {
  normal: '●',
  warning: '▲',
  danger: '◆',
};

/**
 * The content of a risk badge: its shape (hidden from assistive technology, which reads the word)
 * and its word. The element around it carries the colour.
 */
export function riskBadgeContent(risk: PermissionRisk): TemplateResult {
  return html`<span class="risk-shape" aria-hidden="true">${RISK_SHAPE[risk]}</span> ${RISK_LABEL[risk]}`;
}
