/**
 * Shared by the demo launcher's tests in every engine: starting the built launcher, waiting for
 * the sample plugins, opening each launcher page, and checking that the Store's controls are
 * readable (computed colours, and the pixels the engine really drew).
 */
import { readFile } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { openEngine, type EngineName, type EnginePage } from '../support/engine-driver.js';
import { startDemoLauncher, type DemoLauncher } from '../support/demo-launcher-session.js';

export const FRAMED_SAMPLES = ['hello', 'library', 'consumer', 'theme-settings', 'overlay', 'wasm', 'mod-browser'].map(
  (name) => `com.plughost.samples.${name}`,
);
export const INLINE_SAMPLE = 'com.plughost.samples.inline-banner';
export const SAMPLE_COUNT = FRAMED_SAMPLES.length + 1;
/** What the inline sample renders once it read its settings through the bridge. */
export const INLINE_BANNER = `[data-plugin-inline][data-plugin-id="${INLINE_SAMPLE}"] [role="status"]`;

/** The built demo launcher, started for a test, with its demo store. */
export interface StartedLauncher extends DemoLauncher {
  /** The demo store's API root. */
  readonly storeUrl: string;
}

/** Starts the built demo launcher in release mode, with its demo store (see {@link startDemoLauncher}). */
export async function startLauncher(options: { name: string; token: string; env?: Record<string, string> }): Promise<StartedLauncher> {
  const launcher = await startDemoLauncher({ name: options.name, env: { NODE_ENV: 'production', LAUNCHER_API_TOKEN: options.token, ...options.env } });
  const { storeUrl } = launcher;
  if (!storeUrl) {
    await launcher.stop();
    throw new Error(`The launcher did not say where its store is.\nstderr: ${launcher.process.stderr()}`);
  }
  return { ...launcher, storeUrl };
}

/**
 * Waits until every framed sample's `<plugin-frame>` left "loading" and the inline banner
 * rendered, and returns what is not right (empty when every sample connected).
 */
export async function sampleProblems(page: EnginePage, timeoutMs = 30_000): Promise<string[]> {
  await page
    .waitForFunction(
      (ids) =>
        ids.every((id) => {
          const status = document.querySelector(`plugin-frame[plugin-id="${id}"]`)?.getAttribute('status');
          return typeof status === 'string' && status !== 'loading';
        }),
      FRAMED_SAMPLES,
      timeoutMs,
    )
    .catch(() => undefined);
  const statuses = await page.evaluate(
    (ids) => ids.map((id) => [id, document.querySelector(`plugin-frame[plugin-id="${id}"]`)?.getAttribute('status') ?? 'missing'] as const),
    FRAMED_SAMPLES,
  );
  const problems = statuses.filter(([, status]) => status !== 'ready').map(([id, status]) => `${id} is ${status}`);
  const banner = await page
    .waitForFunction((selector) => document.querySelector(selector) !== null, INLINE_BANNER, 10_000)
    .then(
      () => true,
      () => false,
    );
  if (!banner) problems.push(`${INLINE_SAMPLE} did not render its banner`);
  return problems;
}

/** The launcher's error banners (`role="alert"` in `<main>`), as shown. */
export function launcherAlerts(page: EnginePage): Promise<string[]> {
  return page.evaluate(() => [...document.querySelectorAll('main .banner.error, main > [role="alert"]')].map((node) => node.textContent?.trim() ?? ''), null);
}

/** A launcher page, its route hash and what shows that it opened with its content. */
export interface LauncherPage {
  readonly name: string;
  readonly hash: string;
  readonly titleId: string;
  /** Runs in the page with the sample count; true once the page shows its content. */
  readonly ready: (samples: number) => boolean;
}

