import type { AgentStatus } from '../../src/protocol';
import { el, icon } from './dom';

/** What the pending message shows: the text sent, and what it waits for. */
export interface PendingState {
  readonly text: string;
  readonly status: AgentStatus;
  readonly agentName: string;
}

/**
 * The message just sent, at the end of the transcript at once, marked as waiting — for the agent to
 * start, for its session, for the turn to begin — with the agent's own words when it says why it cannot
 * go on. It goes when the turn starts (the message is then the turn's), or when the send fails (the
 * message is back in the composer and the status card says why).
 */
export class PendingMessage {
  readonly element: HTMLElement;
  private readonly text = el('div', 'pending-text');
  private readonly state = el('div', 'pending-state');
  private shown: PendingState | undefined;

  constructor() {
    this.state.setAttribute('role', 'status');
    this.element = el(
      'article',
      'entry entry-user pending',
      el('div', 'pending-message', el('div', 'user-bubble', this.text), this.state),
    );
    this.element.setAttribute('aria-label', 'You (not sent yet)');
  }

  /** Shows `pending` (undefined: nothing waits); true when what is shown changed. */
  update(pending: PendingState | undefined): boolean {
    const same =
      pending?.text === this.shown?.text &&
      pending?.status === this.shown?.status &&
      pending?.agentName === this.shown?.agentName;
    if (same) {
      return false;
    }
    this.shown = pending;
    if (!pending) {
      return true;
    }
    this.text.textContent = pending.text;
    const { status, agentName } = pending;
    const waitingFor =
      status.state === 'starting' ? `Waiting for ${agentName} to start…` : `Sending to ${agentName}…`;
    this.state.replaceChildren(
      icon('loading', true),
      el('span', '', waitingFor),
      ...(status.said ? [el('span', 'pending-said', `${agentName} said: ${status.said}`)] : []),
    );
    return true;
  }
}
