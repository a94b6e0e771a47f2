import type { Disposable } from '../core/util/disposable';
import type { Logger } from '../core/ports';
import type { PromptBlock } from '../core/session/promptBlocks';
import type { ThreadEvent } from '../core/thread/threadTypes';
import type { AttachmentRef, ViewMessage, ViewState } from '../protocol';
import type {
  ChatContext,
  ChatContribution,
  ChatContributionFactory,
  TurnPreparation,
} from './chatContribution';
import type { Conversation, SessionPlace } from './conversation';
import type { ViewSlot } from './viewSlot';

type ViewMessageHandler = (message: ViewMessage, view: ViewSlot) => unknown;

/**
 * The contributions of one chat controller: built from the composition root's factories, called in that
 * order. A hook that throws is logged and the others still run — one feature's bug must not stop the chat
 * showing a thread event or sending a prompt.
 */
export class ChatContributions implements Disposable {
  private readonly contributions: ChatContribution[] = [];
  private readonly handlers = new Map<string, { readonly id: string; readonly handle: ViewMessageHandler }>();

  constructor(
    private readonly logger: Logger,
    /** The view messages the base answers itself: a contribution may not take one. */
    private readonly baseMessages: ReadonlySet<ViewMessage['type']>,
  ) {}

  /** Builds each contribution with `context`; throws when two answer the same view message. */
  build(factories: readonly ChatContributionFactory[], context: ChatContext): void {
    for (const factory of factories) {
      this.add(factory(context));
    }
  }

  private add(contribution: ChatContribution): void {
    for (const [type, handle] of Object.entries(contribution.viewMessages ?? {})) {
      const taken = this.baseMessages.has(type as ViewMessage['type'])
        ? 'the chat'
        : this.handlers.get(type)?.id;
      if (taken !== undefined) {
        throw new Error(`${contribution.id} answers '${type}', which ${taken} already answers.`);
      }
      this.handlers.set(type, { id: contribution.id, handle: handle as ViewMessageHandler });
    }
    this.contributions.push(contribution);
  }

  /** The handler of a view message no base service answers (undefined: no feature here answers it). */
  handlerOf(type: ViewMessage['type']): ViewMessageHandler | undefined {
    return this.handlers.get(type)?.handle;
  }

  /** The view message types the contributions answer. */
  answered(): ReadonlySet<string> {
    return new Set(this.handlers.keys());
  }

  /** The contributions' parts of a view's full state. */
  viewState(chat: Conversation | undefined): Partial<ViewState> {
    let state: Partial<ViewState> = {};
    for (const contribution of this.contributions) {
      const part = this.guarded(contribution, 'viewState', () => contribution.viewState?.(chat));
      state = part ? { ...state, ...part } : state;
    }
    return state;
  }

  threadEvent(chat: Conversation, event: ThreadEvent): void {
    this.each('threadEvent', (c) => c.threadEvent?.(chat, event));
  }

  chatRestored(chat: Conversation): void {
    this.each('chatRestored', (c) => c.chatRestored?.(chat));
  }

  chatsDeleted(chatIds: readonly string[]): void {
    this.each('chatsDeleted', (c) => c.chatsDeleted?.(chatIds));
  }

  viewReady(view: ViewSlot): void {
    this.each('viewReady', (c) => c.viewReady?.(view));
  }

  snapshotSent(): void {
    this.each('snapshotSent', (c) => c.snapshotSent?.());
  }

  /**
   * What the contributions put on a prompt's turn, each in turn (a checkpoint is taken before the prompt goes
   * out). A failing one is logged: the prompt still goes out.
   */
  async beforePrompt(chat: Conversation, signal: AbortSignal): Promise<TurnPreparation> {
    let preparation: TurnPreparation = {};
    for (const contribution of this.contributions) {
      try {
        preparation = { ...preparation, ...(await contribution.beforePrompt?.(chat, signal)) };
      } catch (error) {
        this.logger.error(`${contribution.id} failed before a prompt: ${String(error)}`);
      }
    }
    return preparation;
  }

  /** Tells every contribution before our own write of `path`; a failure there fails the write. */
  async beforeWrite(path: string): Promise<void> {
    for (const contribution of this.contributions) {
      await contribution.beforeWrite?.(path);
    }
  }

  /** The first contribution's block for `attachment`, or undefined when none resolves its kind. */
  attachmentBlock(attachment: AttachmentRef): Promise<PromptBlock> | undefined {
    for (const contribution of this.contributions) {
      const block = contribution.attachmentBlock?.(attachment);
      if (block) {
        return block;
      }
    }
    return undefined;
  }

  /** The first contribution's place for the chat's session, or undefined: the base's. */
  sessionPlace(chat: Conversation): SessionPlace | undefined {
    for (const contribution of this.contributions) {
      const place = this.guarded(contribution, 'sessionPlace', () => contribution.sessionPlace?.(chat));
      if (place) {
        return place;
      }
    }
    return undefined;
  }

  /** The first contribution's reason to refuse a prompt to the chat now; a failing hook refuses too. */
  async promptRefusal(chat: Conversation): Promise<string | undefined> {
    for (const contribution of this.contributions) {
      try {
        const refused = await contribution.promptRefusal?.(chat);
        if (refused !== undefined) {
          return refused;
        }
      } catch (error) {
        this.logger.error(`${contribution.id} failed before a prompt: ${String(error)}`);
        return `The message was not sent: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    return undefined;
  }

  /** What the chat waits for from the user for a contribution's reason (the first that says). */
  waitingFor(chat: Conversation): string | undefined {
    for (const contribution of this.contributions) {
      const waiting = this.guarded(contribution, 'waitingFor', () => contribution.waitingFor?.(chat));
      if (waiting !== undefined) {
        return waiting;
      }
    }
    return undefined;
  }

  private each(hook: string, call: (contribution: ChatContribution) => void): void {
    for (const contribution of this.contributions) {
      this.guarded(contribution, hook, () => call(contribution));
    }
  }

  private guarded<T>(contribution: ChatContribution, hook: string, call: () => T): T | undefined {
    try {
      return call();
    } catch (error) {
      this.logger.error(`${contribution.id} failed in ${hook}: ${String(error)}`);
      return undefined;
    }
  }

  dispose(): void {
    for (const contribution of this.contributions.splice(0).reverse()) {
      this.guarded(contribution, 'dispose', () => contribution.dispose?.());
    }
    this.handlers.clear();
  }
}
