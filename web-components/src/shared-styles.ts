import { css } from 'lit';

/** The square plugin icon of cards (manager and store): an image, an icon-font glyph or an initial. */
export const cardIconStyles = css`
    .icon {
      display: inline-flex;
      align-items: center;
      justify-content: center;
      flex: none;
      width: 2.5rem;
      height: 2.5rem;
      border-radius: 0.5rem;
      overflow: hidden;
      background: hsl(var(--muted, 210 40% 96%));
      color: hsl(var(--muted-foreground, 0 0% 40%));
      font-size: 1.25rem;
      font-weight: 600;
      line-height: 1;
    }
    .icon img {
      width: 100%;
      height: 100%;
      object-fit: contain;
    }
`;

/**
 * The modal dialogs of the package (install dialog, store detail): themed popover colours, a
 * backdrop, scrolling when taller than the window. `--_dialog-width` on the host sets the width.
 */
export const dialogStyles = css`
    dialog {
      box-sizing: border-box;
      width: min(var(--_dialog-width, 36rem), calc(100vw - 2rem));
      max-height: calc(100vh - 2rem);
      overflow: auto;
      padding: 1.25rem 1.5rem;
      border: 1px solid hsl(var(--border, 0 0% 85%));
      border-radius: 0.75rem;
      background: hsl(var(--popover, 0 0% 100%));
      color: hsl(var(--popover-foreground, 0 0% 10%));
      font: inherit;
      box-shadow: 0 10px 40px hsl(0 0% 0% / 0.3);
    }
    dialog::backdrop {
      background: hsl(0 0% 0% / 0.5);
    }
`;

/** The secondary buttons of cards (manager and store); elements add their primary and special kinds. */
export const buttonStyles = css`
    button {
      font: inherit;
      font-size: 0.875rem;
      padding: 0.3rem 0.75rem;
      border-radius: 0.5rem;
      border: 1px solid hsl(var(--border, 0 0% 85%));
      background: hsl(var(--secondary, 210 40% 96%));
      color: hsl(var(--secondary-foreground, 222 47% 11%));
      cursor: pointer;
    }
    button:disabled {
      cursor: not-allowed;
      opacity: 0.55;
    }
`;

/**
 * The on/off switches (`<button role="switch" aria-checked>`) of the manager's cards and the
 * launcher settings page: a track in the input colour that turns primary when on, with a knob.
 */
export const switchStyles = css`
    button[role='switch'] {
      position: relative;
      flex: none;
      width: 2.75rem;
      height: 1.5rem;
      padding: 0;
      border: none;
      border-radius: 999px;
      background: hsl(var(--input, 0 0% 80%));
    }
    button[role='switch']::after {
      content: '';
      position: absolute;
      top: 0.1875rem;
      left: 0.1875rem;
      width: 1.125rem;
      height: 1.125rem;
      border-radius: 50%;
      background: hsl(var(--background, 0 0% 100%));
      box-shadow: 0 1px 2px hsl(0 0% 0% / 0.3);
      transition: transform 0.15s;
    }
    button[role='switch'][aria-checked='true'] {
      background: hsl(var(--primary, 222 47% 11%));
    }
    button[role='switch'][aria-checked='true']::after {
      transform: translateX(1.25rem);
    }
`;