/** Home, Plugins, Store, Downloads and Settings (demo-launcher/src/ui/routes.ts). */
export const LAUNCHER_PAGES: readonly LauncherPage[] = [
  {
    name: 'Home',
    hash: '#/',
    titleId: 'home-title',
    ready: (samples) =>
      (document.querySelector('section[aria-labelledby="home-title"] p')?.textContent ?? '').includes(`${samples} of ${samples} plugins are active`),
  },
  {
    name: 'Plugins',
    hash: '#/plugins',
    titleId: 'plugins-title',
    ready: (samples) => document.querySelector('plugin-manager')?.shadowRoot?.querySelectorAll('[part~="card"]').length === samples,
  },
  {
    name: 'Store',
    hash: '#/store',
    titleId: 'store-title',
    // Every card, and no catalog load running: a load that the sources' status started dims the
    // list (`aria-busy`), which is not the page a person reads once it settled.
    ready: (samples) => {
      const root = document.querySelector('plugin-store')?.shadowRoot;
      return root?.querySelectorAll('[part~="card"]').length === samples && root.querySelector('[part~="list"]')?.getAttribute('aria-busy') === 'false';
    },
  },
  {
    name: 'Downloads',
    hash: '#/downloads',
    titleId: 'downloads-title',
    // The centre shows its empty list and holds the backend's event stream open.
    ready: () => {
      const centre = document.querySelector('plugin-download-center') as (Element & { connection?: { kind: string } }) | null;
      return centre?.shadowRoot?.querySelector('[part~="empty"]') !== null && centre?.connection?.kind === 'open';
    },
  },
  {
    name: 'Settings',
    hash: '#/settings',
    titleId: 'settings-title',
    // The theme sample contributes a settings page, so it has a tab.
    ready: () =>
      [...(document.querySelector('plugin-settings-tab')?.shadowRoot?.querySelectorAll('[part~="tab"]') ?? [])].some((tab) =>
        tab.textContent?.includes('Theme settings'),
      ),
  },
];

/** Goes to a launcher page by its hash and waits until its section is shown with its content. */
export async function openLauncherPage(page: EnginePage, target: LauncherPage, timeoutMs = 15_000): Promise<void> {
  await page.evaluate((hash) => {
    location.hash = hash;
  }, target.hash);
  await page.waitForFunction(
    (titleId) => {
      const section = document.querySelector(`section[aria-labelledby="${titleId}"]`) as HTMLElement | null;
      return section !== null && !section.hidden && section.getClientRects().length > 0;
    },
    target.titleId,
    timeoutMs,
  );
  await page.waitForFunction(target.ready, SAMPLE_COUNT, timeoutMs);
}

/** An RGB colour, each channel 0 to 255. */
export type Rgb = readonly [number, number, number];

/** One control as measured in the page: what it shows and what is behind its text. */
export interface MeasuredControl {
  readonly label: string;
  /** The text colour as rendered (alpha and opacity composited). */
  readonly text: Rgb;
  /** The background as rendered behind the text (the control's own, its ancestors', opacity). */
  readonly background: Rgb;
  /** The viewport rectangle in CSS pixels. */
  readonly rect: { readonly x: number; readonly y: number; readonly width: number; readonly height: number };
}

/**
 * Measures every visible `select`, `input` and `button` of the document and of every open shadow
 * root in it (frames excluded): its computed text colour and the background behind it, both
 * composited the way the engine paints them (transparent backgrounds show their ancestors';
 * `opacity` blends a group with what is behind it). Sent to the page as source text.
 */
