import { classifyError, describeErrorForLog, errorDetails } from '../core/connection/errors';
import type { Logger } from '../core/ports';
import type { ErrorDetails } from '../core/thread/threadTypes';
import { ViewMessageSchema, type ViewMessage } from '../protocol';
import type { ChatCollection } from './chatCollection';
import { chatOf, type ChatCommands } from './chatCommands';
import type { ChatContributions } from './chatContributions';
import { sendComposed, type ChatTurns } from './chatTurns';
import type { ComposerActions } from './composerActions';
import type { ViewSlot } from './viewSlot';
import type { EditorActions } from './viewSink';

/** The view messages the base answers itself; every other type is a contribution's (src/chat/chatContribution.ts). */
export const BASE_VIEW_MESSAGES = [
  'ready',
  'send',
  'cancel',
  'answer_permission',
  'select_agent',
  'set_mode',
  'set_config_option',
  'open_file',
  'open_url',
  'authenticate',
  'restart_agent',
  'new_chat',
  'set_chat_folder',
  'switch_chat',
  'rename_chat',
  'delete_chat',
  'retry',
  'check_agents',
  'show_log',
  'manage_trust',
  'add_agent',
  'remove_attachment',
  'pick_files',
  'open_message',
] as const satisfies readonly ViewMessage['type'][];

/**
 * The view messages that move the view to another chat only after an await (a new chat waits for the
 * journal, a delete for the agent). Messages the same view sent after one wait until it has moved (or
 * failed), so a message typed right after New Chat goes to the new chat. Switching agent or folder
 * changes the chat before any await, so messages after it are in order anyway.
 */
const MOVES_THE_VIEW: ReadonlySet<string> = new Set(['new_chat', 'switch_chat', 'delete_chat']);

type BaseViewMessage = Extract<ViewMessage, { type: (typeof BASE_VIEW_MESSAGES)[number] }>;
const baseTypes: ReadonlySet<string> = new Set(BASE_VIEW_MESSAGES);

/**
 * The services a view talks to. Each call names the slot of the view that asked: its chat is the one
 * acted on, its composer the one that holds attachments.
 */
export interface ViewServices {
  readonly chats: ChatCollection;
  readonly commands: ChatCommands;
  readonly turns: ChatTurns;
  readonly composer: ComposerActions;
  readonly editor: EditorActions;
  /** The features' view messages. */
  readonly contributions: ChatContributions;
}

/**
 * The view protocol's entry point: parses each message from the webview (it is untrusted input),
 * routes it to the base service or the contribution that answers it, and turns a failure into a logged
 * error the view shows.
 */
export class ViewMessageHandler {
  constructor(
    private readonly services: ViewServices,
    private readonly logger: Logger,
    /**
     * Shows an error in the view that sent the message; `details` when the failure came from the agent
     * (its code and data), for the alert's Details.
     */
    private readonly showError: (message: string, view: ViewSlot, details?: ErrorDetails) => void,
    /** Resolves once the chat can act (its journal was read). */
    private readonly ready: Promise<void>,
  ) {}

  /** Per view, the latest move to another chat it asked for: settles once the view has moved. */
  private readonly moving = new WeakMap<ViewSlot, Promise<void>>();

