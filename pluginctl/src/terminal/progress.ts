/**
 * A one-line spinner on stderr for long steps (build, pack, upload). It draws only when stderr is a
 * terminal: piped or captured output (CI logs, `--json` runs, tests) stays free of control codes.
 */

/** A running progress line. */
export interface Progress {
  /** Replaces the text after the spinner. */
  update(text: string): void;
  /** Stops the spinner and prints a final line (`✓ text` / `✗ text`) when `text` is given. */
  done(text?: string, ok?: boolean): void;
}

/** Where a progress line draws; `process.stderr` unless a test passes its own. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(chunk: string): unknown;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_MS = 80;

const NOOP: Progress = {
  update() {},
  done() {},
};

/**
 * Starts a spinner with `text`. Returns a no-op when `stream` is not a TTY, so callers never need
 * to check. The timer is unref'd: a forgotten `done()` never keeps the process alive.
 */
export function startProgress(text: string, stream: ProgressStream = process.stderr): Progress {
  if (stream.isTTY !== true) return NOOP;
  let current = text;
  let frame = 0;
  let stopped = false;
  const draw = () => {
    stream.write(`\r\x1b[2K${FRAMES[frame % FRAMES.length]} ${current}`);
    frame += 1;
  };
  draw();
  const timer = setInterval(draw, FRAME_MS);
  timer.unref();
  return {
    update(next) {
      current = next;
      if (!stopped) draw();
    },
    done(final, ok = true) {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      stream.write('\r\x1b[2K');
      if (final !== undefined) stream.write(`${ok ? '✓' : '✗'} ${final}\n`);
    },
  };
}

/**
 * Runs `task` under a spinner labelled `text`, finishing it with `text` marked done or failed.
 * Errors pass through unchanged.
 */
export async function withProgress<T>(text: string, task: (progress: Progress) => Promise<T>, stream?: ProgressStream): Promise<T> {
  const progress = startProgress(text, stream);
  try {
    const result = await task(progress);
    progress.done(text, true);
    return result;
  } catch (error) {
    progress.done(text, false);
    throw error;
  }
}
