import { describe, expect, it } from 'vitest';
import { startProgress, withProgress } from '../../../pluginctl/src/terminal/progress.js';

function stream(isTTY: boolean): { isTTY: boolean; chunks: string[]; write(chunk: string): boolean } {
  const chunks: string[] = [];
  return {
    isTTY,
    chunks,
    write(chunk) {
      chunks.push(chunk);
      return true;
    },
  };
}

describe('the progress line of pack and publish', () => {
  it('writes nothing when stderr is not a terminal (CI logs, --json runs)', async () => {
    const piped = stream(false);
    const progress = startProgress('Packing', piped);
    progress.update('Signing');
    progress.done('Packed');
    await withProgress('Uploading', async () => 1, piped);
    expect(piped.chunks).toEqual([]);
  });

  it('draws on a terminal, clears its line when done and prints the final line once', async () => {
    const tty = stream(true);
    const progress = startProgress('Packing', tty);
    progress.update('Signing');
    progress.done('Packed');
    progress.done('again');
    expect(tty.chunks[0]).toBe('\r\x1b[2K⠋ Packing');
    expect(tty.chunks).toContain('\r\x1b[2K⠙ Signing');
    expect(tty.chunks.slice(-2)).toEqual(['\r\x1b[2K', '✓ Packed\n']);
    const failing = stream(true);
    await expect(withProgress('Uploading', () => Promise.reject(new Error('boom')), failing)).rejects.toThrow('boom');
    expect(failing.chunks.at(-1)).toBe('✗ Uploading\n');
  });
});
