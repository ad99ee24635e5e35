import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPluginHostError } from '@plughost/host-sdk/core';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../backend-kit/src/http/logger.js';
import { describeLinux } from '../../../../backend-kit/src/services/system/linux-description.js';
import { describeMacos } from '../../../../backend-kit/src/services/system/macos-description.js';
import { parseMeminfo } from '../../../../backend-kit/src/services/system/memory.js';
import { architectureName, osFamily } from '../../../../backend-kit/src/services/system/operating-system.js';
import { parseOpenableUrl } from '../../../../backend-kit/src/services/system/openable-url.js';
import { parseOsRelease } from '../../../../backend-kit/src/services/system/os-release.js';
import { openerCommand, openWithPlatformOpener } from '../../../../backend-kit/src/services/system/url-opener.js';
import { versionTypeOf } from '../../../../backend-kit/src/services/system/version-type.js';
import { describeWindows } from '../../../../backend-kit/src/services/system/windows-description.js';

describe('versionTypeOf', () => {
  it.each([
    ['1.2.3-alpha', 'alpha'],
    ['1.2.3-alpha.1', 'alpha'],
    ['1.2.3-beta.4', 'beta'],
    ['1.2.3-beta4', 'beta'],
    ['1.2.3-BETA', 'beta'],
    ['2.0.0-rc.1', 'rc'],
    ['1.0.0-dev', 'dev'],
    ['1.0.0-dev.20240101+abc', 'dev'],
    ['1.0.0', 'stable'],
    ['1.2.3+build5', 'stable'],
    ['1.0.0-nightly.5', 'dev'],
    ['1.0.0-0.3.7', 'dev'],
    ['1.0.0-alphabet', 'dev'],
  ])('%s is %s', (version, type) => {
    expect(versionTypeOf(version)).toBe(type);
  });
});

describe('parseOsRelease', () => {
  it('reads quoted, single-quoted and bare values and ignores comments', () => {
    const fields = parseOsRelease(
      '# comment\nNAME="Fedora Linux"\nVERSION=\'39 (Workstation Edition)\'\nVERSION_ID=39\nPRETTY_NAME="Say \\"hi\\""\n\nbad line\n',
    );
    expect(fields).toEqual({ NAME: 'Fedora Linux', VERSION: '39 (Workstation Edition)', VERSION_ID: '39', PRETTY_NAME: 'Say "hi"' });
  });
});

describe('describeLinux', () => {
  it('maps NAME, VERSION, VERSION_ID and PRETTY_NAME', () => {
    expect(
      describeLinux({ NAME: 'Debian GNU/Linux', VERSION: '12 (bookworm)', VERSION_ID: '12', PRETTY_NAME: 'Debian GNU/Linux 12 (bookworm)' }, '6.1.0'),
    ).toEqual({ name: 'Debian GNU/Linux', version: '12 (bookworm)', versionId: '12', displayName: 'Debian GNU/Linux 12 (bookworm)' });
  });

  it('falls back for rolling distributions and missing files', () => {
    expect(describeLinux({ NAME: 'Arch Linux', BUILD_ID: 'rolling', PRETTY_NAME: 'Arch Linux' }, '6.8.1-arch1')).toEqual({
      name: 'Arch Linux',
      version: 'rolling',
      versionId: 'rolling',
      displayName: 'Arch Linux',
    });
    expect(describeLinux({}, '6.8.1')).toEqual({ name: 'Linux', version: '6.8.1', versionId: '6.8.1', displayName: 'Linux 6.8.1' });
  });
});

describe('describeWindows', () => {
  it('tells Windows 11 from its build number', () => {
    expect(describeWindows('Windows 10 Pro', '10.0.22631')).toEqual({
      name: 'Windows',
      version: '11 (10.0.22631)',
      versionId: '11',
      displayName: 'Windows 11 Pro',
    });
    expect(describeWindows('Windows 10 Home', '10.0.19045')).toEqual({
      name: 'Windows',
      version: '10 (10.0.19045)',
      versionId: '10',
      displayName: 'Windows 10 Home',
    });
  });
});

describe('describeMacos', () => {
  it('uses the sw_vers fields', () => {
    expect(describeMacos({ productName: 'macOS', productVersion: '14.4.1', buildVersion: '23E224' })).toEqual({
      name: 'macOS',
      version: '14.4.1 (23E224)',
      versionId: '14.4.1',
      displayName: 'macOS 14.4.1',
    });
  });
});

