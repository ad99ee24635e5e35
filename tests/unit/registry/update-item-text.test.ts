/**
 * UpdateItemTexts on its own: a pre-serialized check-updates item must be exactly the object
 * path's JSON (`updateItemView` through `JSON.stringify`), and must change when anything it was
 * built from changes (the version, the public URL, the mirrors, the installed version).
 */
import { describe, expect, it } from 'vitest';
import type { CatalogVersion } from '../../../registry/src/catalog/catalog-types.js';
import { downloadInfoBuilder, updateItemView } from '../../../registry/src/protocol/views.js';
import type { OfferedUpdate } from '../../../registry/src/updates/find-updates.js';
import { checkUpdatesResponseText, UpdateItemTexts } from '../../../registry/src/updates/update-item-text.js';

const BASE = 'http://127.0.0.1:4000/api/v1';

function version(overrides: Partial<CatalogVersion> = {}): CatalogVersion {
  return {
    id: 'b1d0c6a2-0000-4000-8000-000000000001',
    pluginId: 'com.example.hello',
    version: '1.2.0-beta.1+build.5',
    sha256: 'a'.repeat(64),
    sizeBytes: 12_345,
    changelog: 'Quotes "here", a back\\slash, a new\nline, </script> and ünïcode',
    publishedAt: '2030-03-10T00:00:00.000Z',
    minLauncherVersion: '1.0.0',
    permissions: ['storage'],
    layers: ['l1'],
    status: 'published',
    rolloutPercent: 40,
    signerKeyId: null,
    createdAt: '2030-03-01T00:00:00.000Z',
    reviewNote: null,
    ...overrides,
  };
}

function offer(slug: string, currentVersion: string, offered: CatalogVersion): OfferedUpdate {
  return { slug, currentVersion, version: offered };
}

function objectPath(update: OfferedUpdate, baseUrl: string, mirrors: readonly string[]): string {
  return JSON.stringify(updateItemView(update.slug, update.currentVersion, update.version, downloadInfoBuilder(baseUrl, mirrors)));
}

describe('UpdateItemTexts', () => {
  it('gives exactly the JSON of the object path, with and without mirrors, for odd slugs and versions', () => {
    const cases = [offer('hello', '1.0.0', version()), offer('odd slug/ä?#', '0.0.1-rc.1', version({ publishedAt: null, rolloutPercent: 100, changelog: '' }))];
    for (const mirrors of [[], ['mirror.example.org', 'second.example.org']]) {
      const texts = new UpdateItemTexts(mirrors);
      for (const update of cases) {
        expect(texts.text(update, BASE)).toBe(objectPath(update, BASE, mirrors));
        // A second use (served from the kept parts) is the same text.
        expect(texts.text(update, BASE)).toBe(objectPath(update, BASE, mirrors));
      }
    }
  });

  it('wraps the items as JSON.stringify({updates}) does', () => {
    const texts = new UpdateItemTexts(['mirror.example.org']);
    const updates = [offer('hello', '1.0.0', version()), offer('other', '2.0.0', version({ id: 'x', version: '3.0.0' }))];
    const text = checkUpdatesResponseText(updates.map((update) => texts.text(update, BASE)));
    const items = updates.map((update) =>
      updateItemView(update.slug, update.currentVersion, update.version, downloadInfoBuilder(BASE, ['mirror.example.org'])),
    );
    expect(text).toBe(JSON.stringify({ updates: items }));
    expect(checkUpdatesResponseText([])).toBe(JSON.stringify({ updates: [] }));
  });

  it('follows the installed version of each request', () => {
    const texts = new UpdateItemTexts([]);
    const offered = version();
    expect(JSON.parse(texts.text(offer('hello', '1.0.0', offered), BASE))).toMatchObject({ currentVersion: '1.0.0' });
    expect(JSON.parse(texts.text(offer('hello', '1.1.0', offered), BASE))).toMatchObject({ currentVersion: '1.1.0' });
  });

  it('changes when the version changes (a new version object, as a new catalog revision gives)', () => {
    const texts = new UpdateItemTexts([]);
    const before = texts.text(offer('hello', '1.0.0', version()), BASE);
    const rolledOut = offer('hello', '1.0.0', version({ rolloutPercent: 100, sha256: 'b'.repeat(64) }));
    const after = texts.text(rolledOut, BASE);
    expect(after).not.toBe(before);
    expect(after).toBe(objectPath(rolledOut, BASE, []));
  });

  it('changes when the public URL changes, for the same version object', () => {
    const texts = new UpdateItemTexts(['mirror.example.org']);
    const update = offer('hello', '1.0.0', version());
    const first = texts.text(update, BASE);
    const other = 'https://registry.example.com/api/v1';
    const second = texts.text(update, other);
    expect(second).not.toBe(first);
    expect(second).toBe(objectPath(update, other, ['mirror.example.org']));
    expect(texts.text(update, BASE)).toBe(first);
  });

  it('changes when the slug asking changes, for the same version object', () => {
    const texts = new UpdateItemTexts([]);
    const offered = version();
    texts.text(offer('hello', '1.0.0', offered), BASE);
    const renamed = offer('hello-renamed', '1.0.0', offered);
    expect(texts.text(renamed, BASE)).toBe(objectPath(renamed, BASE, []));
  });

  it('depends on the mirrors of its instance', () => {
    const update = offer('hello', '1.0.0', version());
    const none = new UpdateItemTexts([]).text(update, BASE);
    const one = new UpdateItemTexts(['mirror.example.org']).text(update, BASE);
    const other = new UpdateItemTexts(['cdn.example.net']).text(update, BASE);
    expect(JSON.parse(none).download.mirrorUrl).toBeUndefined();
    expect(JSON.parse(one).download.mirrorUrl).toBe('https://mirror.example.org/api/v1/plugins/hello/versions/1.2.0-beta.1%2Bbuild.5/package');
    expect(other).not.toBe(one);
    expect(other).toBe(objectPath(update, BASE, ['cdn.example.net']));
  });
});