export function measureControls(): MeasuredControl[] {
  type Rgba = [number, number, number, number];
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  // Every colour syntax an engine may compute to, read back through a canvas.
  const parse = (value: string): Rgba => {
    if (value === 'transparent' || value === '') return [0, 0, 0, 0];
    const numbers = /^rgba?\(([^)]+)\)$/
      .exec(value)?.[1]
      ?.split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    if (numbers && numbers.length >= 3 && numbers.every((n) => Number.isFinite(n))) return [numbers[0]!, numbers[1]!, numbers[2]!, numbers[3] ?? 1];
    context.clearRect(0, 0, 1, 1);
    context.fillStyle = '#000';
    context.fillStyle = value;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!, a! / 255];
  };
  const over = (top: Rgba, bottom: Rgb): Rgb => [0, 1, 2].map((i) => top[i]! * top[3] + bottom[i]! * (1 - top[3])) as unknown as Rgb;
  const mix = (top: Rgb, bottom: Rgb, alpha: number): Rgb => over([top[0], top[1], top[2], alpha], bottom);
  const parentOf = (node: Element): Element | null => node.parentElement ?? (node.getRootNode() as ShadowRoot).host ?? null;
  const controls: Element[] = [];
  const collect = (root: Document | ShadowRoot): void => {
    for (const node of root.querySelectorAll('*')) {
      if (node.matches('select, input:not([type="hidden"]), button')) controls.push(node);
      if (node.shadowRoot) collect(node.shadowRoot);
    }
  };
  collect(document);
  const measured: MeasuredControl[] = [];
  for (const control of controls) {
    const style = getComputedStyle(control);
    const rects = control.getClientRects();
    if (rects.length === 0 || style.visibility !== 'visible') continue;
    const chain: Element[] = [];
    for (let node: Element | null = control; node; node = parentOf(node)) chain.unshift(node);
    // Paint from the root down, keeping the backdrop each opacity group is blended with.
    let backdrop: Rgb = [255, 255, 255];
    const groups: { opacity: number; before: Rgb }[] = [];
    for (const node of chain) {
      const nodeStyle = getComputedStyle(node);
      groups.push({ opacity: Number(nodeStyle.opacity), before: backdrop });
      backdrop = over(parse(nodeStyle.backgroundColor), backdrop);
    }
    let text = over(parse(style.color), backdrop);
    let background = backdrop;
    for (let i = groups.length - 1; i >= 0; i -= 1) {
      const group = groups[i]!;
      if (group.opacity >= 1) continue;
      text = mix(text, group.before, group.opacity);
      background = mix(background, group.before, group.opacity);
    }
    const rect = control.getBoundingClientRect();
    const name = control.getAttribute('aria-label') ?? control.getAttribute('part') ?? (control.textContent ?? '').trim().slice(0, 40);
    measured.push({
      label: `<${control.localName}> ${name}`.trim(),
      text,
      background,
      rect: { x: rect.x, y: rect.y, width: rect.width, height: rect.height },
    });
  }
  return measured;
}

/** WCAG 2 relative luminance. */
function luminance([r, g, b]: Rgb): number {
  const linear = (channel: number): number => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG 2 contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** A decoded PNG: 8-bit RGBA pixels, row after row. */
export interface Bitmap {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint8Array;
}

/** Decodes the 8-bit, non-interlaced RGB or RGBA PNG files the drivers' screenshots are. */
export async function readPng(path: string): Promise<Bitmap> {
  const file = await readFile(path);
  let offset = 8;
  let width = 0;
  let height = 0;
  let colorType = 0;
  const data: Buffer[] = [];
  while (offset < file.length) {
    const length = file.readUInt32BE(offset);
    const type = file.toString('latin1', offset + 4, offset + 8);
    const body = file.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      colorType = body[9]!;
      if (body[8] !== 8 || (colorType !== 2 && colorType !== 6) || body[12] !== 0)
        throw new Error(`${path}: only 8-bit RGB(A) non-interlaced PNG is read here`);
    } else if (type === 'IDAT') {
      data.push(body);
    }
    offset += 12 + length;
  }
  const channels = colorType === 6 ? 4 : 3;
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const rows = new Uint8Array(height * stride);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = y * stride;
    for (let x = 0; x < stride; x += 1) {
      const left = x >= channels ? rows[out + x - channels]! : 0;
      const up = y > 0 ? rows[out - stride + x]! : 0;
      const upLeft = y > 0 && x >= channels ? rows[out - stride + x - channels]! : 0;
      let predictor = 0;
      if (filter === 1) predictor = left;
      else if (filter === 2) predictor = up;
      else if (filter === 3) predictor = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const pa = Math.abs(p - left);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - upLeft);
        predictor = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      rows[out + x] = (line[x]! + predictor) & 0xff;
    }
  }
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i += 1) {
    pixels[i * 4] = rows[i * channels]!;
    pixels[i * 4 + 1] = rows[i * channels + 1]!;
    pixels[i * 4 + 2] = rows[i * channels + 2]!;
    pixels[i * 4 + 3] = channels === 4 ? rows[i * channels + 3]! : 255;
  }
  return { width, height, pixels };
}

