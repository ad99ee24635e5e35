/**
 * The harness page's logic that needs no DOM: the build output as shown (terminal escapes
 * removed), the words of each build state, and the build events it accepts from its server.
 * The page itself runs in Chromium in tests/e2e/harness-journey.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { clockTime, describeBuildState, nextBuildState } from '../../../pluginctl/src/harness/client/build-state.js';
import { readBuildEvents } from '../../../pluginctl/src/harness/client/page-config.js';
import { stripAnsi } from '../../../pluginctl/src/harness/client/strip-ansi.js';

describe('build output in the harness page', () => {
  it('loses colours, cursor moves, hyperlinks and carriage returns, and keeps the text', () => {
    const vite = '\u001b[36mvite v7.3.8 \u001b[32mbuilding for production...\u001b[39m\r\n\u001b[31m✗\u001b[39m Build failed in 12ms\r\n';
    expect(stripAnsi(vite)).toBe('vite v7.3.8 building for production...\n✗ Build failed in 12ms\n');
    const tsc =
      '\u001b[96msrc/App.tsx\u001b[0m:\u001b[93m7\u001b[0m:\u001b[93m18\u001b[0m - \u001b[91merror\u001b[0m\u001b[90m TS1109: \u001b[0mExpression expected.';
    expect(stripAnsi(tsc)).toBe('src/App.tsx:7:18 - error TS1109: Expression expected.');
    expect(stripAnsi('\u001b]8;;file:///src/a.ts\u0007src/a.ts\u001b]8;;\u0007 \u001b[2K\u001b[1Gdone\rok')).toBe('src/a.ts done\nok');
    expect(stripAnsi('no escapes <b>here</b>')).toBe('no escapes <b>here</b>');
  });
});

describe('build states in the header', () => {
  const at = '2026-11-26T10:05:09.000Z';

  it('has words for every state, so colour is never the only signal', () => {
    const local = clockTime(new Date(at));
    expect(local).toMatch(/^\d\d:\d\d:09$/);
    expect(describeBuildState({ kind: 'watching' })).toBe('watching for changes');
    expect(describeBuildState(nextBuildState({ type: 'building', pluginId: 'a.b', at }))).toBe(`building since ${local}…`);
    expect(describeBuildState(nextBuildState({ type: 'rebuilt', pluginId: 'a.b', at, durationMs: 1234.4 }))).toBe(`built at ${local} in 1234 ms`);
    expect(describeBuildState(nextBuildState({ type: 'rebuilt', pluginId: 'a.b', at, durationMs: 0 }))).toBe(`reloaded at ${local} (no build step)`);
    expect(describeBuildState(nextBuildState({ type: 'build-failed', pluginId: 'a.b', at, output: 'x' }))).toBe(`build failed at ${local}`);
  });

  it('pads the clock to two digits', () => {
    expect(clockTime(new Date(2026, 0, 2, 3, 4, 5))).toBe('03:04:05');
  });
});

describe('build events the page takes from its server', () => {
  it('keeps well-formed build events and leaves out the rest', () => {
    const at = '2026-11-26T10:05:09.000Z';
    const events = readBuildEvents([
      { type: 'rebuilt', pluginId: 'com.example.a', at, durationMs: 12 },
      { type: 'build-failed', pluginId: 'com.example.b', at, output: 'boom' },
      { type: 'hello', pluginIds: ['com.example.a'] },
      { type: 'rebuilt', pluginId: 'Not An Id', at, durationMs: 1 },
      { type: 'rebuilt', pluginId: 'com.example.c', at },
      { type: 'unknown', pluginId: 'com.example.d', at },
      'rebuilt',
      null,
    ]);
    expect(events).toEqual([
      { type: 'rebuilt', pluginId: 'com.example.a', at, durationMs: 12 },
      { type: 'build-failed', pluginId: 'com.example.b', at, output: 'boom' },
    ]);
    expect(readBuildEvents({ type: 'rebuilt' })).toEqual([]);
  });
});
