import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEBUG_PORT, DEV_PORT, HARNESS_PORT, PORT_OPTIONS, probePort, readPortOption, STUB_PORT } from '../../../pluginctl/src/port-option.js';
import { listenForStopSignal } from '../../../pluginctl/src/stop-signal.js';

describe('readPortOption', () => {
  it('takes the option, else the environment variable, else the default; 0 means any free port', () => {
    expect(readPortOption(DEV_PORT, '6000', { PLUGINCTL_DEV_PORT: '7000' })).toBe(6000);
    expect(readPortOption(DEV_PORT, undefined, { PLUGINCTL_DEV_PORT: '7000' })).toBe(7000);
    // An empty variable counts as not set (a test or a shell may clear it that way).
    expect(readPortOption(DEV_PORT, undefined, { PLUGINCTL_DEV_PORT: '' })).toBe(5173);
    expect(readPortOption(DEBUG_PORT, undefined, {})).toBe(9222);
    expect(readPortOption(STUB_PORT, '0', { PLUGINCTL_STUB_PORT: '5200' })).toBe(0);
    expect(readPortOption(HARNESS_PORT, undefined, { PLUGINCTL_HARNESS_PORT: '0' })).toBe(0);
  });

  it('refuses anything but a whole number up to 65535 as bad usage, naming where it came from', () => {
    const refused = (given: string | undefined, env: Record<string, string>): unknown => {
      try {
        return readPortOption(DEBUG_PORT, given, env);
      } catch (error) {
        return error;
      }
    };
    expect(refused('x', {})).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: '--port must be a port number from 0 to 65535, got "x". Use 0 for any free port.',
    });
    expect(refused('65536', {})).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('got "65536"') });
    expect(refused(undefined, { PLUGINCTL_DEBUG_PORT: '-1' })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/^PLUGINCTL_DEBUG_PORT must be a port number/),
    });
    expect(refused('80.5', {})).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('has the defaults of decisions 10 and one variable per port', () => {
    expect(PORT_OPTIONS.map((setting) => setting.fallback)).toEqual([5100, 1420, 5173, 9222]);
    expect(new Set(PORT_OPTIONS.map((setting) => setting.env)).size).toBe(PORT_OPTIONS.length);
  });
});

describe('probePort', () => {
  it('answers null for a free port and the listen error for a taken one', async () => {
    const holder: Server = createServer();
    await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done));
    const { port } = holder.address() as { port: number };
    try {
      expect(await probePort(port)).toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await new Promise((done) => holder.close(done));
    }
    expect(await probePort(port)).toBeNull();
  });
});

describe('listenForStopSignal', () => {
  it('resolves with the signal and, once disposed, leaves SIGINT and SIGTERM as they were', async () => {
    const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    const stop = listenForStopSignal();
    const added = process.listeners('SIGTERM').filter((listener) => !before.SIGTERM.includes(listener));
    expect(added).toHaveLength(1);
    expect(process.listeners('SIGINT').filter((listener) => !before.SIGINT.includes(listener))).toHaveLength(1);
    // Called directly: emitting the signal would also reach the test runner's own listeners.
    (added[0] as (signal: NodeJS.Signals) => void)('SIGTERM');
    expect(await stop.signalled).toBe('SIGTERM');
    stop.dispose();
    expect(process.listeners('SIGINT')).toEqual(before.SIGINT);
    expect(process.listeners('SIGTERM')).toEqual(before.SIGTERM);
  });
});
