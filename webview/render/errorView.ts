import { Disclosure } from './disclosure';
import { button, el, icon } from './dom';
import { errorDetailsView } from './errorDetails';
import type { AuthMethod, RenderContext } from './types';

export interface AgentErrorInfo {
  /** An AgentErrorKind, or 'interrupted' for a turn the agent's exit cut short. */
  readonly kind: string;
  readonly message: string;
  readonly code?: number;
  /** The agent's `data`, bounded and pretty-printed by the host: shown in "Details". */
  readonly data?: string;
  readonly stderrTail?: readonly string[];
  readonly authMethods?: readonly AuthMethod[];
  /** Offer "Retry" (send the last prompt again): for the latest failed turn. */
  readonly retry?: boolean;
  /** Offer "Check agents" (the agent doctor): for an agent that failed to start. */
  readonly checkAgents?: boolean;
  /** The agent, for "Sign in to <agent>" (the status banner knows it). */
  readonly agentName?: string;
}

/**
 * An agent error with what the user can do about it: sign in (auth_required), wait (rate_limited),
 * restart (the process exited), or read the message, and in "Details" the code and what the agent
 * sent with it. Used for failed turns and for the
 * agent status banner, so both offer the same actions.
 */
export function agentErrorView(error: AgentErrorInfo, context: RenderContext): HTMLElement {
  const view = el('div', 'agent-error');
  view.setAttribute('role', 'alert');
  view.dataset.kind = error.kind;
  const actions = el('div', 'error-actions');

  let title: string;
  let iconName = 'error';
  switch (error.kind) {
    case 'auth_required': {
      title = error.agentName ? `Sign in to ${error.agentName}` : 'Sign in required';
      iconName = 'account';
      const methods = error.authMethods ?? [];
      for (const [index, method] of methods.entries()) {
        actions.append(
          button(methods.length === 1 ? 'Sign in' : `Sign in with ${method.name}`, {
            icon: 'sign-in',
            secondary: index > 0,
            ariaLabel: `Sign in with ${method.name}`,
            ...(method.description ? { title: method.description } : {}),
            onClick: () => context.post({ type: 'authenticate', methodId: method.id }),
          }),
        );
      }
      break;
    }
    case 'rate_limited':
      title = 'Rate limited';
      iconName = 'watch';
      break;
    case 'process_exited':
    case 'interrupted':
      title = 'Agent exited';
      actions.append(
        button('Restart', {
          icon: 'debug-restart',
          ariaLabel: 'Restart agent',
          onClick: () => context.post({ type: 'restart_agent' }),
        }),
      );
      break;
    case 'not_installed':
      // The program is not there: it never started, so there is nothing to restart.
      title = 'Agent not installed';
      iconName = 'warning';
      actions.append(
        button('Add Agent…', {
          icon: 'cloud-download',
          ariaLabel: 'Add an agent from the ACP Registry',
          title: 'Runs ACP: Add Agent… (installs an agent and adds it for you)',
          onClick: () => context.post({ type: 'add_agent' }),
        }),
      );
      break;
    case 'timeout':
      title = 'Timed out';
      break;
    case 'not_supported':
      title = 'Not supported';
      break;
    default:
      title = 'Error';
  }

  if (error.retry) {
    actions.append(
      button('Retry', {
        icon: 'refresh',
        secondary: actions.childElementCount > 0,
        ariaLabel: 'Retry the last message',
        onClick: () => context.post({ type: 'retry' }),
      }),
    );
  }

  if (error.checkAgents) {
    actions.append(
      button('Check agents', {
        icon: 'pulse',
        secondary: actions.childElementCount > 0,
        ariaLabel: 'Check agents: is each agent installed, signed in and answering?',
        title: 'Runs ACP: Check Agents and opens its report',
        onClick: () => context.post({ type: 'check_agents' }),
      }),
    );
  }

  const code = error.code === undefined ? '' : ` (code ${error.code})`;
  view.append(
    el('div', 'error-title', icon(iconName), el('span', '', title)),
    el('div', 'error-message', `${error.message}${code}`),
  );
  const details = errorDetailsView(error);
  if (details) {
    view.append(details);
  }
  if (error.stderrTail && error.stderrTail.length > 0) {
    const stderr = new Disclosure('stderr', false);
    stderr.header.append(el('span', '', `Agent output (last ${error.stderrTail.length} lines)`));
    const pre = el('pre', 'stderr-tail', error.stderrTail.join('\n'));
    pre.tabIndex = 0;
    stderr.body.append(pre);
    view.append(stderr.element);
  }
  if (actions.childElementCount > 0) {
    view.append(actions);
  }
  return view;
}
