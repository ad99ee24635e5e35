/**
 * Accessibility of the demo launcher in Chromium (the built server in release mode, the signed
 * samples installed): axe-core finds no serious or critical violation on any page (Home, a plugin
 * page, the Store and a plugin's detail, the install dialog, Downloads, Settings with a plugin's
 * tab, the plugin manager, a game instance); every control is reached with Tab and shows a focus
 * ring; dialogs keep the focus inside and close on Escape, giving it back.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openPuppeteerPage, PageErrors, startDemoLauncher, type DemoLauncher } from '../support/demo-launcher-session.js';

const HELLO = 'com.plughost.samples.hello';
const THEME = 'com.plughost.samples.theme-settings';
const PACKAGE = 'demo-launcher/dist/sample-plugins/com.plughost.samples.inline-banner-1.0.0.plugpkg';

/** One axe finding, short enough for a failure message. */
interface Finding {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

/** A control the keyboard reached: which one, and whether it showed a focus ring. */
interface Stop {
  readonly index: number | null;
  readonly name: string;
  readonly ring: boolean;
}

/**
 * Installed in the page: `__a11y.mark()` numbers every visible control that Tab should reach (in
 * the document and every open shadow root, plugin frames excluded: their pages are the plugins'),
 * `__a11y.stop()` says which control has the focus now and whether it shows a ring, and
 * `__a11y.inside(selector)` whether the focus is inside an element matching `selector`. Plain
 * JavaScript, so nothing the test's compiler adds reaches the page.
 */
const KEYBOARD_HELPERS = `window.__a11y = {
  controls() {
    const selector = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
    const found = [];
    const walk = (root) => {
      for (const element of root.querySelectorAll('*')) {
        if (element.matches(selector) && element.tabIndex >= 0 && !element.closest('[inert]')) {
          const box = element.getBoundingClientRect();
          const style = getComputedStyle(element);
          if (box.width > 0 && box.height > 0 && style.visibility !== 'hidden') found.push(element);
        }
        if (element.shadowRoot) walk(element.shadowRoot);
      }
    };
    walk(document);
    return found;
  },
  mark() {
    const controls = this.controls();
    controls.forEach((element, index) => element.setAttribute('data-a11y-index', String(index)));
    return controls.length;
  },
  active() {
    let active = document.activeElement;
    while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
    return active;
  },
  stop() {
    const active = this.active();
    if (!active || active === document.body) return { index: null, name: 'body', ring: false };
    const style = getComputedStyle(active);
    const ring = (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
    const index = active.getAttribute('data-a11y-index');
    const name = active.localName + (active.getAttribute('part') ? '[' + active.getAttribute('part') + ']' : '') + ': ' + (active.textContent || active.getAttribute('aria-label') || '').replace(/\\s+/g, ' ').trim().slice(0, 30);
    return { index: index === null ? null : Number(index), name, ring };
  },
  inside(selector) {
    let node = this.active();
    while (node) {
      if (node.nodeType === 1 && node.matches(selector)) return true;
      node = node.parentNode instanceof ShadowRoot ? node.parentNode.host : node.parentNode;
    }
    return false;
  },
};`;

let launcher: DemoLauncher;
let browser: Browser;
let page: Page;
let origin: string;
let axeSource: string;
const pageErrors = new PageErrors();

beforeAll(async () => {
  axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  launcher = await startDemoLauncher({ name: 'launcher-a11y' });
  origin = launcher.origin;
  ({ browser, page } = await openPuppeteerPage({ errors: pageErrors }));
  await page.goto(`${origin}/`);
  await page.waitForSelector('#inline-plugins [data-plugin-inline] [role="status"]');
  // axe through the DevTools protocol, as a test tool: the page's own policy is not its business.
  await page.evaluate(axeSource);
  await page.evaluate(KEYBOARD_HELPERS);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await launcher?.stop();
});

afterEach((context) => pageErrors.check(context));

async function open(route: string): Promise<void> {
  await page.evaluate((hash) => {
    location.hash = hash;
  }, `#${route}`);
  await page.waitForFunction((hash) => location.hash === hash, {}, `#${route}`);
}

/** axe's serious and critical findings on the page as it is now (plugin frames are the plugins'). */
async function seriousFindings(): Promise<Finding[]> {
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Finding[] & { nodes: { target: string[] }[] }[] }> } }
    ).axe;
    const result = await axe.run(document, { iframes: false, resultTypes: ['violations'] });
    return (result.violations as unknown as { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[])
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(' >> ')),
      }));
  });
}

