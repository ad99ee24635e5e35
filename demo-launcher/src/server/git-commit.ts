import { execFile } from 'node:child_process';
import { childEnvironment } from '@plughost/backend-kit';

/** A full commit hash, as `git rev-parse` prints it (SHA-1 or SHA-256). */
const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The commit of the git checkout that `directory` lies in (`git rev-parse --verify HEAD`), for
 * system information's `GitCommit`. The demo runs from its repository (`npm start` builds and runs
 * the checkout), so that commit is the one it was built from; nothing in the build has to carry
 * it. Outside a checkout (a packed demo), without git, or when git takes longer than `timeoutMs`,
 * the commit is unknown: `undefined`, and system information leaves the field out rather than
 * showing a placeholder. Git gets the scrubbed environment of every child process (no launcher
 * secret).
 */
export function readGitCommit(directory: string, timeoutMs = 2_000): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['rev-parse', '--verify', '--quiet', 'HEAD'],
      { cwd: directory, timeout: timeoutMs, env: childEnvironment(), windowsHide: true },
      (error, stdout) => {
        const commit = String(stdout).trim();
        resolve(!error && COMMIT.test(commit) ? commit : undefined);
      },
    );
  });
}
