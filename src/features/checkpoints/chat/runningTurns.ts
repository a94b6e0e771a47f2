import { mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod/mini';
import type { Disposable } from '../../../core/util/disposable';
import type { Thread } from '../../../core/thread/thread';
import { processRuns } from '../../../core/connection/processRuns';

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

  /** Shares this window's running turns with the other windows using `dir` (the workspace's storage). */
  shareIn(dir: string): void {
    this.shared = dir;
  }

  /** Registers a turn that started; disposing the handle says it ended. */
  start(turn: RunningTurn): Disposable {
    this.running.add(turn);
    const file = this.publish(turn);
    return {
      dispose: () => {
        this.running.delete(turn);
        if (file !== undefined) {
          removeQuietly(file);
        }
      },
    };
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
  othersOn(chat: object, folders: Iterable<string>): RunningTurn[] {
    const wanted = new Set(folders);
    return [...this.running, ...this.otherWindows()]
      .filter((turn) => turn.chat !== chat && turn.folders.some((folder) => wanted.has(folder)))
      .sort((a, b) => a.since - b.since);
  }

  /** Writes `turn` for the other windows to see; its file, or undefined when there is no shared storage. */
  private publish(turn: RunningTurn): string | undefined {
    if (this.shared === undefined) {
      return undefined;
    }
    const file = path.join(this.shared, `${process.pid}-${++this.sequence}.json`);
    try {
      mkdirSync(this.shared, { recursive: true });
      const entry = {
        pid: process.pid,
        title: turn.title().slice(0, 500),
        folders: turn.folders,
        since: turn.since,
      };
      writeFileSync(file, JSON.stringify(entry));
      return file;
    } catch {
      return undefined; // storage not writable: this window's own turns are still known here
    }
  }

  /** The turns other processes published that are still running (their process lives). */
  private otherWindows(): RunningTurn[] {
    if (this.shared === undefined) {
      return [];
    }
    let names: string[];
    try {
      names = readdirSync(this.shared).filter((name) => name.endsWith('.json'));
    } catch {
      return [];
    }
    const turns: RunningTurn[] = [];
    for (const name of names) {
      const file = path.join(this.shared, name);
      let parsed: z.infer<typeof SharedTurn>;
      try {
        const result = SharedTurn.safeParse(JSON.parse(readFileSync(file, 'utf8')));
        if (!result.success) {
          continue; // being written, or not ours to judge: never blocks, never removed
        }
        parsed = result.data;
      } catch {
        continue;
      }
      if (parsed.pid === process.pid) {
        continue; // this window's own turns are in memory
      }
      if (!processRuns(parsed.pid)) {
        removeQuietly(file); // that window is gone without saying its turn ended
        continue;
      }
      const title = `${parsed.title} (in another window)`;
      turns.push({
        chat: {},
        turnId: name,
        title: () => title,
        folders: parsed.folders,
        since: parsed.since,
      });
    }
    return turns;
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}
