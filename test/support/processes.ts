import { readFileSync } from 'node:fs';

/**
 * Whether `pid` is still a live process. An exited process that nobody reaped (a zombie) counts
 * as gone: an orphaned grandchild is reparented to PID 1, and a container's PID 1 may never reap it.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') {
      return false;
    }
    // EPERM: it lives, under another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') {
      throw error;
    }
  }
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
    } catch {
      return false;
    }
  }
  return true;
}
