import { mkdir, readdir, unlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as z from 'zod/mini';
import type { Disposable } from '../../../core/util/disposable';
import type { Thread } from '../../../core/thread/thread';
import { processRuns } from '../../../core/connection/processRuns';
import { readRegularFile } from '../core/fileContent';

/** What another window's file may weigh: ours are well under (a title and the folders' paths). */
const MAX_SHARED_TURN_BYTES = 1024 * 1024;

/** How many files of the shared folder one look reads (each window writes one per running turn). */
export const MAX_SHARED_TURN_FILES = 256;

/** A turn running now: which chat, on which workspace folders, since when. */
export interface RunningTurn {
  /** The chat's thread (identity: one registration per running turn of a chat). */
  readonly chat: object;
  readonly turnId: string;
  /** The chat's title as the user reads it now (it may change while the turn runs). */
  readonly title: () => string;
  /** The workspace folders (absolute) the turn's agent may write in. */
  readonly folders: readonly string[];
  /** When the turn started (ms since the epoch). */
  readonly since: number;
}

/** What another window writes about its running turn (read back untrusted: it may be torn or stale). */
const SharedTurn = z.object({
  pid: z.number().check(z.int(), z.positive()),
  title: z.string().check(z.maxLength(500)),
  folders: z.array(z.string()).check(z.maxLength(100)),
  since: z.number(),
});

/**
 * The turns running now, per workspace folder (owned by the workspace service). Undo, Undo all and Restore
 * ask it whether another chat's agent may be writing the same folder at this moment — putting files back
 * under a running agent races with it, so the user is asked first, with that chat named. Other windows on
 * the same workspace are seen through small files in the shared storage (one per running turn, removed
 * when it ends; a file whose process is gone is stale and removed).
 */
export class RunningTurns {
  private readonly running = new Set<RunningTurn>();
  private shared: string | undefined;
  private sequence = 0;
  /** The files being written or removed now. */
  private readonly pending = new Set<Promise<unknown>>();

  /** Shares this window's running turns with the other windows using `dir` (the workspace's storage). */
  shareIn(dir: string): void {
    this.shared = dir;
  }

  /**
   * Registers a turn that started; disposing the handle says it ended. Its file for the other windows is
   * written and removed off the thread (a Send's turn starts here, before its prompt goes out; the storage
   * may be a slow disk): for the few milliseconds a write takes, another window does not see the turn yet.
   */
  start(turn: RunningTurn): Disposable {
    this.running.add(turn);
    const file = this.track(this.publish(turn));
    return {
      dispose: () => {
        this.running.delete(turn);
        void this.track(file.then((written) => written !== undefined && unlink(written).catch(() => false)));
      },
    };
  }

  /** Resolves once the files written or removed so far are (what a test, or a process about to exit, waits for). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) {
      await Promise.all(this.pending);
    }
  }

  /** Registers turn `turnId` of `thread` until it ends (or the handle is disposed). */
  follow(thread: Thread, turnId: string, title: () => string, folders: readonly string[]): Disposable {
    const registered = this.start({ chat: thread, turnId, title, folders, since: Date.now() });
    const ended = thread.onEvent((event) => {
      if (event.type === 'turn_ended' && event.turn.id === turnId) {
        handle.dispose();
      }
    });
    const handle: Disposable = {
      dispose: () => {
        registered.dispose();
        ended.dispose();
      },
    };
    return handle;
  }

  /** The running turns of chats other than `chat` on any of `folders` (other windows' too), oldest first. */
  async othersOn(chat: object, folders: Iterable<string>): Promise<RunningTurn[]> {
    const wanted = new Set(folders);
    return [...this.running, ...(await this.otherWindows())]
      .filter((turn) => turn.chat !== chat && turn.folders.some((folder) => wanted.has(folder)))
      .sort((a, b) => a.since - b.since);
  }

  /** Writes `turn` for the other windows to see; its file, or undefined when there is no shared storage. */
  private async publish(turn: RunningTurn): Promise<string | undefined> {
    if (this.shared === undefined) {
      return undefined;
    }
    const file = path.join(this.shared, `${process.pid}-${++this.sequence}.json`);
    const entry = {
      pid: process.pid,
      title: turn.title().slice(0, 500),
      folders: turn.folders,
      since: turn.since,
    };
    try {
      await mkdir(this.shared, { recursive: true });
      // Made new, never opened if something is there already: a FIFO put in its place would hold the write.
      await writeFile(file, JSON.stringify(entry), { flag: 'wx' });
      return file;
    } catch {
      return undefined; // storage not writable: this window's own turns are still known here
    }
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
    return work;
  }

  /** The turns other processes published that are still running (their process lives). */
  private async otherWindows(): Promise<RunningTurn[]> {
    if (this.shared === undefined) {
      return [];
    }
    const shared = this.shared;
    const names = await readdir(shared).catch(() => [] as string[]);
    const files = names.filter((name) => name.endsWith('.json')).slice(0, MAX_SHARED_TURN_FILES);
    const read = await Promise.all(files.map(async (name) => otherWindowTurn(shared, name)));
    return read.filter((turn): turn is RunningTurn => turn !== undefined);
  }
}

/**
 * The turn another window wrote in `dir/name`, if that window still runs; a file whose process is gone is
 * removed. Read untrusted: never blocking (a FIFO in its place), bounded, and torn or foreign files are
 * neither counted nor removed.
 */
async function otherWindowTurn(dir: string, name: string): Promise<RunningTurn | undefined> {
  const file = path.join(dir, name);
  let parsed: z.infer<typeof SharedTurn>;
  try {
    const result = SharedTurn.safeParse(
      JSON.parse((await readRegularFile(file, MAX_SHARED_TURN_BYTES)).toString('utf8')),
    );
    if (!result.success) {
      return undefined; // being written, or not ours to judge: never blocks, never removed
    }
    parsed = result.data;
  } catch {
    return undefined;
  }
  if (parsed.pid === process.pid) {
    return undefined; // this window's own turns are in memory
  }
  if (!processRuns(parsed.pid)) {
    await unlink(file).catch(() => undefined); // that window is gone without saying its turn ended
    return undefined;
  }
  const title = `${parsed.title} (in another window)`;
  return { chat: {}, turnId: name, title: () => title, folders: parsed.folders, since: parsed.since };
}
