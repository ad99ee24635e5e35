/** The styles of `<plugin-store>`: the toolbar, the cards, the pages and the detail panel, all from the theme tokens. */
import { css } from 'lit';
import { buttonStyles, cardIconStyles, dialogStyles } from '../shared-styles.js';

/** The element's own rules, after the shared card-icon, button and dialog styles. */
const storeRules = css`
  :host {
    --_dialog-width: 42rem;
    display: block;
    color: hsl(var(--foreground, 0 0% 10%));
  }
  [hidden] {
    display: none !important;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
  .toolbar {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 0.75rem;
    align-items: end;
    margin-bottom: 0.75rem;
  }
  form[role='search'] {
    flex: 1 1 16rem;
    display: flex;
  }
  label {
    display: grid;
    gap: 0.2rem;
    font-size: 0.8rem;
    color: hsl(var(--muted-foreground, 0 0% 40%));
  }
  /* The controls are drawn entirely from the theme tokens, whatever the page's color-scheme:
     WebKitGTK draws a native select in the colours of the page's scheme (light without one),
     under the themed text colour, which is unreadable on a dark theme. */
  input,
  select {
    font: inherit;
    font-size: 0.9rem;
    padding: 0.4rem 0.6rem;
    border-radius: 0.5rem;
    border: 1px solid hsl(var(--input, 0 0% 80%));
    background-color: hsl(var(--background, 0 0% 100%));
    color: hsl(var(--foreground, 0 0% 10%));
  }
  input {
    flex: 1;
    min-width: 0;
  }
  input::placeholder {
    color: hsl(var(--muted-foreground, 0 0% 40%));
    opacity: 1;
  }
  /* No native widget: a chevron in the text colour (two gradient triangles) replaces its arrow. */
  select {
    appearance: none;
    -webkit-appearance: none;
    padding-right: 2rem;
    background-image:
      linear-gradient(45deg, transparent 50%, currentColor 50%),
      linear-gradient(135deg, currentColor 50%, transparent 50%);
    background-position:
      right 1rem center,
      right 0.7rem center;
    background-size: 0.3rem 0.3rem;
    background-repeat: no-repeat;
  }
  /* The open list: engines that style it (Chromium, Firefox) take these; others draw a menu in the page's scheme. */
  option {
    background-color: hsl(var(--popover, 0 0% 100%));
    color: hsl(var(--popover-foreground, 0 0% 10%));
  }
  input:focus-visible,
  select:focus-visible,
  button:focus-visible {
    outline: 2px solid hsl(var(--ring, 217 91% 60%));
    outline-offset: 2px;
  }
  .count {
    margin: 0 0 0.75rem;
    font-size: 0.875rem;
    color: hsl(var(--muted-foreground, 0 0% 40%));
    min-height: 1.25em;
  }
  ul.list {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr));
    gap: 0.75rem;
  }
  ul.list[aria-busy='true'] {
    opacity: 0.6;
  }
  .card {
    display: flex;
    flex-direction: column;
    gap: 0.5rem;
    padding: 0.75rem 1rem;
    border: 1px solid hsl(var(--border, 0 0% 85%));
    border-radius: 0.75rem;
    background: hsl(var(--card, 0 0% 100%));
    color: hsl(var(--card-foreground, 0 0% 10%));
    cursor: pointer;
    min-width: 0;
  }
  .card:hover {
    border-color: hsl(var(--accent-foreground, 222 47% 40%) / 0.5);
  }
  /* Busy: a primary border and a progress cursor (dimming the text would lose contrast). */
  .card[aria-busy='true'] {
    border-color: hsl(var(--primary, 222 47% 11%));
    cursor: progress;
  }
  .head {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: 0.75rem;
    align-items: center;
  }
  .title {
    min-width: 0;
  }
  /* A card's title: a level-2 heading under the launcher page's own h1. */
  h2.name {
    margin: 0;
    font-size: 1rem;
    overflow-wrap: anywhere;
  }
  .open {
    all: unset;
    cursor: pointer;
    font-weight: 600;
    border-radius: 0.25rem;
  }
  .open:hover {
    text-decoration: underline;
  }
  .version {
    display: block;
    color: hsl(var(--muted-foreground, 0 0% 40%));
    font-size: 0.8rem;
  }
  .description {
    margin: 0;
    font-size: 0.875rem;
    overflow: hidden;
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: 3;
    line-clamp: 3;
    overflow-wrap: anywhere;
  }
  .tags {
    list-style: none;
    margin: 0;
    padding: 0;
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem;
  }
  .tags li {
    padding: 0.05rem 0.45rem;
    border-radius: 999px;
    font-size: 0.75rem;
    background: hsl(var(--secondary, 210 40% 94%));
    color: hsl(var(--secondary-foreground, 222 47% 11%));
    overflow-wrap: anywhere;
  }
  .meta {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 0.75rem;
    font-size: 0.8rem;
    color: hsl(var(--muted-foreground, 0 0% 40%));
  }
  .stars {
    color: hsl(var(--chart-4, 43 74% 49%));
    letter-spacing: 0.05em;
  }
  .foot {
    margin-top: auto;
    display: flex;
    flex-direction: column;
    align-items: flex-end;
    gap: 0.35rem;
  }
  .update-problem {
    margin: 0;
    font-size: 0.8rem;
    color: hsl(var(--destructive, 0 72% 45%));
    overflow-wrap: anywhere;
  }
  button[data-action='pending'] {
    background: transparent;
    border-style: dashed;
  }
  button[data-action='install'],
  button[data-action='update'] {
    background: hsl(var(--primary, 222 47% 11%));
    color: hsl(var(--primary-foreground, 0 0% 98%));
    border-color: transparent;
  }
  button[data-action='installed'] {
    background: transparent;
  }
  button[data-action='installed']:disabled {
    opacity: 0.8;
  }
  .empty,
  .loading {
    margin: 0;
    padding: 1rem;
    color: hsl(var(--muted-foreground, 0 0% 40%));
  }
  .empty p {
    margin: 0 0 0.5rem;
  }
  .error {
    padding: 0.75rem 1rem;
    border-radius: 0.5rem;
    border: 1px solid hsl(var(--destructive, 0 84% 60%));
    color: hsl(var(--destructive, 0 72% 45%));
    overflow-wrap: anywhere;
  }
  .error p {
    margin: 0 0 0.5rem;
  }
  .error .problem {
    color: hsl(var(--foreground, 0 0% 10%));
  }
  .error .problems {
    margin: 0 0 0.5rem;
    padding-left: 1.25rem;
    color: hsl(var(--foreground, 0 0% 10%));
  }
  .source {
    margin: 0 0 0.5rem;
    font-size: 0.8rem;
    color: hsl(var(--muted-foreground, 0 0% 40%));
  }
  .source .badge {
    padding: 0.05rem 0.4rem;
    border-radius: 999px;
    background: hsl(var(--secondary, 0 0% 92%));
    color: hsl(var(--secondary-foreground, 0 0% 10%));
  }
  nav {
    display: flex;
    gap: 0.75rem;
    align-items: center;
    justify-content: center;
    margin-top: 1rem;
    font-size: 0.875rem;
  }
  .detail-head {
    display: grid;
    grid-template-columns: auto 1fr auto;
    gap: 0.75rem;
    align-items: start;
    margin-bottom: 0.75rem;
  }
  h2:not(.name) {
    margin: 0;
    font-size: 1.25rem;
    overflow-wrap: anywhere;
  }
  .sub {
    margin: 0.15rem 0 0;
    font-size: 0.85rem;
    color: hsl(var(--muted-foreground, 0 0% 40%));
    overflow-wrap: anywhere;
  }
  .mono {
    font-family: ui-monospace, monospace;
    font-size: 0.85em;
  }
  .detail-description {
    margin: 0 0 0.75rem;
    white-space: pre-line;
    overflow-wrap: anywhere;
  }
  .detail-meta {
    margin-bottom: 0.75rem;
  }
  .detail-actions {
    display: flex;
    justify-content: flex-end;
    margin-bottom: 1rem;
  }
  h3.section {
    margin: 1rem 0 0.5rem;
    font-size: 1rem;
  }
  ol.versions {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.5rem;
  }
  ol.versions li {
    padding: 0.5rem 0.75rem;
    border: 1px solid hsl(var(--border, 0 0% 85%));
    border-radius: 0.5rem;
  }
  .version-line {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 0.75rem;
    align-items: baseline;
    font-size: 0.85rem;
    color: hsl(var(--muted-foreground, 0 0% 40%));
  }
  .version-line strong {
    font-size: 0.95rem;
    color: hsl(var(--popover-foreground, 0 0% 10%));
  }
  .changelog {
    margin: 0.35rem 0 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    font-size: 0.875rem;
  }
  .no-changelog {
    margin: 0.35rem 0 0;
    font-size: 0.85rem;
    font-style: italic;
    color: hsl(var(--muted-foreground, 0 0% 40%));
  }
`;

/** Everything `<plugin-store>` styles its shadow root with, in cascade order. */
export const storeStyles = [cardIconStyles, buttonStyles, dialogStyles, storeRules];
