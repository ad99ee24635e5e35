import { spawn } from 'node:child_process';
import { DEV_BUILD_OUTPUT_LIMIT } from '@plughost/host-sdk/core';
import type { BuildCommand } from './build-command.js';

/** How one build ended. */
export interface BuildResult {
  /** True when the build exited with status 0. */
  readonly ok: boolean;
  /** The exit status, or `null` when a signal ended it or it never started. */
  readonly exitCode: number | null;
  /** The signal that ended it, if one did. */
  readonly signal: NodeJS.Signals | null;
  /**
   * The end of its combined stdout and stderr (at most `outputLimit` characters, terminal colour
   * codes removed), or why it could not start.
   */
  readonly output: string;
  readonly durationMs: number;
}

/** A build that is running. */
export interface RunningBuild {
  /** Resolves when the build has ended; never rejects (a build that cannot start is a failed result). */
  readonly result: Promise<BuildResult>;
  /** Stops the build and everything it started; resolves once it has exited. */
  kill(): Promise<void>;
}

/** Options of {@link startBuild}. */
export interface StartBuildOptions {
  /** The project folder the build runs in. */
  readonly cwd: string;
  /** The most output kept, counted from the end; default `DEV_BUILD_OUTPUT_LIMIT`. */
  readonly outputLimit?: number;
  /** The build's environment; default this process's. */
  readonly env?: NodeJS.ProcessEnv;
}

// CSI sequences (colours, cursor moves) and OSC sequences (hyperlinks): they are noise in a page.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escape sequences is the point
const TERMINAL_ESCAPES = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/** How long a killed build may take to exit before it is killed for good. */
const KILL_GRACE_MS = 3_000;

/** Keeps the last `limit` characters of what is appended, without growing past twice that. */
function outputTail(limit: number): { append(text: string): void; text(): string } {
  let kept = '';
  return {
    append(text) {
      kept += text;
      if (kept.length > 2 * limit) kept = kept.slice(-limit);
    },
    text: () => kept.replace(TERMINAL_ESCAPES, '').slice(-limit),
  };
}

/**
 * Starts `command` in `options.cwd` with piped output, collecting the end of its combined stdout
 * and stderr. On POSIX the build runs in its own process group, so {@link RunningBuild.kill} also
 * stops what it started (a package manager runs the real build as its child), and a Ctrl-C in the
 * terminal reaches pluginctl only, which then stops the build itself.
 */
export function startBuild(command: BuildCommand, options: StartBuildOptions): RunningBuild {
  const started = performance.now();
  const output = outputTail(options.outputLimit ?? DEV_BUILD_OUTPUT_LIMIT);
  const posix = process.platform !== 'win32';
  const child = spawn(command.file, [...command.args], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    shell: command.shell,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: posix,
    windowsHide: true,
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => output.append(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => output.append(chunk));
  const elapsed = (): number => Math.round(performance.now() - started);

  let exited = false;
  const result = new Promise<BuildResult>((resolve) => {
    child.once('error', (error) => {
      exited = true;
      const text = `Could not start the build (${command.display}): ${error.message}. Install it, or pass --build-cmd "<command>".`;
      resolve({ ok: false, exitCode: null, signal: null, output: text, durationMs: elapsed() });
    });
    // `close` rather than `exit`: it comes after the output streams have ended, so nothing is lost.
    child.once('close', (code, signal) => {
      exited = true;
      resolve({ ok: code === 0, exitCode: code, signal, output: output.text(), durationMs: elapsed() });
    });
  });

  const signal = (name: NodeJS.Signals): void => {
    if (exited || child.pid === undefined) return;
    try {
      if (posix) process.kill(-child.pid, name);
      else child.kill(name);
    } catch {
      // Already gone.
    }
  };
  return {
    result,
    async kill() {
      if (exited) return;
      signal('SIGTERM');
      const escalate = setTimeout(() => signal('SIGKILL'), KILL_GRACE_MS);
      await result;
      clearTimeout(escalate);
    },
  };
}
