import { svg, type SVGTemplateResult } from 'lit';

/** The pictures of the demo's instances, drawn on a 48-unit grid (blocky, like the game). */
const PICTURES: Readonly<Record<string, SVGTemplateResult>> = {
  grass: svg`<rect x="8" y="8" width="32" height="32" rx="2" fill="#8b5a2b"/><rect x="8" y="8" width="32" height="11" rx="2" fill="#5fbf3f"/><rect x="12" y="19" width="4" height="5" fill="#5fbf3f"/><rect x="24" y="19" width="4" height="7" fill="#5fbf3f"/><rect x="34" y="19" width="3" height="4" fill="#5fbf3f"/><rect x="15" y="29" width="4" height="4" fill="#6e4420"/><rect x="28" y="32" width="4" height="4" fill="#6e4420"/>`,
  pickaxe: svg`<rect x="21" y="14" width="6" height="28" rx="1" transform="rotate(45 24 28)" fill="#9a6a3a"/><path d="M9 17 Q24 3 39 17 L35 20 Q24 10 13 20 Z" fill="#5bd8e6"/>`,
  sword: svg`<rect x="21.5" y="6" width="5" height="26" fill="#d9e2ec" transform="rotate(45 24 24)"/><rect x="15" y="29" width="14" height="4" fill="#9a6a3a" transform="rotate(45 24 24)"/><rect x="22" y="32" width="4" height="10" fill="#6e4420" transform="rotate(45 24 24)"/>`,
  island: svg`<path d="M8 26 H40 L34 34 L28 37 L22 42 L18 36 L12 33 Z" fill="#8b5a2b"/><rect x="8" y="22" width="32" height="5" fill="#5fbf3f"/><rect x="22" y="12" width="4" height="10" fill="#9a6a3a"/><rect x="16" y="6" width="16" height="9" rx="2" fill="#3f9f2f"/>`,
  chest: svg`<rect x="8" y="14" width="32" height="24" rx="2" fill="#b5762f"/><rect x="8" y="14" width="32" height="8" rx="2" fill="#9a6126"/><rect x="21" y="19" width="6" height="8" rx="1" fill="#e8d27a"/><rect x="8" y="22" width="32" height="2" fill="#6e4420"/>`,
};

/** The picture of an instance (the chest for a name the page does not know), decorative. */
export function instanceIcon(name: string) {
  return svg`<svg class="instance-icon" viewBox="0 0 48 48" width="48" height="48" aria-hidden="true" focusable="false">${PICTURES[name] ?? PICTURES.chest}</svg>`;
}
