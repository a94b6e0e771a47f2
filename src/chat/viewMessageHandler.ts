import { classifyError, describeErrorForLog, errorDetails } from '../core/errors';
import type { Logger } from '../core/ports';
import type { ErrorDetails } from '../core/threadTypes';
import {
  ViewMessageSchema,
  type AttachmentRef,
  type DroppedTextFile,
  type ImageAttachment,
  type ViewMessage,
} from '../protocol';
import type { ViewSlot } from './viewSlot';
import type { EditorActions } from './viewSink';

/**
 * What the chat does for a view; the controller implements it. `view` is the slot of the view that
 * asked: its chat is the one acted on, its composer the one that holds attachments.
 */
export interface ChatActions {
  viewReady(view: ViewSlot): void;
  sendFromView(
    text: string,
    attachments: readonly AttachmentRef[],
    images: readonly ImageAttachment[],
    textFiles: readonly DroppedTextFile[],
    view: ViewSlot,
  ): Promise<void>;
  cancel(view: ViewSlot): Promise<void>;
  answerPermission(key: string, optionId: string | null, view: ViewSlot): void;
  selectAgent(agentId: string, view: ViewSlot): Promise<void>;
  setMode(modeId: string, view: ViewSlot): Promise<void>;
  setConfigOption(configId: string, value: string | boolean, view: ViewSlot): Promise<void>;
  authenticate(methodId: string, view: ViewSlot): Promise<void>;
  restart(view: ViewSlot): Promise<void>;
  newChat(view: ViewSlot): Promise<void>;
  switchChat(chatId: string, view: ViewSlot): Promise<void>;
  renameChat(chatId: string, title: string): Promise<void>;
  deleteChat(chatId: string): Promise<void>;
  startFresh(view: ViewSlot): Promise<void>;
  retry(view: ViewSlot): Promise<void>;
  removeAttachment(uri: string, view: ViewSlot): void;
  answerReview(id: string, decision: 'keep' | 'undo'): void;
  turnChanges(
    turnId: string,
    action: 'diff' | 'keep' | 'undo',
    path: string | undefined,
    view: ViewSlot,
  ): Promise<void>;
  restoreCheckpoint(turnId: string, view: ViewSlot): Promise<void>;
  fixProblems(turnId: string, view: ViewSlot): Promise<void>;
  dismissProblems(view: ViewSlot): void;
  /** The @-mention picker asked for entries matching `query`; answered with `mention_results`. */
  queryMentions(query: string, requestId: number, view: ViewSlot): Promise<void>;
  /** The paperclip: attach files the user picks in the editor's dialog. */
  pickFiles(view: ViewSlot): Promise<void>;
}

/**
 * The view protocol's entry point: parses each message from the webview (it is untrusted input),
 * routes it to the chat, and turns a failure into a logged error the view shows.
 */
export class ViewMessageHandler {
  constructor(
    private readonly chat: ChatActions,
    private readonly editor: EditorActions,
    private readonly logger: Logger,
    /**
     * Shows an error in the view that sent the message; `details` when the failure came from the agent
     * (its code and data), for the alert's Details.
     */
    private readonly showError: (message: string, view: ViewSlot, details?: ErrorDetails) => void,
    /** Resolves once the chat can act (its journal was read). */
    private readonly ready: Promise<void>,
  ) {}

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
    try {
      await this.ready;
      await this.dispatch(parsed.data, view);
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

  private async dispatch(message: ViewMessage, view: ViewSlot): Promise<void> {
    const chat = this.chat;
    switch (message.type) {
      case 'ready':
        return chat.viewReady(view);
      case 'send':
        return chat.sendFromView(
          message.text,
          message.attachments ?? [],
          message.images ?? [],
          message.textFiles ?? [],
          view,
        );
      case 'cancel':
        return chat.cancel(view);
      case 'answer_permission':
        return chat.answerPermission(message.key, message.optionId, view);
      case 'select_agent':
        return chat.selectAgent(message.agentId, view);
      case 'set_mode':
        return chat.setMode(message.modeId, view);
      case 'set_config_option':
        return chat.setConfigOption(message.configId, message.value, view);
      case 'open_file':
        return this.editor.openFile(message.path, message.line);
      case 'open_url':
        return this.editor.openUrl(message.url);
      case 'authenticate':
        return chat.authenticate(message.methodId, view);
      case 'restart_agent':
        return chat.restart(view);
      case 'new_chat':
        return chat.newChat(view);
      case 'switch_chat':
        return chat.switchChat(message.chatId, view);
      case 'rename_chat':
        return chat.renameChat(message.chatId, message.title);
      case 'delete_chat':
        return chat.deleteChat(message.chatId);
      case 'start_fresh':
        return chat.startFresh(view);
      case 'retry':
        return chat.retry(view);
      case 'check_agents':
        return this.editor.checkAgents();
      case 'add_agent':
        return this.editor.addAgent?.();
      case 'remove_attachment':
        return chat.removeAttachment(message.uri, view);
      case 'answer_review':
        return chat.answerReview(message.id, message.decision);
      case 'turn_changes':
        return chat.turnChanges(message.turnId, message.action, message.path, view);
      case 'restore_checkpoint':
        return chat.restoreCheckpoint(message.turnId, view);
      case 'fix_problems':
        return chat.fixProblems(message.turnId, view);
      case 'dismiss_problems':
        return chat.dismissProblems(view);
      case 'mention_query':
        return chat.queryMentions(message.query, message.requestId, view);
      case 'pick_files':
        return chat.pickFiles(view);
      default: {
        const unknown: never = message;
        throw new Error(`Unhandled view message ${JSON.stringify(unknown)}`);
      }
    }
  }
}
