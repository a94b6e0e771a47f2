import { classifyError, describeErrorForLog, errorDetails } from '../core/connection/errors';
import type { Logger } from '../core/ports';
import type { ErrorDetails } from '../core/thread/threadTypes';
import { ViewMessageSchema, type ViewMessage } from '../protocol';
import type { ElicitationRelay } from '../features/elicitation/chat/elicitationRelay';
import type { ChatCommands } from './chatCommands';
import type { ChatTurns } from './chatTurns';
import type { ComposerActions } from './composerActions';
import type { TurnReview } from './turnReview';
import type { ViewSlot } from './viewSlot';
import type { EditorActions } from './viewSink';

/**
 * The services a view talks to. Each call names the slot of the view that asked: its chat is the one
 * acted on, its composer the one that holds attachments.
 */
export interface ViewServices {
  readonly commands: ChatCommands;
  readonly turns: ChatTurns;
  readonly composer: ComposerActions;
  readonly review: TurnReview;
  readonly editor: EditorActions;
  /** The agents' questions (absent: elicitation is not offered, and an answer is refused). */
  readonly elicitations?: ElicitationRelay;
}

/**
 * The view protocol's entry point: parses each message from the webview (it is untrusted input),
 * routes it to the chat, and turns a failure into a logged error the view shows.
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
    const { commands, turns, composer, review, editor } = this.services;
    switch (message.type) {
      case 'ready':
        return turns.viewReady(view);
      case 'send':
        return sendComposed(turns, message, view);
      case 'cancel':
        return turns.cancel(view);
      case 'answer_permission':
        return turns.answerPermission(message.key, message.optionId, view);
      case 'answer_elicitation':
        if (!this.services.elicitations) {
          throw new Error('No question from the agent is waiting.');
        }
        return this.services.elicitations.answer(message.key, message.answer);
      case 'select_agent':
        return commands.selectAgent(message.agentId, view);
      case 'set_mode':
        return turns.setMode(message.modeId, view);
      case 'set_config_option':
        return turns.setConfigOption(message.configId, message.value, view);
      case 'open_file':
        return editor.openFile(message.path, message.line);
      case 'open_url':
        return editor.openUrl(message.url);
      case 'authenticate':
        return turns.authenticate(message.methodId, view);
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
      case 'start_fresh':
        return commands.startFresh(view);
      case 'retry':
        return turns.retry(view);
      case 'check_agents':
        return editor.checkAgents();
      case 'manage_trust':
        return editor.manageTrust();
      case 'add_agent':
        return editor.addAgent?.();
      case 'remove_attachment':
        return composer.removeAttachment(message.uri, view);
      case 'answer_review':
        return review.answerReview(message.id, message.decision);
      case 'turn_changes':
        return review.turnChanges(message.turnId, message.action, message.path, view);
      case 'restore_checkpoint':
        await review.restoreCheckpoint(message.turnId, view);
        return;
      case 'fix_problems':
        return review.fixProblems(message.turnId, view);
      case 'dismiss_problems':
        return review.dismissProblems(view);
      case 'mention_query':
        return composer.queryMentions(message.query, message.requestId, view);
      case 'pick_files':
        return composer.pickFiles(view);
      case 'open_terminal':
        return editor.showTerminal?.(message.terminalId, turns.sessionIdOf(view));
      case 'open_message':
        return review.openMessage(message.entryId, view);
      case 'list_agent_sessions':
        return commands.agentSessions.list(view, message.agentId, message.cursor);
      case 'edit_resend':
        // Cancel in the restore's confirmation: no fork, nothing sent, the edit stays in the composer.
        if (message.restoreCheckpoint && !(await review.restoreBeforeMessage(message.entryId, view))) {
          return turns.keepUnsent(view);
        }
        await commands.forks.fork(view, message.entryId);
        return sendComposed(turns, message, view);
      case 'open_agent_session':
        return commands.agentSessions.open(view, message.agentId, message.sessionId);
      default: {
        const unknown: never = message;
        throw new Error(`Unhandled view message ${JSON.stringify(unknown)}`);
      }
    }
  }
}

/** The composer's message (a send, or the resend of an edited one) handed to the chat's turns. */
function sendComposed(
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