describe('platform names', () => {
  it('names the family and architecture', () => {
    expect(osFamily('win32', 'Windows_NT')).toBe('Windows');
    expect(osFamily('darwin', 'Darwin')).toBe('macOS');
    expect(osFamily('linux', 'Linux')).toBe('Linux');
    expect(osFamily('sunos', 'SunOS')).toBe('SunOS');
    expect(architectureName('ia32')).toBe('x86');
    expect(architectureName('arm64')).toBe('arm64');
  });
});

describe('parseMeminfo', () => {
  it('reads MemTotal and MemAvailable in bytes', () => {
    expect(parseMeminfo('MemTotal:       16384 kB\nMemFree:     1024 kB\nMemAvailable:    8192 kB\n')).toEqual({
      Memory: 16384 * 1024,
      AvailableMemory: 8192 * 1024,
    });
  });

  it('gives up without MemAvailable (kernels before 3.14)', () => {
    expect(parseMeminfo('MemTotal:       16384 kB\nMemFree:     1024 kB\n')).toBeNull();
  });
});

describe('openerCommand', () => {
  const url = 'https://example.com/?a=1&b=2|x';
  it('passes the URL as one argument, never through a shell', () => {
    expect(openerCommand('linux', url)).toEqual({ command: 'xdg-open', args: [url] });
    expect(openerCommand('freebsd', url)).toEqual({ command: 'xdg-open', args: [url] });
    expect(openerCommand('darwin', url)).toEqual({ command: 'open', args: [url] });
    expect(openerCommand('win32', url)).toEqual({ command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] });
  });
});

describe('openWithPlatformOpener', () => {
  // A folder holding a fake `xdg-open`, found through the child's PATH like the real one.
  const bin = mkdtempSync(join(tmpdir(), 'opener-'));
  afterAll(() => rmSync(bin, { recursive: true, force: true }));
  function fakeOpener(script: string): NodeJS.ProcessEnv {
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\n${script}\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    return { PATH: bin };
  }
  const open = (env: NodeJS.ProcessEnv, exitGraceMs = 3_000) =>
    openWithPlatformOpener('https://example.com/', silentLogger, { platform: 'linux', env, exitGraceMs });

  it('resolves when the opener hands the URL over and exits with 0', async () => {
    await expect(open(fakeOpener('exit 0'))).resolves.toBeUndefined();
  });

  it('reports URL_OPEN_FAILED with the status when the opener fails (no default browser)', async () => {
    const failure = await open(fakeOpener('exit 3')).catch((error: unknown) => error);
    expect(isPluginHostError(failure, 'URL_OPEN_FAILED')).toBe(true);
    expect((failure as Error).message).toMatch(/xdg-open could not open the URL \(it exited with status 3\)/);
  });

  it('reports URL_OPEN_FAILED when there is no opener at all', async () => {
    const failure = await open({ PATH: join(bin, 'missing') }).catch((error: unknown) => error);
    expect(isPluginHostError(failure, 'URL_OPEN_FAILED')).toBe(true);
    expect((failure as Error).message).toMatch(/could not start xdg-open/);
  });

  it('takes an opener still running after the grace period (it runs the browser) as opened', async () => {
    await expect(open(fakeOpener('exec /bin/sleep 2'), 200)).resolves.toBeUndefined();
  });
});

describe('parseOpenableUrl', () => {
  it('normalizes http and https URLs', () => {
    expect(parseOpenableUrl('https://example.com')).toBe('https://example.com/');
    expect(parseOpenableUrl('http://[::1]:8080/x')).toBe('http://[::1]:8080/x');
  });

  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['upper-case JAVASCRIPT:', 'JAVASCRIPT:alert(1)'],
    ['file:', 'file:///C:/Windows'],
    ['data:', 'data:,x'],
    ['ftp:', 'ftp://x'],
    ['mailto:', 'mailto:a@b.c'],
    ['a protocol-relative URL', '//example.com'],
    ['a URL longer than the limit', `https://example.com/${'x'.repeat(9000)}`],
  ])('refuses %s', (_label, url) => {
    expect(() => parseOpenableUrl(url)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
