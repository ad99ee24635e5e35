import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { PluginHostError } from '@plughost/host-sdk/core';
import { killProcessTree } from './kill-process-tree.js';
import { OutputCollector } from './output-collector.js';
import { SHELL_LIMITS } from './shell-limits.js';
import { shellInvocation } from './shell-invocation.js';

/** The answer of a command that finished in time. */
export interface ShellResult {
  /** The exit status; `128 + n` when signal `n` ended the shell (as shells report it). */
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** What {@link runShellCommand} needs besides the command. */
export interface RunShellOptions {
  readonly timeoutMs: number;
  /** Working folder of the command. */
  readonly cwd: string;
  /** The complete environment (already stripped of secrets). */
  readonly env: NodeJS.ProcessEnv;
  /** Aborting (the caller went away) kills the process tree, like a timeout. */
  readonly signal?: AbortSignal;
  readonly maximumOutputBytes?: number;
  readonly killGraceMs?: number;
}

/**
 * Runs one command line in the platform's shell, stdin closed, and resolves when its output
 * streams have closed. Past `timeoutMs` the whole process tree is killed and the promise rejects
 * with 400 `SHELL_TIMEOUT`. Background processes that keep stdout or stderr open count as still
 * running; ones that redirected their output are left alone when the command ends in time.
 */
export function runShellCommand(command: string, options: RunShellOptions): Promise<ShellResult> {
  const limit = options.maximumOutputBytes ?? SHELL_LIMITS.maximumOutputBytes;
  const grace = options.killGraceMs ?? SHELL_LIMITS.killGraceMs;
  const { program, args } = shellInvocation(command);
  return new Promise<ShellResult>((resolve, reject) => {
    const child = spawn(program, args, {
      cwd: options.cwd,
      env: options.env,
      // stdin is /dev/null, so a command waiting for input reads end-of-file instead of hanging.
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group on POSIX, so a timeout can kill grandchildren too. On Windows
      // `detached` would open a console window; taskkill /T finds the tree instead.
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    const stdout = new OutputCollector(limit);
    const stderr = new OutputCollector(limit);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));

    let settled = false;
    let stopping: 'timeout' | 'aborted' | undefined;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const stop = (reason: 'timeout' | 'aborted'): void => {
      if (settled || stopping) return;
      stopping = reason;
      void killProcessTree(child, grace).then(() => {
        // A process that left the group (setsid) may still hold the pipes: stop reading them.
        child.stdout.destroy();
        child.stderr.destroy();
        finish(() =>
          reject(
            reason === 'timeout'
              ? new PluginHostError('SHELL_TIMEOUT', `The command did not finish within ${options.timeoutMs} ms and was killed`)
              : new PluginHostError('INVALID_ARGUMENT', 'The request was aborted; the command was killed'),
          ),
        );
      });
    };
    const onAbort = (): void => stop('aborted');
    const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.once('error', (error) => finish(() => reject(error)));
    child.once('close', (code, signal) => {
      if (stopping) return;
      const exitCode = code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
      finish(() => resolve({ exitCode, stdout: stdout.text(), stderr: stderr.text() }));
    });
  });
}
