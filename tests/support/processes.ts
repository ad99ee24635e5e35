import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/** A child process started by a test, with its output collected so far. */
export interface RunningProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Stops the process (SIGTERM, then SIGKILL after a grace period) and waits for it to exit. */
  stop(): Promise<number | null>;
}

/** Starts `command` and collects its output; call `stop()` in `afterEach`/`afterAll`. */
export function startProcess(command: string, args: readonly string[], options: SpawnOptions = {}): RunningProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        const code = await exited;
        clearTimeout(timer);
        return code;
      }
      return exited;
    },
  };
}

/** Resolves with the first match of `pattern` in the process's stdout, or rejects on exit/timeout. */
export function waitForOutput(process: RunningProcess, pattern: RegExp, timeoutMs = 60_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const match = process.stdout().match(pattern);
      if (match) {
        cleanup();
        resolve(match);
      }
      return Boolean(match);
    };
    const onExit = (code: number | null): void => {
      cleanup();
      reject(new Error(`process exited (${code}) before printing ${pattern}.\nstdout: ${process.stdout()}\nstderr: ${process.stderr()}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`timed out waiting for ${pattern}.\nstdout: ${process.stdout()}\nstderr: ${process.stderr()}`));
    }, timeoutMs);
    const cleanup = (): void => {
      clearTimeout(timer);
      process.child.stdout?.off('data', check);
      process.child.off('exit', onExit);
    };
    if (check()) return;
    process.child.stdout?.on('data', check);
    process.child.once('exit', onExit);
  });
}
