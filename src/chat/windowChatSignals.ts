import { Emitter, type Disposable } from '../core/util/disposable';
import type { ThreadEvent } from '../core/thread/threadTypes';
import type { AgentStatus } from '../protocol';
import type { Conversation } from './conversation';

/** The window's chat as the status bar sees it. */
export interface WindowChat {
  /** The chat the window shows (the sidebar's), if any. */
  chat(): Conversation | undefined;
  /** Its agent's state now. */
  status(): AgentStatus;
}

/**
 * What the status bar follows: the window's chat's agent state and whether that chat runs a turn — said
 * when either changes, and when the window shows another chat.
 */
export class WindowChatSignals implements Disposable {
  private readonly statusEmitter = new Emitter<AgentStatus>();
  /** The window's chat's agent state. */
  readonly onStatus = this.statusEmitter.event;
  private readonly workingEmitter = new Emitter<boolean>();
  /** Whether the window's chat runs a turn, each time that changes. */
  readonly onWorking = this.workingEmitter.event;

  constructor(private readonly window: WindowChat) {}

  /** Agent `agentId`'s state changed. */
  agentStatus(agentId: string, status: AgentStatus): void {
    if (agentId === this.window.chat()?.agentId) {
      this.statusEmitter.fire(status);
    }
  }

  /** The window shows another chat (or its chat changed agent). */
  shown(): void {
    this.statusEmitter.fire(this.window.status());
    this.workingEmitter.fire(this.window.chat()?.running ?? false);
  }

  threadEvent(chat: Conversation, event: ThreadEvent): void {
    if (
      chat.id === this.window.chat()?.id &&
      (event.type === 'turn_started' || event.type === 'turn_ended')
    ) {
      this.workingEmitter.fire(event.type === 'turn_started');
    }
  }

  dispose(): void {
    this.statusEmitter.dispose();
    this.workingEmitter.dispose();
  }
}
