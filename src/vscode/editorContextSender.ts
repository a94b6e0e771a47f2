import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PromptBlock } from '../core/session/promptBlocks';
import type { ChatController } from '../chat/chatController';
import { findCopilotAgent } from '../chat/copilotAgent';
import { lineRangeFragment } from '../chat/selectionRange';
import type { ChatViewProvider } from './chatViewProvider';
import { copilotAgentName } from './settings';
import type { UserPrompts } from './userPrompts';

const SET_UP = 'Set Up Copilot';
/** GitHub Copilot's entry in the ACP Registry. */
const COPILOT_REGISTRY_ID = 'github-copilot';

/**
 * "Send to Copilot" and "Send to Agent…": the editor's selection (else the whole file) with a question the
 * user types, sent to an agent's chat in the sidebar.
 */
export class EditorContextSender {
  constructor(
    private readonly chat: ChatController,
    private readonly view: ChatViewProvider,
    private readonly prompts: UserPrompts,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Sends the selection (else the whole file) with a question the user types, to `agentId`. */
  async sendTo(agentId: string): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      throw new Error('Open a file (and select some code) first.');
    }
    const agentName = this.chat.agentsOffered.find((a) => a.id === agentId)?.label ?? agentId;
    this.checkCanSend(agentId, agentName);
    const selection = editor.selection;
    const what = selection.isEmpty ? path.basename(editor.document.fileName) : 'the selection';
    const question = await this.prompts.text(
      `Ask ${agentName} about ${what}`,
      'e.g. Explain this, or: Add error handling',
    );
    if (question === undefined || question.trim() === '') {
      return;
    }
    if (agentId !== this.chat.agent.id) {
      await this.chat.selectAgent(agentId);
    }
    const blocks = selectionBlocks(question.trim(), editor);
    await this.view.reveal();
    this.send(question.trim(), blocks);
  }

  /**
   * "Send to Copilot" goes to the Copilot agent (configured, named in `acpAgents.copilotAgent`, or
   * detected on PATH), starting it when needed. Without one it says so and lets the user set one up
   * or choose the current agent: never a silent swap.
   */
  async sendToCopilot(): Promise<void> {
    // What can be checked before asking anything: with no editor, there is nothing to send.
    if (!vscode.window.activeTextEditor) {
      throw new Error('Open a file (and select some code) first.');
    }
    const choice = findCopilotAgent(this.chat.agentsOffered, copilotAgentName());
    if (choice.kind === 'found') {
      return this.sendTo(choice.agent.id);
    }
    const current = this.chat.agent.label;
    const message =
      choice.kind === 'unknown_setting'
        ? `acpAgents.copilotAgent names "${choice.name}", which is not one of the agents.`
        : 'No GitHub Copilot agent is set up.';
    const answer = await this.prompts.modal(
      message,
      'Set Up Copilot installs GitHub Copilot from the ACP Registry and adds it for you. ' +
        'To use an agent you already have, name it in acpAgents.copilotAgent.',
      [SET_UP, `Send to ${current}`],
    );
    if (answer === SET_UP) {
      await this.setUpCopilot();
    } else if (answer === `Send to ${current}`) {
      await this.sendTo(this.chat.agent.id);
    }
  }

  /** Installs, adds and starts Copilot, and makes it the one Send to Copilot uses from now on. */
  private async setUpCopilot(): Promise<void> {
    const added = await vscode.commands.executeCommand<unknown>('acpAgents.addAgent', COPILOT_REGISTRY_ID);
    if (typeof added === 'string') {
      await vscode.workspace
        .getConfiguration('acpAgents')
        .update('copilotAgent', added, vscode.ConfigurationTarget.Global);
      await this.sendTo(
        this.chat.agentsOffered.find((agent) => agent.label === added)?.id ?? this.chat.agent.id,
      );
    }
  }

  /** Refuses before the question is asked when the chat it would go to cannot take it now. */
  private checkCanSend(agentId: string, agentName: string): void {
    if (agentId !== this.chat.agent.id) {
      return;
    }
    // A question typed while the chat it would go to is busy would have nowhere to go: say so first.
    if (this.chat.activeChatRunning) {
      throw new Error(
        `${agentName} is still answering in this chat. Wait for it or press Stop, then send again.`,
      );
    }
    // A chat another window writes is read-only here: refused as its composer is, before the question.
    const refused = this.chat.turns.sendRefusal(this.chat.windowSlot);
    if (refused) {
      throw new Error(refused);
    }
  }

  /** The turn runs on; a send that fails (the chat became busy meanwhile) is shown with the question, so it is not lost. */
  private send(question: string, blocks: PromptBlock[]): void {
    void this.chat.sendPrompt(blocks).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      this.log.error(`Send failed: ${message}`);
      void vscode.window.showErrorMessage(
        `ACP Agents: your question was not sent: "${question}". ${message}`,
      );
    });
  }
}

/** The question and the editor's selection (else its whole file) as an embedded resource with its lines. */
function selectionBlocks(question: string, editor: vscode.TextEditor): PromptBlock[] {
  const range = editor.selection.isEmpty ? undefined : editor.selection;
  const text = editor.document.getText(range);
  const uri = editor.document.uri.with({ fragment: range ? lineRangeFragment(range.start, range.end) : '' });
  return [
    { type: 'text', text: question },
    { type: 'resource', uri: uri.toString(), text, mimeType: mimeOf(editor.document.languageId) },
  ];
}

function mimeOf(languageId: string): string {
  return languageId === 'plaintext' ? 'text/plain' : `text/x-${languageId}`;
}
