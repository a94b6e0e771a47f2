import type { ChatContext, ChatContributionFactory } from '../../../chat/chatContribution';
import { chatOf } from '../../../chat/chatCommands';
import type { Conversation } from '../../../chat/conversation';
import type { ViewSlot } from '../../../chat/viewSlot';
import type { WorktreeAction, WorktreeOffer } from '../../../protocol';
import type { AgentGroups } from './agentGroups';
import type { WorktreeActions } from './worktreeActions';
import type { WorktreeChats } from './worktreeChats';

/** What the contribution needs besides the worktrees and their steps. */
export interface WorktreeOffers {
  /** Whether a chat in `folder` can start in a new worktree now, or why not (cached; undefined until known). */
  offer(folder: string): WorktreeOffer | undefined;
  /** Finds it out (once per folder), then calls `known`. */
  look(folder: string, known: () => void): void;
}

/**
 * Starts the window's (new, empty) chat in a worktree: what the "New Chat in Worktree" command needs of
 * the chat, bound when the controller builds the contribution.
 */
export class WorktreeStarter {
  private bound: { context: ChatContext; create: (chat: Conversation) => Promise<boolean> } | undefined;
  private markReady: () => void = () => undefined;
  /** Resolves once the chat is built and its chats are read back. */
  readonly ready = new Promise<void>((resolve) => {
    this.markReady = resolve;
  });

  bind(context: ChatContext, create: (chat: Conversation) => Promise<boolean>): void {
    this.bound = { context, create };
    void context.restored.then(() => this.markReady());
  }

  /** Puts the window's chat in a new worktree (it must be empty); resolves whether it was. */
  async startWindowChat(): Promise<boolean> {
    if (!this.bound) {
      throw new Error('The chat is not ready yet.');
    }
    const { context, create } = this.bound;
    await context.restored;
    const chat = context.chats.get(context.windowChatId());
    if (!chat) {
      throw new Error('The chat is not ready yet.');
    }
    const made = await create(chat);
    if (made) {
      context.presenter.snapshot();
    }
    return made;
  }

  /** Whether chat `chatId` still exists. */
  chatExists(chatId: string): boolean {
    return this.bound?.context.chats.get(chatId) !== undefined;
  }
}

/**
 * Chats in worktrees of their own: a worktree chat's session works in its worktree (`sessionPlace`),
 * its prompts are refused while another window writes the worktree or it is gone (`promptRefusal`),
 * its header shows the branch and the worktree with the steps on it (`viewState`, `worktree_action`),
 * its changes are counted after each turn, and deleting it asks what becomes of its work.
 */
export function worktreesContribution(
  worktrees: WorktreeChats,
  actions: WorktreeActions,
  offers: WorktreeOffers,
  starter?: WorktreeStarter,
  groups?: AgentGroups,
): ChatContributionFactory {
  return (context) => {
    const { presenter } = context;
    /** Titles of chats, kept so that a deleted chat can still be named when its worktree is offered. */
    const titles = new Map<string, string>();
    const changed = (chatId: string): void => {
      presenter.postToChat(chatId, {
        type: 'worktree',
        chatId,
        ...withWorktree(worktrees, chatId),
      });
      context.chatChanged(chatId);
    };
    const subscription = worktrees.onDidChange(changed);
    const folderOf = (chat: Conversation): string => context.sessions.place(chat).cwd;
    starter?.bind(context, (chat) => actions.create(chat, folderOf(chat)));
    // A group starts from the workspace folder a new chat would (never from a worktree chat's worktree).
    groups?.bind(context, () => context.sessions.folderForNewChat() ?? context.sessions.place().cwd);
    const offerFor = (chat: Conversation): WorktreeOffer | undefined => {
      if (worktrees.record(chat.id) || chat.thread.snapshot().entries.length > 0) {
        return undefined;
      }
      const folder = folderOf(chat);
      const offer = offers.offer(folder);
      if (offer === undefined) {
        offers.look(folder, () => presenter.snapshot());
      }
      return offer;
    };
    return {
      id: 'worktrees',
      sessionPlace: (chat) => worktrees.place(chat.id),
      promptRefusal: (chat) => worktrees.refusal(chat.id),
      viewState: (chat) => {
        if (!chat) {
          return {};
        }
        const worktree = worktrees.info(chat.id);
        const offer = worktree ? undefined : offerFor(chat);
        return { ...(worktree ? { worktree } : {}), ...(offer ? { worktreeOffer: offer } : {}) };
      },
      threadEvent: (chat, event) => {
        if (event.type === 'turn_ended' && worktrees.record(chat.id)) {
          void worktrees.refresh(chat.id).then(() => groups?.checkProblems(chat.id));
        }
        if (event.type === 'turn_started') {
          titles.set(chat.id, chat.title);
        }
      },
      chatRestored: (chat) => {
        titles.set(chat.id, chat.title);
      },
      chatsDeleted: (chatIds) => {
        for (const chatId of chatIds) {
          if (worktrees.record(chatId)) {
            void actions
              .chatDeleted(chatId, titles.get(chatId) ?? 'a chat')
              .catch((error: unknown) => context.logger.error(`Worktree of a deleted chat: ${String(error)}`));
          }
          titles.delete(chatId);
        }
        groups?.chatsDeleted();
      },
      viewMessages: {
        worktree_action: ({ action }, view) =>
          action === 'ask_several' ? askSeveral(groups) : act(action, view, context, actions, folderOf),
      },
      dispose: () => subscription.dispose(),
    };
  };
}

function withWorktree(worktrees: WorktreeChats, chatId: string): { worktree?: ReturnType<WorktreeChats['info']> } {
  const worktree = worktrees.info(chatId);
  return worktree ? { worktree } : {};
}

/** "Ask several agents…" from the empty chat's button. */
async function askSeveral(groups: AgentGroups | undefined): Promise<void> {
  if (!groups) {
    throw new Error('Asking several agents is not available here.');
  }
  await groups.ask();
}

/** A step the view asked for on its chat's worktree. */
async function act(
  action: Exclude<WorktreeAction, 'ask_several'>,
  view: ViewSlot,
  context: ChatContext,
  actions: WorktreeActions,
  folderOf: (chat: Conversation) => string,
): Promise<void> {
  const chat = chatOf(context.chats, view);
  switch (action) {
    case 'create':
      if (await actions.create(chat, folderOf(chat))) {
        context.presenter.snapshot(view);
      }
      return;
    case 'apply':
      await actions.apply(chat.id);
      return;
    case 'open_window':
      return actions.openWindow(chat.id);
    case 'commit':
      await actions.commit(chat.id, chat.title);
      return;
    case 'discard':
      await actions.discard(chat.id);
      return;
    case 'show_changes':
      return actions.showChanges(chat.id);
    default: {
      const unknown: never = action;
      throw new Error(`Unknown worktree action ${String(unknown)}`);
    }
  }
}
