import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveDataDirectory } from '@plughost/backend-kit';

const appName = 'Test Launcher';
const home = '/home/player';

describe('resolveDataDirectory', () => {
  it('uses LAUNCHER_HOME (portable mode) on every platform, resolved to an absolute path', () => {
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      expect(resolveDataDirectory({ appName, home, platform, env: { LAUNCHER_HOME: 'portable/data' } })).toBe(resolve('portable/data'));
    }
  });

  it('ignores an empty LAUNCHER_HOME', () => {
    expect(resolveDataDirectory({ appName, home, platform: 'linux', env: { LAUNCHER_HOME: '  ' } })).toBe('/home/player/.local/share/Test Launcher');
  });

  it('follows XDG_DATA_HOME on Linux, ignoring a relative one as the XDG spec requires', () => {
    expect(resolveDataDirectory({ appName, home, platform: 'linux', env: { XDG_DATA_HOME: '/data/xdg' } })).toBe('/data/xdg/Test Launcher');
    expect(resolveDataDirectory({ appName, home, platform: 'linux', env: { XDG_DATA_HOME: 'rel' } })).toBe('/home/player/.local/share/Test Launcher');
  });

  it('uses APPDATA on Windows and Application Support on macOS', () => {
    expect(resolveDataDirectory({ appName, home, platform: 'win32', env: { APPDATA: '/c/Users/p/AppData/Roaming' } })).toBe(
      '/c/Users/p/AppData/Roaming/Test Launcher',
    );
    expect(resolveDataDirectory({ appName, home, platform: 'darwin', env: {} })).toBe('/home/player/Library/Application Support/Test Launcher');
  });
});
