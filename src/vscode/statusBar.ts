import * as vscode from 'vscode';
import type { AgentStatus } from '../protocol';
import type { ChatController } from '../chat/chatController';

/** The status bar item: the active agent and its state; clicking it opens the chat. */
export class AgentStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'acpAgents.status',
    vscode.StatusBarAlignment.Right,
    100,
  );
  private readonly subscriptions: vscode.Disposable[];
  private working = false;

  constructor(private readonly chat: ChatController) {
    this.item.name = 'ACP Agent';
    this.item.command = 'acpAgents.chat.focus';
    this.subscriptions = [
      chat.onStatus(() => this.render()),
      chat.onWorking((working) => {
        this.working = working;
        this.render();
      }),
    ];
    this.render();
    this.item.show();
  }

  /** What the item shows now (also read by tests). */
  get text(): string {
    return this.item.text;
  }

  private render(): void {
    const status: AgentStatus = this.chat.currentStatus;
    const name = status.agentName ?? this.chat.agent.label;
    const state =
      this.working && status.state === 'ready'
        ? 'working'
        : status.state === 'idle'
          ? 'not started'
          : status.state;
    const icons: Record<string, string> = {
      working: '$(sync~spin)',
      starting: '$(loading~spin)',
      error: '$(error)',
    };
    if (status.state === 'error' && status.error?.kind === 'untrusted') {
      // Restricted Mode is the workspace's state, not the agent failing: no error colour.
      this.item.text = '$(shield) ACP: Restricted';
      this.item.tooltip =
        'Restricted Mode: this workspace is not trusted, so no agent is started. Click to open the chat.';
      this.item.backgroundColor = undefined;
      return;
    }
    const icon = icons[state] ?? '$(hubot)';
    this.item.text = `${icon} ${name}: ${state}`;
    this.item.tooltip = status.error
      ? `${name}: ${status.error.message}`
      : `${name} — ${state}. Click to open the chat.`;
    this.item.backgroundColor =
      status.state === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) {
      subscription.dispose();
    }
    this.item.dispose();
  }
}
