import type { Disposable } from '../../../core/disposable';
import type { Thread } from '../../../core/thread';

/** A turn running in this window: which chat, on which workspace folders, since when. */
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

/**
 * The turns running now in this window, per workspace folder (owned by the workspace service). Undo, Undo
 * all and Restore ask it whether another chat's agent may be writing the same folder at this moment —
 * putting files back under a running agent races with it, so the user is asked first, with that chat named.
 */
export class RunningTurns {
  private readonly running = new Set<RunningTurn>();

  /** Registers a turn that started; disposing the handle says it ended. */
  start(turn: RunningTurn): Disposable {
    this.running.add(turn);
    return { dispose: () => this.running.delete(turn) };
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

  /** The running turns of chats other than `chat` on any of `folders`, oldest first. */
  othersOn(chat: object, folders: Iterable<string>): RunningTurn[] {
    const wanted = new Set(folders);
    return [...this.running]
      .filter((turn) => turn.chat !== chat && turn.folders.some((folder) => wanted.has(folder)))
      .sort((a, b) => a.since - b.since);
  }
}
