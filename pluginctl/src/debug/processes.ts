import { type ChildProcess, spawn } from 'node:child_process';
import { open, readFile } from 'node:fs/promises';
import { CliError } from '../cli-error.js';

/** A program pluginctl started, its output going to a log file (so it can outlive pluginctl). */
export interface StartedProgram {
  child: ChildProcess;
  logFile: string;
  exited: Promise<void>;
}

/**
 * Starts `command` in its own process group with stdout and stderr appended to `logFile`.
 * A file rather than a pipe: with `--no-kill` the program keeps running after pluginctl exits,
 * and a closed pipe would end it at its next write.
 */
export async function startProgram(
  command: string,
  args: readonly string[],
  options: { logFile: string; env?: NodeJS.ProcessEnv; cwd?: string },
): Promise<StartedProgram> {
  const log = await open(options.logFile, 'a');
  try {
    const child = spawn(command, args, { stdio: ['ignore', log.fd, log.fd], detached: true, env: options.env ?? process.env, cwd: options.cwd });
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) =>
        reject(
          new CliError('DEBUG_START_FAILED', `Could not start ${command}: ${error.message}. Check the path (or set CHROME_PATH / PLUGINCTL_LAUNCHER_PATH).`),
        ),
      );
    });
    return { child, logFile: options.logFile, exited };
  } finally {
    await log.close();
  }
}

/** Stops a program: SIGTERM, then SIGKILL when it has not exited after `graceMs`. */
export async function stopProgram(program: StartedProgram, graceMs = 5_000): Promise<void> {
  const { child } = program;
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await program.exited;
    clearTimeout(timer);
  }
}

/**
 * Follows a log file line by line (polling, which works on every file system), calling `onLine`
 * for each complete line; resolves the returned `stop` to end following.
 */
export function followLines(file: string, onLine: (line: string) => void, intervalMs = 100): () => Promise<void> {
  let position = 0;
  let partial = '';
  let reading: Promise<void> = Promise.resolve();
  const read = async (): Promise<void> => {
    const text = await readFile(file).then(
      (bytes) => bytes.subarray(position),
      () => Buffer.alloc(0),
    );
    position += text.length;
    const lines = (partial + text.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) onLine(line.replace(/\r$/, ''));
  };
  const timer = setInterval(() => {
    reading = reading.then(read);
  }, intervalMs);
  return async () => {
    clearInterval(timer);
    reading = reading.then(read);
    await reading;
  };
}

/**
 * Resolves with the first match of `pattern` in the lines of `program`'s log; rejects when it
 * exits first or after `timeoutMs`, with `hint` (what to try) and the log's end in the message.
 */
export function waitForLine(program: StartedProgram, pattern: RegExp, what: string, hint = '', timeoutMs = 60_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (outcome: () => void): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      void stop().then(outcome);
    };
    const stop = followLines(program.logFile, (line) => {
      const match = line.match(pattern);
      if (match) finish(() => resolve(match));
    });
    const fail = (reason: string): void =>
      finish(() => {
        void readFile(program.logFile, 'utf8')
          .catch(() => '')
          .then((log) => {
            const tail = log.trim().split('\n').slice(-15).join('\n');
            reject(new CliError('DEBUG_START_FAILED', `${what} ${reason}.${hint ? ` ${hint}` : ''} Its output (${program.logFile}) ends with:\n${tail}`));
          });
      });
    const timer = setTimeout(() => fail(`did not get ready within ${timeoutMs / 1000} s`), timeoutMs);
    // One more read first: the line may have been written just before the exit.
    void program.exited.then(() => stop()).then(() => fail('exited before it was ready'));
  });
}
