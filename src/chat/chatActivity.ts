import { systemClock, type Clock } from '../core/util/clock';
import { Emitter, type Disposable, type Event } from '../core/util/disposable';
import type { ThreadEvent } from '../core/thread/threadTypes';
import type { ChatActivityState } from '../protocol';
import type { Conversation } from './conversation';

/** What the chat's activity asks of the rest of the chat. */
export interface ActivitySources {
  /** Whether a view showing the chat is on the user's screen now. */
  onScreen(chatId: string): boolean;
  /** What the chat waits for from the user for a contribution's reason, or a sign-in. */
  waitingFor(chat: Conversation): string | undefined;
  /** A chat (its id) started or stopped waiting for a sign-in. */
  readonly signIns: Event<string>;
  chat(chatId: string): Conversation | undefined;
  /** When a turn has run long enough to be shown as running (default: Node's timers). */
  readonly clock?: Clock;
}

/**
 * How long a chat runs before it shows as running outside its view (list, titles, status bar). A short turn
 * ("ping", a quick answer) ends first and changes nothing there: each of those updates is a trip through
 * VS Code's window that delays the answer itself, and a spinner that flashes for a moment says nothing.
 */
export const RUNNING_SHOWN_AFTER_MS = 500;

/** A chat's status changed (from `previous`). */
export interface ActivityChange {
  readonly chat: Conversation;
  readonly state: ChatActivityState | undefined;
  readonly previous: ChatActivityState | undefined;
  /** For `waiting`: what for, in the user's words ("permission to Edit README.md"). */
  readonly detail?: string;
}

/** Per chat: what is known from its thread's events. */
interface Tracked {
  /** Permission requests of the running turn waiting for an answer, by key, with their tool's title. */
  readonly permissions: Map<string, string>;
  /** The last ended turn the user had on screen (a later ended one is unread). */
  seenTurn: string | undefined;
  state?: ChatActivityState;
  /** Set while a new run waits RUNNING_SHOWN_AFTER_MS to be shown; `due` once that time has passed. */
  runningShown?: { readonly timer: Disposable; due: boolean };
}

/**
 * What every chat is doing, as the user needs to know without opening each one: `running`, `waiting`
 * for the user (a permission, an agent's question, a sign-in), `unread` (a turn ended while the chat was
 * not on screen) or `failed` (its turn failed off screen) — for the chat list, the editor tabs, the view's
 * badge, the status bar and the notifications. Kept from the thread's events and the seen chats alone:
 * nothing polled, so ten idle chats cost nothing (one timer per run, until it shows as running). A chat read
 * back after a reload starts read.
 */
export class ChatActivity implements Disposable {
  private readonly tracked = new Map<string, Tracked>();
  private readonly changeEmitter = new Emitter<ActivityChange>();
  /** A chat's status changed. */
  readonly onDidChange = this.changeEmitter.event;
  private readonly signIns: Disposable;

  constructor(private readonly sources: ActivitySources) {
    this.signIns = sources.signIns((chatId) => this.changed(chatId));
  }

  /** Something the status reads of chat `chatId` changed (a sign-in, what a contribution waits for). */
  changed(chatId: string): void {
    const chat = this.sources.chat(chatId);
    if (chat) {
      this.update(chat);
    }
  }

  /** The chat's status now (undefined: idle and seen). */
  state(chatId: string): ChatActivityState | undefined {
    return this.tracked.get(chatId)?.state;
  }

  /** How many chats are in each status. */
  counts(): Record<ChatActivityState, number> {
    const counts: Record<ChatActivityState, number> = { running: 0, waiting: 0, unread: 0, failed: 0 };
    for (const tracked of this.tracked.values()) {
      if (tracked.state !== undefined) {
        counts[tracked.state]++;
      }
    }
    return counts;
  }

