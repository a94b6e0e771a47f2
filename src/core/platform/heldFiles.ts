import { hostPlatform, type Platform } from './platform';

/**
 * How long a rename or delete on Windows waits for another program to let go of the file: an
 * antivirus scan, the search indexer, a backup or another window reading it. Windows refuses to
 * replace or delete a file opened without FILE_SHARE_DELETE (EPERM, EBUSY, EACCES) for as long as
 * it is held; POSIX never does, so elsewhere these errors are real and not retried.
 */
export const HELD_FILE_WAIT_MS = 5_000;

const HELD_CODES: ReadonlySet<string> = new Set(['EPERM', 'EBUSY', 'EACCES']);
const FIRST_PAUSE_MS = 10;
const LONGEST_PAUSE_MS = 500;

/** A file another program kept open for longer than `HELD_FILE_WAIT_MS`. */
export class HeldFileError extends Error {
  readonly code: string | undefined;

  constructor(
    readonly file: string,
    waitedMs: number,
    cause: unknown,
  ) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    super(
      `${file} is held open by another program (${code ?? 'locked'}); gave up after ${waitedMs} ms of retrying.`,
      { cause },
    );
    this.name = 'HeldFileError';
    this.code = code;
  }
}

export interface HeldFileWait {
  readonly platform?: Platform;
  /** The longest total wait (default `HELD_FILE_WAIT_MS`). */
  readonly waitMs?: number;
}

/** Renames `from` over `to`, waiting on Windows while another program holds either (see `HELD_FILE_WAIT_MS`). */
export function renameWhenFree(from: string, to: string, wait: HeldFileWait = {}): Promise<void> {
  const platform = wait.platform ?? hostPlatform();
  return whenFree(to, () => platform.disk.rename(from, to), platform, wait.waitMs);
}

/** Deletes `file` if it is there, waiting on Windows while another program holds it. */
export function removeWhenFree(file: string, wait: HeldFileWait = {}): Promise<void> {
  const platform = wait.platform ?? hostPlatform();
  return whenFree(file, () => platform.disk.rm(file, { force: true }), platform, wait.waitMs);
}

async function whenFree(
  file: string,
  operation: () => Promise<void>,
  platform: Platform,
  waitMs = HELD_FILE_WAIT_MS,
): Promise<void> {
  let waited = 0;
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    try {
      await operation();
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (platform.os !== 'win32' || code === undefined || !HELD_CODES.has(code)) {
        throw error;
      }
      if (waited >= waitMs) {
        throw new HeldFileError(file, waited, error);
      }
      const next = Math.min(pause, waitMs - waited);
      await platform.sleep(next);
      waited += next;
      pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
    }
  }
}
