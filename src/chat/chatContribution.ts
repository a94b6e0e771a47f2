/**
 * The chat's contribution point. A feature (src/features/<name>/) plugs into the chat by exporting a
 * `ChatContributionFactory` from its own folder; the composition root (src/chatHost.ts) lists the
 * factories and the controller builds them with a `ChatContext`. The base calls the hooks below and
 * never names a feature — as VS Code's workbench contributions register themselves against an
 * interface the workbench owns.
 */
import type { Logger } from '../core/ports';
import type { PromptBlock } from '../core/session/promptBlocks';
import type { ThreadEvent } from '../core/thread/threadTypes';
import type { AttachmentRef, ViewMessage, ViewState } from '../protocol';
import type { AgentPool } from './agentPool';
import type { ChatActivity } from './chatActivity';
import type { ChatCollection } from './chatCollection';
import type { ChatTurns } from './chatTurns';
import type { Conversation, SessionPlace, TurnPreparation } from './conversation';
import type { SessionCoordinator } from './sessionCoordinator';
import type { ViewPresenter } from './viewPresenter';
import type { ViewSlot } from './viewSlot';

export type { TurnPreparation } from './conversation';
import type { EditorActions } from './viewSink';

/** A view message of type `T`. */
export type ViewMessageOf<T extends ViewMessage['type']> = Extract<ViewMessage, { type: T }>;

/** The view messages a contribution answers, by type; each is called with the slot of the view that asked. */
export type ViewMessageHandlers = {
  readonly [T in ViewMessage['type']]?: (message: ViewMessageOf<T>, view: ViewSlot) => unknown;
};

/** The chat as a contribution reaches it: given once, when the controller builds the contribution. */
export interface ChatContext {
  readonly chats: ChatCollection;
  readonly pool: AgentPool;
  readonly sessions: SessionCoordinator;
  /** Posts to the views (a chat's, a slot's, every one). */
  readonly presenter: ViewPresenter;
  /** Sends prompts to a view's chat. */
  readonly turns: ChatTurns;
  readonly editor: EditorActions;
  readonly logger: Logger;
  /** Resolves once the journal has been read and the chats are back. */
  readonly restored: Promise<void>;
  /** Shows chat `chatId` in `view`. */
  switchChat(chatId: string, view: ViewSlot): Promise<void>;
  /** The window's chat: the one the sidebar shows and the commands act on. */
  windowChatId(): string;
  /** The chat whose agent session is `sessionId`, when one is connected to it. */
  chatOfSession(sessionId: string): string | undefined;
  /** What a contribution says of a chat (`sessionPlace`, `waitingFor`) changed: the chat list and its status follow. */
  chatChanged(chatId: string): void;
  /** Every chat's status (running, waiting for the user, unread, failed), read by a feature that lists chats. */
  readonly activity: Pick<ChatActivity, 'state' | 'detail' | 'onDidChange'>;
}

/**
 * One feature of the chat. Every hook is optional; the base calls each contribution's hook in the order
 * the composition root listed them.
 */
export interface ChatContribution {
  /** Names the feature in logs and in a clash of view messages. */
  readonly id: string;
  /** The view messages this feature answers (no other contribution nor the base may answer them). */
  readonly viewMessages?: ViewMessageHandlers;
  /** This feature's part of a view's full state, for the view's chat (undefined before the journal is read). */
  viewState?(chat: Conversation | undefined): Partial<ViewState>;
  /** A chat's thread changed (after the thread applied `event`). */
  threadEvent?(chat: Conversation, event: ThreadEvent): void;
  /** A chat was read back from the journal (at start). */
  chatRestored?(chat: Conversation): void;
  /** Chats are gone: deleted by the user or dropped by retention. */
  chatsDeleted?(chatIds: readonly string[]): void;
  /** A view said `ready` (it got its full state). */
  viewReady?(view: ViewSlot): void;
  /** Full states went out to views: what the feature streams outside the state (terminal output) goes again. */
  snapshotSent?(): void;
  /**
   * Before a prompt goes out (after its session opened): what the turn should carry. Stop aborts `signal`;
   * the prompt then is kept as a cancelled turn.
   */
  beforePrompt?(chat: Conversation, signal: AbortSignal): Promise<TurnPreparation | undefined>;
  /** Before our own `fs/write_text_file` writes `path` (the agent's write, reviewed or not). */
  beforeWrite?(path: string): Promise<void>;
  /** The prompt block for an attachment of a kind this feature resolves (undefined: not its kind). */
  attachmentBlock?(attachment: AttachmentRef): Promise<PromptBlock> | undefined;
  /**
   * Where the chat's agent works when this feature gives the chat a folder of its own (a worktree): the
   * session's `cwd`, and the folders its files may be read and written in without asking. A hook because
   * the base places every session in a workspace folder (`SessionCoordinator.place`), which a folder of
   * the feature's, outside the workspace, never is. Undefined: the base's place.
   */
  sessionPlace?(chat: Conversation): SessionPlace | undefined;
  /**
   * Why a prompt to the chat must be refused now, for this feature's reason (its worktree is written by
   * another window, or gone). A hook because only the base sends prompts; it refuses for its own reasons
   * first (`SessionCoordinator.refusal`). Undefined: no objection.
   */
  promptRefusal?(chat: Conversation): Promise<string | undefined>;
  /**
   * What the chat waits for from the user for this feature's reason (an agent's question), shown as the
   * chat's status "waiting for you". A hook because the chat's status is the base's (the chat list, the
   * tabs, the badge); the feature announces its own wait (a notification) itself. Undefined: nothing.
   */
  waitingFor?(chat: Conversation): string | undefined;
  dispose?(): void;
}

/** Builds a contribution for one chat controller. */
export type ChatContributionFactory = (context: ChatContext) => ChatContribution;
