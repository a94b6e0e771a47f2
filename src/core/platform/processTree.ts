import { abortable, isTimeout } from '../util/abortable';
import { hostPlatform, type Platform } from './platform';

export interface TreeEnd {
  /** Time between the polite and the forced end, and after the forced end. */
  readonly graceMs: number;
  /**
   * Windows has no SIGTERM: time the process is given to end on its own first (the caller closed
   * its stdin) before `taskkill /F`. 0 ends it at once.
   */
  readonly windowsWaitMs?: number;
}

/**
 * Ends a process and everything it started, started with `ownProcessGroup`. POSIX: the process
 * group gets SIGTERM, then SIGKILL after the grace — also when the leader ended, since what it
 * started may ignore SIGTERM. Windows: `taskkill /pid N /T /F` ends the whole tree (`child.kill()`
 * would end only the `cmd.exe` of an npm `.cmd` shim and leave the agent's node running). Resolves
 * once the leader has exited (`exited`), or the grace after the forced end has passed.
 */
export async function endProcessTree(
  child: { readonly pid?: number | undefined },
  exited: Promise<unknown>,
  end: TreeEnd,
  platform: Platform = hostPlatform(),
): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) {
    return;
  }
  if (platform.os === 'win32') {
    if ((end.windowsWaitMs ?? 0) > 0 && (await within(exited, end.windowsWaitMs ?? 0))) {
      return;
    }
    await platform.processes.run(taskkill(platform), ['/pid', String(pid), '/T', '/F']);
    await within(exited, end.graceMs);
    return;
  }
  platform.processes.signalGroup(pid, 'SIGTERM');
  const ended = await within(exited, end.graceMs);
  platform.processes.signalGroup(pid, 'SIGKILL');
  if (!ended) {
    await within(exited, end.graceMs);
  }
}

/** taskkill by its full path: a bare name is looked up in the current folder first on Windows. */
function taskkill(platform: Platform): string {
  const systemRoot =
    platform.processes.env['SystemRoot'] ?? platform.processes.env['windir'] ?? 'C:\\Windows';
  return platform.path.join(systemRoot, 'System32', 'taskkill.exe');
}

/** True when `promise` settled within `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return abortable(promise, AbortSignal.timeout(ms)).then(
    () => true,
    (error: unknown) => !isTimeout(error),
  );
}