  /** Handles one message from a view showing `view`; a malformed one is logged and answered with an error. */
  async handle(raw: unknown, view: ViewSlot): Promise<void> {
    const parsed = ViewMessageSchema.safeParse(raw);
    if (!parsed.success) {
      const problem = parsed.error.issues
        .map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`)
        .join('; ');
      this.logger.warn(`Ignored an invalid message from the chat view (${problem})`);
      this.showError(`The chat view sent an invalid message (${problem}).`, view);
      return;
    }
    const earlierMove = this.moving.get(view);
    const dispatched = this.dispatchAfter(earlierMove, parsed.data, view);
    if (MOVES_THE_VIEW.has(parsed.data.type)) {
      this.moving.set(view, moved(view, earlierMove, dispatched));
    }
    try {
      await dispatched;
    } catch (error) {
      const failure = classifyError(error);
      this.logger.error(`${parsed.data.type} failed: ${describeErrorForLog(failure)}`);
      const details = errorDetails(failure);
      // Details only when the agent said more than the message: its code or data.
      this.showError(
        failure.message,
        view,
        details.code !== undefined || details.data !== undefined ? details : undefined,
      );
    }
  }

  private async dispatchAfter(
    earlierMove: Promise<void> | undefined,
    message: ViewMessage,
    view: ViewSlot,
  ): Promise<void> {
    await this.ready;
    await earlierMove;
    await this.dispatch(message, view);
  }

  private async dispatch(message: ViewMessage, view: ViewSlot): Promise<void> {
    if (isBaseMessage(message)) {
      return this.dispatchBase(message, view);
    }
    const handle = this.services.contributions.handlerOf(message.type);
    if (!handle) {
      throw new Error(`That is not available here (${message.type}).`);
    }
    await handle(message, view);
  }

  private async dispatchBase(message: BaseViewMessage, view: ViewSlot): Promise<void> {
    const { commands, turns, composer } = this.services;
    switch (message.type) {
      case 'ready':
        return turns.viewReady(view);
      case 'send':
        return sendComposed(turns, message, view);
      case 'cancel':
        return turns.cancel(view);
      case 'answer_permission':
        return turns.answerPermission(message.key, message.optionId, view);
      case 'select_agent':
        return commands.selectAgent(message.agentId, view);
      case 'set_mode':
        return turns.setMode(message.modeId, view);
      case 'set_config_option':
        return turns.setConfigOption(message.configId, message.value, view);
      case 'authenticate':
        return turns.authenticate(message.methodId, view);
      case 'retry':
        return turns.retry(view);
      case 'restart_agent':
        return commands.restart(view);
      case 'new_chat':
        return commands.newChat(view);
      case 'set_chat_folder':
        return commands.setFolder(message.folder, view);
      case 'switch_chat':
        return commands.switchChat(message.chatId, view);
      case 'rename_chat':
        return commands.renameChat(message.chatId, message.title);
      case 'delete_chat':
        return commands.deleteChat(message.chatId, message.onAgent ? { onAgent: true } : {});
      case 'remove_attachment':
        return composer.removeAttachment(message.uri, view);
      case 'pick_files':
        return composer.pickFiles(view);
      default:
        return this.dispatchEditor(message, view);
    }
  }

  /** The messages the editor answers: opening files, pages, messages, the doctor, the log, trust, Add Agent. */
  private async dispatchEditor(
    message: Extract<BaseViewMessage, { type: EditorMessageType }>,
    view: ViewSlot,
  ): Promise<void> {
    const { editor } = this.services;
    switch (message.type) {
      case 'open_file':
        return editor.openFile(message.path, message.line);
      case 'open_url':
        return editor.openUrl(message.url);
      case 'check_agents':
        return editor.checkAgents();
      case 'show_log':
        return editor.showLog?.();
      case 'manage_trust':
        return editor.manageTrust();
      case 'add_agent':
        return editor.addAgent?.();
      case 'open_message':
        return this.openMessage(message.entryId, view);
      default: {
        const unknown: never = message;
        throw new Error(`Unhandled view message ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** "Open the whole message": the view's chat's message `entryId` as the thread (and journal) hold it. */
  private async openMessage(entryId: string, view: ViewSlot): Promise<void> {
    const entry = chatOf(this.services.chats, view).thread.entry(entryId);
    if (!entry || entry.kind === 'tool_call') {
      throw new Error('That message is no longer in the chat.');
    }
    await this.services.editor.openReadOnly?.(`Message ${entryId}.md`, entry.text);
  }
}

type EditorMessageType =
  'open_file' | 'open_url' | 'check_agents' | 'show_log' | 'manage_trust' | 'add_agent' | 'open_message';

function isBaseMessage(message: ViewMessage): message is BaseViewMessage {
  return baseTypes.has(message.type);
}

/** Settles when the view shows another chat after `earlierMove`, or when the move's dispatch settles (it failed, or stayed). */
async function moved(view: ViewSlot, earlierMove: Promise<void> | undefined, dispatched: Promise<void>): Promise<void> {
  await earlierMove;
  await new Promise<void>((resolve) => {
    const subscription = view.onDidChangeChat(() => done());
    const done = (): void => {
      subscription.dispose();
      resolve();
    };
    dispatched.then(done, done);
  });
}
