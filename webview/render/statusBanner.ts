import type { AgentStatus } from '../../src/protocol';
import { button, el, icon, svg } from './dom';
import { agentErrorView } from './errorView';
import type { RenderContext } from './types';

/**
 * Failures whose card has no Retry: a program that is not there, a sign-in the agent asked for, and an
 * exit (its Restart is the retry; the message given back waits in the composer).
 */
const NO_RETRY: ReadonlySet<string> = new Set([
  'not_installed',
  'auth_required',
  'process_exited',
  'interrupted',
]);

/** The agent's state above the transcript: starting (with progress) or failed (with actions). */
export class StatusBanner {
  readonly element = el('div', 'status-banner');
  private shown: AgentStatus | undefined;

  /** `retry`: the failure card's Retry (the message given back goes again). */
  constructor(
    private readonly context: RenderContext,
    private readonly retry?: () => void,
  ) {
    this.element.hidden = true;
  }

  update(status: AgentStatus, agentName: string): void {
    if (status === this.shown) {
      return;
    }
    this.shown = status;
    this.element.dataset.state = status.state;
    switch (status.state) {
      case 'starting': {
        const ring = progressRing('Starting');
        const name = status.agentName ?? agentName;
        this.element.replaceChildren(
          el('div', 'status-starting', ring, el('span', '', `Starting ${name}…`)),
          ...(status.said ? [el('div', 'status-said', `${name} said: ${status.said}`)] : []),
        );
        this.element.setAttribute('role', 'status');
        this.element.hidden = false;
        return;
      }
      case 'error': {
        if (status.error?.kind === 'untrusted') {
          this.element.replaceChildren(restrictedNotice(this.context));
          this.element.setAttribute('role', 'status');
          this.element.hidden = false;
          return;
        }
        const error = status.error ?? { kind: 'internal', message: `${agentName} failed.` };
        this.element.replaceChildren(
          agentErrorView(
            {
              ...error,
              ...(status.authMethods ? { authMethods: status.authMethods } : {}),
              agentName: status.agentName ?? agentName,
              // The agent did not start (or was lost): the doctor says why, for this and every agent.
              checkAgents: true,
              // Retry where trying again can help: not for a missing program, nor instead of a sign-in.
              ...(this.retry && !NO_RETRY.has(error.kind) ? { onRetry: this.retry } : {}),
            },
            this.context,
          ),
        );
        this.element.removeAttribute('role');
        this.element.hidden = false;
        return;
      }
      case 'idle':
      case 'ready':
        this.element.replaceChildren();
        this.element.hidden = true;
        return;
      default: {
        const never: never = status.state;
        console.warn('ACP chat: unknown agent state', never);
      }
    }
  }
}

/**
 * Restricted Mode, said as a state of the workspace rather than a failure: why agents need trust, and
 * the one remedy (VS Code's trust editor). No "Check agents": the doctor starts nothing here either.
 */
function restrictedNotice(context: RenderContext): HTMLElement {
  return el(
    'div',
    'restricted-notice',
    el('div', 'notice-title', icon('shield'), el('span', '', 'Restricted Mode')),
    el(
      'p',
      'notice-text',
      'This workspace is not trusted, so no agent is started here — not even the demo agent. An agent reads, ' +
        'writes and runs commands in the workspace, and the workspace’s own settings could choose which program ' +
        'runs. Trust the folder only if you trust its authors.',
    ),
    el(
      'div',
      'error-actions',
      button('Manage Workspace Trust', {
        icon: 'shield',
        ariaLabel: 'Manage Workspace Trust',
        title: 'Opens VS Code’s workspace trust editor (workbench.trust.manage)',
        onClick: () => context.post({ type: 'manage_trust' }),
      }),
    ),
  );
}

/**
 * vscode-progress-ring's spinner (the same SVG, animation and ARIA) without its custom element:
 * a circle whose dash grows and shrinks as it turns (media/chat/banners.css).
 */
function progressRing(label: string): HTMLElement {
  const ring = el(
    'span',
    'progress-ring',
    svg('svg', { viewBox: '0 0 16 16' }, svg('circle', { cx: '8', cy: '8', r: '7' })),
  );
  ring.setAttribute('role', 'alert');
  ring.setAttribute('aria-live', 'assertive');
  ring.setAttribute('aria-label', label);
  return ring;
}
