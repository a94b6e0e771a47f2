import * as vscode from 'vscode';
import type { AgentStatus } from '../protocol';
import type { ChatController } from '../chat/chatController';
import { RUNNING_SHOWN_AFTER_MS } from '../chat/chatActivity';
import { systemClock, type Clock } from '../core/util/clock';
import type { Disposable } from '../core/util/disposable';

/** What the item shows; set on the item only when it changes (each set is a trip through the window). */
interface Shown {
  readonly text: string;
  readonly tooltip: string;
  readonly error: boolean;
}

/**
 * The status bar item: the active agent and its state; clicking it opens the chat. "working" shows once a
 * turn has run RUNNING_SHOWN_AFTER_MS, as the chat's status does: a short turn changes nothing here.
 */
export class AgentStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'acpAgents.status',
    vscode.StatusBarAlignment.Right,
    100,
  );
  private readonly subscriptions: vscode.Disposable[];
  private working = false;
  /** Set while a turn runs and is not yet shown as working. */
  private workingSoon: Disposable | undefined;
  private shown: Shown | undefined;
  private changeCount = 0;

  constructor(
    private readonly chat: ChatController,
    private readonly clock: Clock = systemClock,
  ) {
    this.item.name = 'ACP Agent';
    // Ours, not the view's own focus command: it also sees that the focus reaches the message box.
    this.item.command = 'acpAgents.focusChat';
    this.subscriptions = [
      chat.onStatus(() => this.render()),
      chat.onWorking((working) => this.workingChanged(working)),
    ];
    this.render();
    this.item.show();
  }

  /** What the item shows now (also read by tests). */
  get text(): string {
    return this.item.text;
  }

  /** How many times the item was changed (read by tests: a short turn changes nothing). */
  get changes(): number {
    return this.changeCount;
  }

  private workingChanged(working: boolean): void {
    this.workingSoon?.dispose();
    this.workingSoon = undefined;
    if (!working) {
      this.working = false;
      this.render();
    } else if (!this.working) {
      this.workingSoon = this.clock.after(RUNNING_SHOWN_AFTER_MS, () => {
        this.workingSoon = undefined;
        this.working = true;
        this.render();
      });
    }
  }

  private render(): void {
    this.show(this.shownNow());
  }

  private show(shown: Shown): void {
    const last = this.shown;
    if (last && last.text === shown.text && last.tooltip === shown.tooltip && last.error === shown.error) {
      return;
    }
    this.shown = shown;
    this.changeCount++;
    this.item.text = shown.text;
    this.item.tooltip = shown.tooltip;
    this.item.backgroundColor = shown.error ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }

  private shownNow(): Shown {
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
      return {
        text: '$(shield) ACP: Restricted',
        tooltip: 'Restricted Mode: this workspace is not trusted, so no agent is started. Click to open the chat.',
        error: false,
      };
    }
    const icon = icons[state] ?? '$(hubot)';
    return {
      text: `${icon} ${name}: ${state}`,
      tooltip: status.error ? `${name}: ${status.error.message}` : `${name} — ${state}. Click to open the chat.`,
      error: status.state === 'error',
    };
  }

  dispose(): void {
    this.workingSoon?.dispose();
    for (const subscription of this.subscriptions) {
      subscription.dispose();
    }
    this.item.dispose();
  }
}