async function expectNoSeriousFindings(screen: string): Promise<void> {
  const findings = await seriousFindings();
  expect(findings, `${screen}: ${JSON.stringify(findings, null, 2)}`).toEqual([]);
}

/** Presses Tab from the top of the page until every numbered control was reached (or `extra` more). */
async function tabThrough(extra = 5): Promise<{ count: number; stops: Stop[] }> {
  const count = await page.evaluate(() => (window as unknown as { __a11y: { mark(): number } }).__a11y.mark());
  // Tab goes on from the last focused element even after blur(): start from a focused (but not
  // tabbable) mark at the top of the page instead.
  await page.evaluate(() => {
    const start = document.createElement('span');
    start.id = 'a11y-start';
    start.tabIndex = -1;
    document.body.prepend(start);
    start.focus();
  });
  const stops: Stop[] = [];
  for (let press = 0; press < count + extra; press++) {
    await page.keyboard.press('Tab');
    stops.push(await page.evaluate(() => (window as unknown as { __a11y: { stop(): Stop } }).__a11y.stop()));
  }
  await page.evaluate(() => document.getElementById('a11y-start')?.remove());
  return { count, stops };
}

/** Every control of the page is reached with Tab, and each one reached shows a focus ring. */
async function expectKeyboardReach(screen: string): Promise<void> {
  const { count, stops } = await tabThrough();
  expect(count, `${screen}: controls to reach`).toBeGreaterThan(0);
  const reached = new Set(stops.map((stop) => stop.index).filter((index): index is number => index !== null));
  const missed = [...Array(count).keys()].filter((index) => !reached.has(index));
  const names = await page.evaluate(
    (indexes) => indexes.map((index) => (window as unknown as { __a11y: { controls(): Element[] } }).__a11y.controls()[index]?.outerHTML.slice(0, 80)),
    missed,
  );
  expect(names, `${screen}: not reached with Tab`).toEqual([]);
  const ringless = stops.filter((stop) => stop.index !== null && !stop.ring).map((stop) => stop.name);
  expect(ringless, `${screen}: no visible focus ring`).toEqual([]);
}

/** Tab and Shift+Tab never take the focus out of the open dialog `selector`; Escape closes it. */
async function expectFocusTrapped(selector: string, presses: number): Promise<void> {
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let press = 0; press < presses; press++) {
      if (key === 'Tab') await page.keyboard.press('Tab');
      else {
        await page.keyboard.down('Shift');
        await page.keyboard.press('Tab');
        await page.keyboard.up('Shift');
      }
      const inside = await page.evaluate((wanted) => (window as unknown as { __a11y: { inside(selector: string): boolean } }).__a11y.inside(wanted), selector);
      const stop = await page.evaluate(() => (window as unknown as { __a11y: { stop(): Stop } }).__a11y.stop());
      expect(inside, `${key} #${press + 1} left the dialog for ${stop.name}`).toBe(true);
      expect(stop.ring, `${stop.name} shows no focus ring`).toBe(true);
    }
  }
}

