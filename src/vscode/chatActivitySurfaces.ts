import * as vscode from 'vscode';
import type { ActivityChange, ChatActivity } from '../chat/chatActivity';
import type { ChatActivityState } from '../protocol';
import type { UserPrompts } from './userPrompts';

/** `acpAgents.notifications.chatStatus`: when a chat's status is announced. */
export type ChatStatusNotifications = 'always' | 'whenHidden' | 'never';

export function chatStatusNotifications(): ChatStatusNotifications {
  const value = vscode.workspace.getConfiguration('acpAgents').get<unknown>('notifications.chatStatus');
  return value === 'always' || value === 'never' ? value : 'whenHidden';
}

export interface ActivitySurfaceDeps {
  readonly activity: Pick<ChatActivity, 'onDidChange' | 'counts'>;
  /** Whether a view showing the chat is on the user's screen. */
  onScreen(chatId: string): boolean;
  /** Shows the chat (its tab, or the sidebar switched to it). */
  open(chatId: string): Promise<void>;
  /** The sidebar view's badge: how many chats wait for the user (0: none). */
  setBadge(waiting: number, tooltip: string): void;
  readonly prompts: UserPrompts;
  readonly notifications?: () => ChatStatusNotifications;
}

const OPEN = 'Open Chat';

/**
 * What every chat is doing, outside the chat views: a status-bar entry ("3 agents running, 1 waiting"),
 * a badge on the ACP view (chats waiting for you) and a notification, with a button that opens the chat,
 * when a chat needs you, finishes or fails (`acpAgents.notifications.chatStatus`: always, when hidden,
 * never). Driven by the chats' status changes alone: no timer runs while nothing changes. A notification
 * is taken back when its chat moves on (answered, seen, running again).
 */
export class ChatActivitySurfaces implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('acpAgents.chatActivity', vscode.StatusBarAlignment.Right, 99);
  private readonly shown = new Map<string, AbortController>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly deps: ActivitySurfaceDeps) {
    this.item.name = 'ACP Agents: chats at work';
    this.item.command = 'acpAgents.switchChat';
    this.subscription = deps.activity.onDidChange((change) => this.changed(change));
    this.render();
  }

  private waiting = 0;

  /** The status bar's text now, '' when hidden (also read by tests). */
  get text(): string {
    return this.item.text;
  }

  /** The view's badge now: chats waiting for the user (also read by tests). */
  get badge(): number {
    return this.waiting;
  }

  private changed(change: ActivityChange): void {
    this.render();
    this.shown.get(change.chat.id)?.abort();
    this.shown.delete(change.chat.id);
    const message = announcement(change.chat.title.trim() || 'A chat', change.state, change.detail);
    if (message === undefined || change.previous === change.state) {
      return;
    }
    const when = this.deps.notifications?.() ?? chatStatusNotifications();
    if (when === 'never' || (when === 'whenHidden' && this.deps.onScreen(change.chat.id))) {
      return;
    }
    const taken = new AbortController();
    this.shown.set(change.chat.id, taken);
    void this.deps.prompts.notify(message, [OPEN], taken.signal).then((choice) => {
      if (this.shown.get(change.chat.id) === taken) {
        this.shown.delete(change.chat.id);
      }
      if (choice === OPEN) {
        void this.deps.open(change.chat.id);
      }
    });
  }

  private render(): void {
    const { running, waiting } = this.deps.activity.counts();
    const parts = [
      ...(running > 0 ? [`${running} agent${running === 1 ? '' : 's'} running`] : []),
      ...(waiting > 0 ? [`${waiting} waiting`] : []),
    ];
    this.waiting = waiting;
    this.deps.setBadge(waiting, waiting === 1 ? 'A chat waits for you' : `${waiting} chats wait for you`);
    if (parts.length === 0) {
      this.item.text = '';
      this.item.hide();
      return;
    }
    this.item.text = `${waiting > 0 ? '$(bell-dot)' : '$(loading~spin)'} ${parts.join(', ')}`;
    this.item.tooltip = 'Agent chats at work in this window: click to switch to one';
    this.item.show();
  }

  dispose(): void {
    this.subscription.dispose();
    for (const taken of this.shown.values()) {
      taken.abort();
    }
    this.shown.clear();
    this.item.dispose();
  }
}

/** What the notification says of a chat's new status; undefined: nothing to announce (running, idle). */
function announcement(title: string, state: ChatActivityState | undefined, detail: string | undefined): string | undefined {
  switch (state) {
    case 'waiting':
      // An agent's question is announced by its own feature; a permission and a sign-in are here.
      if (detail !== undefined && !detail.startsWith('permission') && detail !== 'sign-in') {
        return undefined;
      }
      return `“${title}” waits for you${detail ? ` (${detail})` : ''}.`;
    case 'unread':
      return `“${title}” finished.`;
    case 'failed':
      return `“${title}” stopped with an error.`;
    default:
      return undefined;
  }
}
