import type { PromptBlock } from '../core/session/promptBlocks';
import type { ThreadSnapshot } from '../core/thread/threadTypes';
import type { AttachmentRef, DroppedTextFile, ImageAttachment, ViewMessage } from '../protocol';
import type { AgentPool } from './agentPool';
import { chatOf } from './chatCommands';
import type { ChatCollection } from './chatCollection';
import { composerPrompt, type ComposerSources } from './composerContext';
import type { FileSystemPort } from '../core/ports';
import type { SessionCoordinator } from './sessionCoordinator';
import type { ViewPresenter } from './viewPresenter';
import type { ViewSlot } from './viewSlot';

export interface ChatTurnsDeps {
  readonly chats: ChatCollection;
  readonly pool: AgentPool;
  readonly sessions: SessionCoordinator;
  readonly presenter: ViewPresenter;
  readonly restored: Promise<void>;
  readonly files: FileSystemPort;
  /** Attachments of the kinds a contribution resolves (a mentioned file's problems). */
  readonly contributed?: ComposerSources['contributed'];
  /** A view said `ready` (the contributions get ready for its chat: the first checkpoint). */
  readonly viewReady?: (view: ViewSlot) => void;
}

/**
 * A view's chat talking to its agent: connecting, prompts (from the composer, a retry, a command),
 * Stop, sign-in, permission answers, and the session's mode and options.
 */
export class ChatTurns {
  constructor(private readonly deps: ChatTurnsDeps) {}

  /** The view said `ready`: it gets the full state, and its chat's agent is started. */
  viewReady(view: ViewSlot): void {
    const { presenter, pool, chats } = this.deps;
    presenter.snapshot(view);
    this.deps.viewReady?.(view);
    if (pool.status(chatOf(chats, view).agentId).state === 'idle') {
      void this.connect(view);
    }
  }

  /** Connects the view's chat (starts its agent, takes up its session); resolves whether it worked. */
  async connect(view: ViewSlot): Promise<boolean> {
    await this.deps.restored;
    return (await this.deps.sessions.connect(chatOf(this.deps.chats, view))) !== undefined;
  }

  async sendFromView(
    text: string,
    attachments: readonly AttachmentRef[],
    images: readonly ImageAttachment[],
    textFiles: readonly DroppedTextFile[],
    view: ViewSlot,
  ): Promise<void> {
    // A refused message keeps its attachments on the composer.
    const refused = this.sendRefusal(view);
    if (refused) {
      throw new Error(refused);
    }
    view.clearAttachments();
    const { chats } = this.deps;
    await this.sendPrompt(
      await composerPrompt(
        { text, attachments, images, textFiles },
        {
          files: this.deps.files,
          ...(this.deps.contributed ? { contributed: this.deps.contributed } : {}),
          chat: (id) => chats.get(id),
        },
      ),
      view,
    );
  }

  /** The view's message was not sent (the user cancelled a step before it): it goes back to its composer. */
  keepUnsent(view: ViewSlot): void {
    this.deps.presenter.postTo(view, { type: 'send_cancelled' });
  }

  /** Sends prompt blocks (text, selections, files) to the view's chat, connecting first when needed. */
  async sendPrompt(blocks: readonly PromptBlock[], view: ViewSlot): Promise<void> {
    await this.deps.restored;
    await this.deps.sessions.sendPrompt(chatOf(this.deps.chats, view), blocks);
  }

  /** The agent session of the view's chat, while it has one. */
  sessionIdOf(view: ViewSlot): string | undefined {
    return this.deps.chats.get(view.chatId)?.currentSession?.id;
  }

  /** Why a prompt to the view's chat would be refused now (a running turn, a read-only chat), if it would. */
  sendRefusal(view: ViewSlot): string | undefined {
    const chat = this.deps.chats.get(view.chatId);
    return chat && this.deps.sessions.refusal(chat);
  }

  /** Sends the last prompt of the view's chat again. */
  async retry(view: ViewSlot): Promise<void> {
    const text = lastUserText(chatOf(this.deps.chats, view).thread.snapshot());
    if (text === undefined) {
      throw new Error('There is nothing to retry.');
    }
    await this.sendPrompt([{ type: 'text', text }], view);
  }

  async cancel(view: ViewSlot): Promise<void> {
    await this.deps.chats.get(view.chatId)?.cancel();
  }

  async authenticate(methodId: string, view: ViewSlot): Promise<void> {
    await this.deps.sessions.authenticate(chatOf(this.deps.chats, view), methodId);
  }

  answerPermission(key: string, optionId: string | null, view: ViewSlot): void {
    chatOf(this.deps.chats, view).currentSession?.answerPermission(
      key,
      optionId === null ? { outcome: 'cancelled' } : { outcome: 'selected', optionId },
    );
  }

  async setMode(modeId: string, view: ViewSlot): Promise<void> {
    await (await this.deps.sessions.requireSession(chatOf(this.deps.chats, view))).setMode(modeId);
  }

  async setConfigOption(configId: string, value: string | boolean, view: ViewSlot): Promise<void> {
    const session = await this.deps.sessions.requireSession(chatOf(this.deps.chats, view));
    await session.setConfigOption(configId, value);
  }
}

/** The last prompt of an interrupted or failed turn, to send again. */
function lastUserText(snapshot: ThreadSnapshot): string | undefined {
  for (let i = snapshot.entries.length - 1; i >= 0; i--) {
    const entry = snapshot.entries[i];
    if (entry?.kind === 'user') {
      return entry.text;
    }
  }
  return undefined;
}

/** The composer's message (a send, or the resend of an edited one) handed to the view's chat's turns. */
export function sendComposed(
  turns: ChatTurns,
  message: Extract<ViewMessage, { type: 'send' | 'edit_resend' }>,
  view: ViewSlot,
): Promise<void> {
  return turns.sendFromView(
    message.text,
    message.attachments ?? [],
    message.images ?? [],
    message.textFiles ?? [],
    view,
  );
}
