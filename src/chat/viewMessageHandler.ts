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
import type { EditorActions } from './viewSink';

/** What the chat does for its view; the controller implements it. */
export interface ChatActions {
  viewReady(): void;
  sendFromView(
    text: string,
    attachments: readonly AttachmentRef[],
    images: readonly ImageAttachment[],
    textFiles?: readonly DroppedTextFile[],
  ): Promise<void>;
  cancel(): Promise<void>;
  answerPermission(key: string, optionId: string | null): void;
  selectAgent(agentId: string): Promise<void>;
  setMode(modeId: string): Promise<void>;
  setConfigOption(configId: string, value: string | boolean): Promise<void>;
  authenticate(methodId: string): Promise<void>;
  restart(): Promise<void>;
  newChat(): Promise<void>;
  switchChat(chatId: string): Promise<void>;
  renameChat(chatId: string, title: string): Promise<void>;
  deleteChat(chatId: string): Promise<void>;
  startFresh(): Promise<void>;
  retry(): Promise<void>;
  removeAttachment(uri: string): void;
  answerReview(id: string, decision: 'keep' | 'undo'): void;
  turnChanges(turnId: string, action: 'diff' | 'keep' | 'undo', path?: string): Promise<void>;
  restoreCheckpoint(turnId: string): Promise<void>;
  fixProblems(turnId: string): Promise<void>;
  dismissProblems(): void;
  /** The @-mention picker asked for entries matching `query`; answered with `mention_results`. */
  queryMentions(query: string, requestId: number): Promise<void>;
  /** The paperclip: attach files the user picks in the editor's dialog. */
  pickFiles(): Promise<void>;
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
    /** `details` when the failure came from the agent (its code and data), for the alert's Details. */
    private readonly showError: (message: string, details?: ErrorDetails) => void,
    /** Resolves once the chat can act (its journal was read). */
    private readonly ready: Promise<void>,
  ) {}

  /** Handles one message; a malformed one is logged and answered with an error. */
  async handle(raw: unknown): Promise<void> {
    const parsed = ViewMessageSchema.safeParse(raw);
    if (!parsed.success) {
      const problem = parsed.error.issues
        .map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`)
        .join('; ');
      this.logger.warn(`Ignored an invalid message from the chat view (${problem})`);
      this.showError(`The chat view sent an invalid message (${problem}).`);
      return;
    }
    try {
      await this.ready;
      await this.dispatch(parsed.data);
    } catch (error) {
      const failure = classifyError(error);
      this.logger.error(`${parsed.data.type} failed: ${describeErrorForLog(failure)}`);
      const details = errorDetails(failure);
      // Details only when the agent said more than the message: its code or data.
      this.showError(
        failure.message,
        details.code !== undefined || details.data !== undefined ? details : undefined,
      );
    }
  }

  private async dispatch(message: ViewMessage): Promise<void> {
    const chat = this.chat;
    switch (message.type) {
      case 'ready':
        return chat.viewReady();
      case 'send':
        return chat.sendFromView(
          message.text,
          message.attachments ?? [],
          message.images ?? [],
          message.textFiles ?? [],
        );
      case 'cancel':
        return chat.cancel();
      case 'answer_permission':
        return chat.answerPermission(message.key, message.optionId);
      case 'select_agent':
        return chat.selectAgent(message.agentId);
      case 'set_mode':
        return chat.setMode(message.modeId);
      case 'set_config_option':
        return chat.setConfigOption(message.configId, message.value);
      case 'open_file':
        return this.editor.openFile(message.path, message.line);
      case 'open_url':
        return this.editor.openUrl(message.url);
      case 'authenticate':
        return chat.authenticate(message.methodId);
      case 'restart_agent':
        return chat.restart();
      case 'new_chat':
        return chat.newChat();
      case 'switch_chat':
        return chat.switchChat(message.chatId);
      case 'rename_chat':
        return chat.renameChat(message.chatId, message.title);
      case 'delete_chat':
        return chat.deleteChat(message.chatId);
      case 'start_fresh':
        return chat.startFresh();
      case 'retry':
        return chat.retry();
      case 'check_agents':
        return this.editor.checkAgents();
      case 'remove_attachment':
        return chat.removeAttachment(message.uri);
      case 'answer_review':
        return chat.answerReview(message.id, message.decision);
      case 'turn_changes':
        return chat.turnChanges(message.turnId, message.action, message.path);
      case 'restore_checkpoint':
        return chat.restoreCheckpoint(message.turnId);
      case 'fix_problems':
        return chat.fixProblems(message.turnId);
      case 'dismiss_problems':
        return chat.dismissProblems();
      case 'mention_query':
        return chat.queryMentions(message.query, message.requestId);
      case 'pick_files':
        return chat.pickFiles();
      default: {
        const unknown: never = message;
        throw new Error(`Unhandled view message ${JSON.stringify(unknown)}`);
      }
    }
  }
}
