import type { Disposable } from '../core/util/disposable';
import { ChatJournal, type JournalDamage, type Retention } from '../core/journal/journal';
import type { Logger } from '../core/ports';
import { Thread, type ThreadLimits } from '../core/thread/thread';
import type { Notice, ThreadEvent } from '../core/thread/threadTypes';
import { Conversation, type ChatStart, type ConversationDeps } from './conversation';

export interface ChatStoreOptions {
  readonly storageDir: string;
  readonly logger: Logger;
  readonly threadLimits?: Partial<ThreadLimits>;
  readonly retention: () => Retention;
  /** What a prompt's turn carries from the chat's contributions (a checkpoint before it). */
  readonly beforePrompt?: ConversationDeps['beforePrompt'];
}

/** What the store tells its owner about its chats. */
export interface ChatStoreListener {
  onEvent(chat: Conversation, event: ThreadEvent): void;
  /** A chat's title, running state or resume problem changed. */
  onChange(chat: Conversation): void;
  /** Retention deleted these chats. */
  onDeleted(chatIds: readonly string[]): void;
  /** A chat was read back from the journal. */
  onRestored(chat: Conversation): void;
}

/**
 * The chats: read back from the journal at start, created, deleted, and kept within the
 * retention limits (the chat in use is never the one deleted).
 */
export class ChatCollection implements Disposable {
  private readonly chats = new Map<string, Conversation>();
  private readonly subscriptions = new Map<string, Disposable>();
  private readonly journal: ChatJournal;
  /** Chats whose journal was damaged when read back: what to tell the user, by chat id. */
  private readonly damage = new Map<string, Notice>();

  constructor(
    private readonly options: ChatStoreOptions,
    private readonly listener: ChatStoreListener,
  ) {
    this.journal = new ChatJournal(options.storageDir);
  }

  /** Reads every journaled chat (after applying retention). Failures are logged: a broken journal must not block the chat. */
  async restore(): Promise<void> {
    try {
      await this.journal.enforce(this.options.retention());
      for (const saved of await this.journal.readAll()) {
        if (saved.damage) {
          const notice = damageNotice(saved.damage);
          this.damage.set(saved.meta.chatId, notice);
          this.options.logger.warn(`Chat ${saved.meta.chatId}: ${notice.title} ${notice.description ?? ''}`);
        }
        const thread = Thread.restore(saved.thread, this.options.threadLimits);
        const chat = Conversation.restore(saved.meta, thread, this.deps());
        this.adopt(chat);
        this.listener.onRestored(chat);
      }
    } catch (error) {
      this.options.logger.error(`Could not read the chat journal: ${String(error)}`);
    }
  }

  /** The notice for a chat whose journal could not be read whole (never silent about lost history). */
  damageNotice(chatId: string): Notice | undefined {
    return this.damage.get(chatId);
  }

  get(chatId: string): Conversation | undefined {
    return this.chats.get(chatId);
  }

  /** Every chat, most recently used first. */
  sorted(): Conversation[] {
    return [...this.chats.values()].sort((a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt);
  }

  /** A new chat (empty, or with the start given: a fork's); retention runs once it is in the journal. */
  create(agentId: string, start?: ChatStart): Conversation {
    const { chat, saved } = Conversation.create(ChatJournal.newChatId(), agentId, this.deps(), start);
    this.adopt(chat);
    void saved
      .then(() => this.journal.enforce(this.options.retention(), new Set([chat.id])))
      .then((deleted) => {
        for (const id of deleted) {
          this.forget(id);
        }
        if (deleted.length > 0) {
          this.listener.onDeleted(deleted);
        }
      })
      .catch((error: unknown) => this.options.logger.error(`Retention failed: ${String(error)}`));
    return chat;
  }

  /** Deletes a chat and its journal. */
  async delete(chatId: string): Promise<void> {
    this.forget(chatId);
    await this.journal.delete(chatId);
  }

  /**
   * The window closes: writes everything pending to the journal, then nothing more. The chats' pending
   * events are handed to the journal first (what comes meanwhile goes with them), then it closes and its
   * writes in flight are awaited.
   */
  async close(): Promise<void> {
    await Promise.all([...this.chats.values()].map((chat) => chat.flush()));
    this.journal.close();
    await this.journal.flush();
  }

  private adopt(chat: Conversation): void {
    this.chats.set(chat.id, chat);
    const events = chat.thread.onEvent((event) => this.listener.onEvent(chat, event));
    const changes = chat.onDidChange(() => this.listener.onChange(chat));
    this.subscriptions.set(chat.id, { dispose: () => (events.dispose(), changes.dispose()) });
  }

  private forget(chatId: string): void {
    this.damage.delete(chatId);
    this.subscriptions.get(chatId)?.dispose();
    this.subscriptions.delete(chatId);
    this.chats.get(chatId)?.dispose();
    this.chats.delete(chatId);
  }

  /** The limits a chat's thread is made with (a fork's too). */
  get threadLimits(): Partial<ThreadLimits> | undefined {
    return this.options.threadLimits;
  }

  private deps(): ConversationDeps {
    return {
      journal: this.journal,
      logger: this.options.logger,
      ...(this.options.threadLimits ? { threadLimits: this.options.threadLimits } : {}),
      ...(this.options.beforePrompt ? { beforePrompt: this.options.beforePrompt } : {}),
    };
  }

  dispose(): void {
    for (const chatId of [...this.chats.keys()]) {
      this.forget(chatId);
    }
    // After the chats' last flushes were queued: the locks go once the window does.
    void this.journal.flush().finally(() => this.journal.dispose());
  }
}

function damageNotice(damage: JournalDamage): Notice {
  const parts = [
    damage.unreadableLines > 0
      ? `${damage.unreadableLines} unreadable line${damage.unreadableLines === 1 ? ' was' : 's were'} skipped`
      : '',
    damage.rebuiltEntries > 0
      ? `${damage.rebuiltEntries} message${damage.rebuiltEntries === 1 ? ' was' : 's were'} rebuilt from what followed and may be incomplete`
      : '',
    damage.snapshotFromPrevious ? 'the history was taken from the journal before its last compaction' : '',
  ].filter(Boolean);
  return {
    severity: 'warning',
    title: 'Part of this chat could not be read.',
    description: `Its journal is damaged: ${parts.join('; ')}. Everything readable is shown.`,
  };
}
