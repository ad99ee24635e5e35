/** The styles of `<launcher-settings-page>`, from the theme tokens. */
import { css } from 'lit';
import { buttonStyles, switchStyles } from '../shared-styles.js';

const pageRules = css`
  :host {
    display: block;
    color: hsl(var(--foreground, 222 47% 11%));
  }
  [hidden] {
    display: none !important;
  }
  [role='tablist'] {
    display: flex;
    gap: 0.25rem;
    margin-bottom: 1rem;
    border-bottom: 1px solid hsl(var(--border, 214 32% 91%));
  }
  [role='tab'] {
    padding: 0.45rem 0.8rem;
    border: none;
    border-bottom: 2px solid transparent;
    border-radius: 0;
    background: none;
    color: hsl(var(--muted-foreground, 215 16% 40%));
  }
  [role='tab'][aria-selected='true'] {
    color: hsl(var(--foreground, 222 47% 11%));
    border-bottom-color: hsl(var(--primary, 222 47% 31%));
  }
  button:focus-visible,
  input:focus-visible {
    outline: 2px solid hsl(var(--ring, 217 91% 60%));
    outline-offset: 2px;
  }
  fieldset {
    margin: 0 0 1.25rem;
    padding: 0.75rem 1rem 1rem;
    border: 1px solid hsl(var(--border, 214 32% 91%));
    border-radius: 0.75rem;
    background: hsl(var(--card, 0 0% 100%));
    color: hsl(var(--card-foreground, 222 47% 11%));
  }
  legend {
    padding: 0 0.35rem;
    font-weight: 600;
  }
  .hint {
    margin: 0.25rem 0 0.75rem;
    font-size: 0.875rem;
    color: hsl(var(--muted-foreground, 215 16% 40%));
  }
  .switch-row {
    display: flex;
    align-items: center;
    gap: 0.75rem;
  }
  .sources {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.5rem;
  }
  .source {
    padding: 0.5rem 0.75rem;
    border: 1px solid hsl(var(--border, 214 32% 91%));
    border-left: 4px solid var(--_state, hsl(var(--muted-foreground, 215 16% 40%)));
    border-radius: 0.5rem;
  }
  .source[data-state='active'] {
    --_state: hsl(var(--primary, 222 47% 31%));
  }
  .source[data-state='usable'] {
    --_state: hsl(142 72% 29%);
  }
  .source[data-state='unusable'] {
    --_state: hsl(var(--destructive, 0 72% 45%));
  }
  .source-head {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 0.25rem 0.5rem;
  }
  .url {
    font-family: ui-monospace, monospace;
    font-size: 0.85rem;
    overflow-wrap: anywhere;
  }
  .badge {
    padding: 0.05rem 0.5rem;
    border-radius: 999px;
    font-size: 0.75rem;
    font-weight: 600;
    background: hsl(var(--secondary, 210 40% 92%));
    color: hsl(var(--secondary-foreground, 222 47% 11%));
  }
  .badge.active {
    background: hsl(var(--primary, 222 47% 11%));
    color: hsl(var(--primary-foreground, 0 0% 98%));
  }
  .source-status {
    margin: 0.25rem 0;
    font-size: 0.8rem;
    color: hsl(var(--muted-foreground, 215 16% 40%));
    overflow-wrap: anywhere;
  }
  .last-error {
    display: block;
    color: hsl(var(--destructive, 0 72% 45%));
  }
  .source-controls {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 1rem;
    font-size: 0.875rem;
  }
  .source-controls .end {
    margin-left: auto;
    display: flex;
    gap: 0.35rem;
  }
  .add {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem;
    margin-top: 0.75rem;
  }
  input[type='url'],
  input[type='number'] {
    font: inherit;
    padding: 0.3rem 0.5rem;
    border: 1px solid hsl(var(--input, 214 32% 80%));
    border-radius: 0.4rem;
    background: hsl(var(--background, 0 0% 100%));
    color: inherit;
  }
  input[type='url'] {
    flex: 1;
    min-width: 14rem;
  }
  input[type='number'] {
    width: 5rem;
  }
  input[aria-invalid='true'] {
    border-color: hsl(var(--destructive, 0 72% 45%));
  }
  .problem {
    margin: 0.5rem 0 0;
    font-size: 0.875rem;
    color: hsl(var(--destructive, 0 72% 45%));
    overflow-wrap: anywhere;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 0.75rem;
  }
  .actions .primary {
    border-color: transparent;
    background: hsl(var(--primary, 222 47% 11%));
    color: hsl(var(--primary-foreground, 0 0% 98%));
  }
  .loading {
    color: hsl(var(--muted-foreground, 215 16% 40%));
  }
`;

export const settingsStyles = [buttonStyles, switchStyles, pageRules];