  /** A thread event of `chat`: its permissions waiting and its ends are noted, its status worked out again. */
  threadEvent(chat: Conversation, event: ThreadEvent): void {
    const tracked = this.of(chat);
    if (event.type === 'turn_started' || event.type === 'turn_ended') {
      tracked.permissions.clear();
    } else if (
      (event.type === 'entry_added' || event.type === 'entry_updated') &&
      event.entry.kind === 'tool_call'
    ) {
      const permission = event.entry.permission;
      if (permission?.status === 'pending') {
        tracked.permissions.set(permission.key, event.entry.title);
      } else if (permission) {
        tracked.permissions.delete(permission.key);
      }
    } else {
      return; // text and state updates change nothing here: streaming costs no status work
    }
    this.update(chat);
  }

  /** Works the chat's status out again (its running state, or what a contribution waits for, changed). */
  update(chat: Conversation): void {
    const tracked = this.of(chat);
    const previous = tracked.state;
    const last = chat.thread.lastTurn;
    const ended = last !== undefined && last.status !== 'running' ? last : undefined;
    if (ended && this.sources.onScreen(chat.id)) {
      tracked.seenTurn = ended.id;
    }
    const waiting = this.waitingFor(chat, tracked);
    const state: ChatActivityState | undefined =
      waiting !== undefined
        ? 'waiting'
        : chat.running
          ? 'running'
          : ended && ended.id !== tracked.seenTurn
            ? ended.status === 'failed' || ended.status === 'interrupted'
              ? 'failed'
              : 'unread'
            : undefined;
    if (state === 'running' && previous === undefined && !this.runningIsDue(chat, tracked)) {
      return;
    }
    if (state !== 'running') {
      tracked.runningShown?.timer.dispose();
      tracked.runningShown = undefined;
    }
    if (state !== previous) {
      tracked.state = state;
      this.changeEmitter.fire({
        chat,
        state,
        previous,
        ...(waiting === undefined ? {} : { detail: waiting }),
      });
    }
  }

  /**
   * Whether a chat that was idle and now runs has run RUNNING_SHOWN_AFTER_MS: the first time asked, a
   * timer starts that works the status out again when that time has passed (if the chat still runs).
   */
  private runningIsDue(chat: Conversation, tracked: Tracked): boolean {
    if (tracked.runningShown === undefined) {
      const shown = {
        due: false,
        timer: (this.sources.clock ?? systemClock).after(RUNNING_SHOWN_AFTER_MS, () => {
          shown.due = true;
          if (this.tracked.get(chat.id) === tracked && tracked.runningShown === shown) {
            this.update(chat);
          }
        }),
      };
      tracked.runningShown = shown;
    }
    return tracked.runningShown.due;
  }

  /** The chats now on screen were seen: a finished or failed turn there is read. */
  seen(chats: Iterable<Conversation>): void {
    for (const chat of chats) {
      const state = this.tracked.get(chat.id)?.state;
      if ((state === 'unread' || state === 'failed') && this.sources.onScreen(chat.id)) {
        this.update(chat);
      }
    }
  }

  /** What the chat waits for from the user, in words, or undefined. */
  detail(chat: Conversation): string | undefined {
    return this.waitingFor(chat, this.of(chat));
  }

  forget(chatIds: readonly string[]): void {
    for (const chatId of chatIds) {
      this.tracked.get(chatId)?.runningShown?.timer.dispose();
      this.tracked.delete(chatId);
    }
  }

  dispose(): void {
    this.signIns.dispose();
    for (const tracked of this.tracked.values()) {
      tracked.runningShown?.timer.dispose();
    }
    this.changeEmitter.dispose();
    this.tracked.clear();
  }

  private waitingFor(chat: Conversation, tracked: Tracked): string | undefined {
    const [title] = tracked.permissions.values();
    if (title !== undefined) {
      return `permission: ${title}`;
    }
    return this.sources.waitingFor(chat);
  }

  /** The chat's record; a chat first seen here (read back from the journal) has nothing unread. */
  private of(chat: Conversation): Tracked {
    let tracked = this.tracked.get(chat.id);
    if (!tracked) {
      const last = chat.thread.lastTurn;
      tracked = { permissions: new Map(), seenTurn: last?.status === 'running' ? undefined : last?.id };
      this.tracked.set(chat.id, tracked);
    }
    return tracked;
  }
}
