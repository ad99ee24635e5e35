/**
 * What only inline plugins need, loaded with the first of them (`inline-activation.ts`): the guest
 * API they share the launcher's window with, and mounting a page into the launcher's document.
 */
export { createInlineGuest } from './inline-guest.js';
export { mountInlinePlugin } from '../frame/inline-mount.js';
