import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Ends a terminal's command and everything it started. The command runs as the leader of its own
 * process group (POSIX) so the group gets SIGTERM, then SIGKILL after `graceMs` — a child that
 * ignores SIGTERM does not survive. On Windows `taskkill /T /F` ends the whole tree (`child.kill()`
 * would end only `cmd.exe`). Resolves once the leader has exited (`exited`), or the grace after the
 * SIGKILL has passed.
 */
export async function killTree(
  child: ChildProcess,
  exited: Promise<unknown>,
  graceMs: number,
): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) {
    return;
  }
  if (process.platform === 'win32') {
    await new Promise<void>((resolve) => {
      const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], {
        stdio: 'ignore',
        windowsHide: true,
      });
      killer.once('error', () => resolve());
      killer.once('close', () => resolve());
    });
    await within(exited, graceMs);
    return;
  }
  signalGroup(pid, 'SIGTERM');
  const ended = await within(exited, graceMs);
  // The group is killed even when its leader ended: what it started may ignore SIGTERM.
  signalGroup(pid, 'SIGKILL');
  if (!ended) {
    await within(exited, graceMs);
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

/** True when `promise` settled within `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
