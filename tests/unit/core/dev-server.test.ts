import {
  DEV_BUILD_OUTPUT_LIMIT,
  decodeDevServerEvent,
  encodeDevServerEvent,
  formatDevPluginsFile,
  parseDevPluginsFile,
  type DevServerEvent,
} from '@plughost/host-sdk/core';
import { describe, expect, it } from 'vitest';

describe('dev server events', () => {
  const events: DevServerEvent[] = [
    { type: 'hello', pluginIds: ['com.example.a', 'com.example.b'] },
    { type: 'building', pluginId: 'com.example.a', at: '2026-11-26T10:00:00.000Z' },
    { type: 'rebuilt', pluginId: 'com.example.a', at: '2026-11-26T10:00:01.000Z', durationMs: 812 },
    { type: 'build-failed', pluginId: 'com.example.a', at: '2026-11-26T10:00:02.000Z', output: 'src/main.tsx(3,1): error TS1005' },
  ];

  it.each(events)('reads back what it writes: $type', (event) => {
    const { type, data } = encodeDevServerEvent(event);
    expect(decodeDevServerEvent(type, data)).toEqual(event);
  });

  it('drops what is not a well-formed event from another process', () => {
    expect(decodeDevServerEvent('rebuilt', '{"pluginId":"com.example.a","at":"x"}')).toBeUndefined(); // no durationMs
    expect(decodeDevServerEvent('rebuilt', '{"pluginId":"../etc","at":"x","durationMs":1}')).toBeUndefined();
    expect(decodeDevServerEvent('hello', '{"pluginIds":["Not An Id"]}')).toBeUndefined();
    expect(decodeDevServerEvent('surprise', '{"pluginId":"com.example.a","at":"x"}')).toBeUndefined();
    expect(decodeDevServerEvent('building', 'not json')).toBeUndefined();
  });

  it('keeps only the end of a long build output, where the error is', () => {
    const output = `${'x'.repeat(20_000)}THE ERROR`;
    const decoded = decodeDevServerEvent('build-failed', JSON.stringify({ pluginId: 'com.example.a', at: 'now', output }));
    expect(decoded?.type === 'build-failed' && decoded.output.length).toBe(DEV_BUILD_OUTPUT_LIMIT);
    expect(decoded?.type === 'build-failed' && decoded.output.endsWith('THE ERROR')).toBe(true);
  });
});

describe('.dev-plugins.json', () => {
  it('accepts loopback http dev servers and normalizes the base URL', () => {
    const { plugins, problems } = parseDevPluginsFile(
      JSON.stringify({ 'com.example.a': 'http://127.0.0.1:5173', 'com.example.b': 'http://localhost:4000/sub', 'com.example.c': 'http://[::1]:5173/' }),
    );
    expect(problems).toEqual([]);
    expect([...plugins]).toEqual([
      ['com.example.a', 'http://127.0.0.1:5173/'],
      ['com.example.b', 'http://localhost:4000/sub/'],
      ['com.example.c', 'http://[::1]:5173/'],
    ]);
  });

  it('leaves out, with a reason, entries that point off this machine or are not plugin ids', () => {
    const { plugins, problems } = parseDevPluginsFile(
      JSON.stringify({
        'com.example.remote': 'http://attacker.example:5173/',
        'com.example.https': 'https://127.0.0.1:5173/',
        'com.example.creds': 'http://user:pw@127.0.0.1:5173/',
        'com.example.file': 'file:///etc/',
        'com.example.number': 5173,
        'Bad Id': 'http://127.0.0.1:5173/',
        'com.example.ok': 'http://127.0.0.1:5173/',
      }),
    );
    expect([...plugins.keys()]).toEqual(['com.example.ok']);
    expect(problems).toHaveLength(6);
    expect(problems.join('\n')).toMatch(/attacker\.example.*not on this machine/);
  });

  it('says so when the file is not a JSON object', () => {
    expect(parseDevPluginsFile('[').problems[0]).toMatch(/not valid JSON/);
    expect(parseDevPluginsFile('[]').problems[0]).toMatch(/JSON object/);
  });

  it('writes entries sorted by id', () => {
    const text = formatDevPluginsFile(
      new Map([
        ['com.z', 'http://127.0.0.1:2/'],
        ['com.a', 'http://127.0.0.1:1/'],
      ]),
    );
    expect(Object.keys(JSON.parse(text))).toEqual(['com.a', 'com.z']);
    expect(parseDevPluginsFile(text).plugins.size).toBe(2);
  });
});
