import { spawn, type ChildProcess } from 'node:child_process';
import { childEnvironment } from '../system/child-environment.js';

/**
 * Kills `child` and everything it started. On POSIX the child leads its own process group
 * (spawned `detached`), so signalling the negative pid reaches grandchildren too, including
 * those that ignore SIGTERM: SIGTERM first so well-behaved programs can clean up, SIGKILL after
 * `graceMs`. On Windows `taskkill /T /F` walks the tree by parent pid.
 *
 * Resolves once SIGKILL (or taskkill) was sent.
 */
export async function killProcessTree(child: ChildProcess, graceMs: number, platform: NodeJS.Platform = process.platform): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  if (platform === 'win32') {
    await new Promise<void>((resolve) => {
      const killer = spawn('taskkill', ['/T', '/F', '/PID', String(pid)], { stdio: 'ignore', windowsHide: true, env: childEnvironment() });
      killer.once('error', () => resolve());
      killer.once('exit', () => resolve());
    });
    return;
  }
  signalGroup(pid, 'SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, graceMs));
  // Sent even when the leader has exited: a grandchild that ignored SIGTERM is still in the group.
  signalGroup(pid, 'SIGKILL');
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the whole group is gone already.
  }
}