/** The colour most pixels of a rectangle (CSS pixels, scaled to the bitmap) have. */
export function dominantColor(bitmap: Bitmap, rect: MeasuredControl['rect'], scale: number, inset = 4): Rgb | null {
  const x0 = Math.ceil((rect.x + inset) * scale);
  const y0 = Math.ceil((rect.y + inset) * scale);
  const x1 = Math.floor((rect.x + rect.width - inset) * scale);
  const y1 = Math.floor((rect.y + rect.height - inset) * scale);
  if (x0 < 0 || y0 < 0 || x1 > bitmap.width || y1 > bitmap.height || x1 <= x0 || y1 <= y0) return null;
  const counts = new Map<number, number>();
  for (let y = y0; y < y1; y += 1) {
    for (let x = x0; x < x1; x += 1) {
      const i = (y * bitmap.width + x) * 4;
      const key = (bitmap.pixels[i]! << 16) | (bitmap.pixels[i + 1]! << 8) | bitmap.pixels[i + 2]!;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  let best = 0;
  let bestCount = -1;
  for (const [key, count] of counts) if (count > bestCount) [best, bestCount] = [key, count];
  return [(best >> 16) & 0xff, (best >> 8) & 0xff, best & 0xff];
}

/** The largest difference of one channel between two colours. */
export function colorDistance(a: Rgb, b: Rgb): number {
  return Math.max(...a.map((channel, i) => Math.abs(channel - b[i]!)));
}

/**
 * Checks that a person can read every visible control of the page now shown: a contrast ratio of
 * at least 4.5 between its computed text colour and the background behind it, and, for controls
 * inside the screenshot, that the engine really painted that background (a native widget drawn
 * in its own colours would not be). Returns the problems found.
 */
export async function unreadableControls(page: EnginePage, screenshotPath: string): Promise<{ problems: string[]; checked: number; painted: number }> {
  const controls = await page.evaluate(measureControls, null);
  const scale = await page.evaluate(() => window.devicePixelRatio || 1, null);
  const viewport = await page.evaluate(() => ({ width: innerWidth, height: innerHeight }), null);
  await page.screenshot(screenshotPath);
  const bitmap = await readPng(screenshotPath);
  const problems: string[] = [];
  let painted = 0;
  for (const control of controls) {
    const ratio = contrastRatio(control.text, control.background);
    if (ratio < 4.5)
      problems.push(
        `${control.label}: contrast ${ratio.toFixed(2)} (text ${control.text.map(Math.round).join(',')} on ${control.background.map(Math.round).join(',')})`,
      );
    const inView =
      control.rect.x >= 0 &&
      control.rect.y >= 0 &&
      control.rect.x + control.rect.width <= viewport.width &&
      control.rect.y + control.rect.height <= viewport.height;
    if (!inView || control.rect.height < 16) continue;
    const drawn = dominantColor(bitmap, control.rect, scale);
    if (!drawn) continue;
    painted += 1;
    // Anti-aliasing and colour rounding stay well inside this; a native light widget does not.
    if (colorDistance(drawn, control.background) > 24) {
      problems.push(
        `${control.label}: drawn on ${drawn.join(',')} though its background is ${control.background.map(Math.round).join(',')} (text ${control.text.map(Math.round).join(',')}, contrast on the drawn colour ${contrastRatio(control.text, drawn).toFixed(2)})`,
      );
    }
  }
  return { problems, checked: controls.length, painted };
}

/** Fails with the list when `problems` is not empty (one message naming each). */
export function expectNone(problems: readonly string[], what: string): void {
  expect(problems, `${what}:\n${problems.join('\n')}`).toEqual([]);
}

/**
 * One browser page of `engine` for the tests of the current `describe`: opened before them, closed
 * after them, and any uncaught error or unhandled rejection of the page fails the test it happened in.
 *
 * @returns a getter for the page (only valid inside the tests).
 */
export function enginePageFor(engine: EngineName): () => EnginePage {
  let page: EnginePage | undefined;
  beforeAll(async () => {
    page = await openEngine(engine);
  }, 60_000);
  afterAll(async () => {
    await page?.close();
  });
  afterEach(async () => {
    if (page) expectNone(await page.pageErrors(), `page errors in ${engine}`);
  });
  return () => {
    if (!page) throw new Error(`The ${engine} page is not open: use it inside a test`);
    return page;
  };
}

/** Opens each launcher page in turn and expects no error banner on any, nor a page error. */
export async function expectLauncherPagesOpen(page: EnginePage, engine: EngineName): Promise<void> {
  for (const target of LAUNCHER_PAGES) {
    await openLauncherPage(page, target);
    expectNone(await launcherAlerts(page), `alerts on ${target.name} in ${engine}`);
  }
  expectNone(await page.pageErrors(), `page errors in ${engine}`);
}