describe('demo launcher accessibility in Chromium', () => {
  it('Home: no serious finding, every control reached with a focus ring', async () => {
    await open('/');
    await page.waitForSelector('.library .instance-card');
    await expectNoSeriousFindings('Home');
    await expectKeyboardReach('Home');
  });

  it('a game instance: no serious finding', async () => {
    const card = await page.waitForSelector('.library .instance-card');
    const href = await card!.evaluate((link) => link.getAttribute('href'));
    await open(href!.slice(1));
    await page.waitForSelector('.launch-button', { visible: true });
    await expectNoSeriousFindings('instance page');
    await expectKeyboardReach('instance page');
  });

  it('a plugin page: no serious finding, and the page is named for assistive technology', async () => {
    await open(`/plugins/${HELLO}`);
    await page.waitForSelector(`plugin-frame[plugin-id="${HELLO}"][active][status="ready"]`);
    expect(await page.$eval('main h1.sr-only', (heading) => heading.textContent)).toBe('Hello');
    expect(await page.$eval(`plugin-frame[plugin-id="${HELLO}"] > iframe`, (frame) => frame.title)).toBe('Hello');
    await expectNoSeriousFindings('plugin page');
  });

  it('the plugin manager: no serious finding, every control reached with a focus ring', async () => {
    await open('/plugins');
    await page.waitForSelector('plugin-manager >>> [part~="card"]', { visible: true });
    await expectNoSeriousFindings('plugin manager');
    await expectKeyboardReach('plugin manager');
  });

  it('the install dialog: no serious finding, keeps the focus, closes on Escape and gives the focus back', async () => {
    const input = await page.waitForSelector('input[type=file]');
    await input!.focus();
    await input!.uploadFile(PACKAGE);
    await page.waitForSelector('plugin-install-dialog >>> plugin-permission-list >>> li', { visible: true });
    await expectNoSeriousFindings('install dialog');
    // Focus starts on Cancel, the safe choice.
    expect(await page.evaluate(() => (window as unknown as { __a11y: { stop(): Stop } }).__a11y.stop().name)).toContain('Cancel');
    await expectFocusTrapped('dialog[open]', 4);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('plugin-install-dialog')?.hasAttribute('open'));
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('file');
  });

  it('the Store and a plugin detail: no serious finding, every control reached, the detail keeps the focus', async () => {
    await open('/store');
    await page.waitForFunction(() => (document.querySelector('plugin-store')?.shadowRoot?.querySelectorAll('[part~=card]').length ?? 0) >= 8, {
      timeout: 15_000,
    });
    await expectNoSeriousFindings('Store');
    await expectKeyboardReach('Store');
    const opener = await page.waitForSelector('plugin-store >>> [part~="open-button"]', { visible: true });
    await opener!.focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('plugin-store >>> dialog[open] [part~="detail-title"]', { visible: true });
    await expectNoSeriousFindings('store detail');
    await expectFocusTrapped('dialog[open]', 4);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('plugin-store')?.shadowRoot?.querySelector('dialog[open]'));
    expect(await page.evaluate(() => (window as unknown as { __a11y: { stop(): Stop } }).__a11y.stop().name)).toContain('open-button');
  });

  it('Downloads: no serious finding, every control reached with a focus ring', async () => {
    await open('/downloads');
    await page.waitForSelector('plugin-download-center >>> [part~="empty"]', { visible: true });
    await expectNoSeriousFindings('Downloads');
    await expectKeyboardReach('Downloads');
  });

  it("Settings and a plugin's settings tab: no serious finding, every control reached with a focus ring", async () => {
    await open('/settings');
    await page.waitForSelector('launcher-settings-page >>> [part~="save-button"]', { visible: true });
    await expectNoSeriousFindings('Settings');
    await expectKeyboardReach('Settings');
    const plugins = await page.waitForSelector('launcher-settings-page >>> [role=tab]::-p-text(Plugins)', { visible: true });
    await plugins!.click();
    const tab = await page.waitForSelector('plugin-settings-tab >>> [role=tab]::-p-text(Theme)', { visible: true });
    await tab!.click();
    await page.waitForSelector(`[slot="settings-${THEME}"] iframe`);
    await expectNoSeriousFindings('Settings, plugin tab');
  });
});
