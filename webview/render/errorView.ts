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
  /** What "Retry" does instead of sending the last prompt again (the status card: the message given back). */
  readonly onRetry?: () => void;
  /** Offer "Check agents" (the agent doctor) and "Show Agent Log": for an agent that failed to start. */
  readonly checkAgents?: boolean;
  /** The agent, for "Sign in to <agent>" (the status banner knows it). */
  readonly agentName?: string;
}

/**
 * An agent error with what the user can do about it: sign in (an auth error, or a session that was not
 * answered by an agent with ways to sign in), wait (rate_limited), restart (the process exited), read the
 * agent's own last words, retry, check the agents, open the log; in "Details" the code and what the agent
 * sent with it. Used for failed turns and for the agent status banner, so both offer the same actions.
 */
export function agentErrorView(error: AgentErrorInfo, context: RenderContext): HTMLElement {
  const view = el('div', 'agent-error');
  view.setAttribute('role', 'alert');
  view.dataset.kind = error.kind;
  const { title, iconName } = headline(error);
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
    view.append(stderrView(error.stderrTail));
  }
  const actions = el('div', 'error-actions', ...actionButtons(error, context));
  if (actions.childElementCount > 0) {
    view.append(actions);
  }
  return view;
}

/** The card's title and icon, by kind. */
function headline(error: AgentErrorInfo): { title: string; iconName: string } {
  switch (error.kind) {
    case 'auth_required':
      return {
        title: error.agentName ? `Sign in to ${error.agentName}` : 'Sign in required',
        iconName: 'account',
      };
    case 'rate_limited':
      return { title: 'Rate limited', iconName: 'watch' };
    case 'process_exited':
    case 'interrupted':
      return { title: 'Agent exited', iconName: 'error' };
    case 'not_installed':
      return { title: 'Agent not installed', iconName: 'warning' };
    case 'timeout':
      return {
        title: error.agentName ? `${error.agentName} did not answer` : 'Timed out',
        iconName: 'watch',
      };
    case 'not_supported':
      return { title: 'Not supported', iconName: 'error' };
    default:
      return { title: 'Error', iconName: 'error' };
  }
}

/** The card's buttons: the kind's own remedy first, then Retry, Check agents and the log. */
function actionButtons(error: AgentErrorInfo, context: RenderContext): HTMLElement[] {
  const buttons = kindActions(error, context);
  const secondary = (): boolean => buttons.length > 0;
  if (error.retry || error.onRetry) {
    const retry = error.onRetry ?? (() => context.post({ type: 'retry' }));
    buttons.push(
      button('Retry', {
        icon: 'refresh',
        secondary: secondary(),
        ariaLabel: error.onRetry ? 'Retry: send the message again' : 'Retry the last message',
        onClick: retry,
      }),
    );
  }
  if (error.checkAgents) {
    buttons.push(
      button('Check Agents', {
        icon: 'pulse',
        secondary: secondary(),
        ariaLabel: 'Check agents: is each agent installed, signed in and answering?',
        title: 'Runs ACP: Check Agents and opens its report',
        onClick: () => context.post({ type: 'check_agents' }),
      }),
      button('Show Agent Log', {
        icon: 'output',
        secondary: true,
        ariaLabel: 'Show the agent log',
        title:
          'Runs ACP: Show Agent Log (everything the agents wrote, and every protocol message at log level Trace)',
        onClick: () => context.post({ type: 'show_log' }),
      }),
    );
  }
  return buttons;
}

/** What the kind itself offers: Sign in, Restart, Add Agent. */
function kindActions(error: AgentErrorInfo, context: RenderContext): HTMLElement[] {
  switch (error.kind) {
    case 'auth_required':
    case 'timeout':
      // A session that was never answered may be waiting for a sign-in: the agent's ways, when it has some.
      return signInButtons(error.authMethods ?? [], context);
    case 'process_exited':
    case 'interrupted':
      return [
        button('Restart', {
          icon: 'debug-restart',
          ariaLabel: 'Restart agent',
          onClick: () => context.post({ type: 'restart_agent' }),
        }),
      ];
    case 'not_installed':
      // The program is not there: it never started, so there is nothing to restart.
      return [
        button('Add Agent…', {
          icon: 'cloud-download',
          ariaLabel: 'Add an agent from the ACP Registry',
          title: 'Runs ACP: Add Agent… (installs an agent and adds it for you)',
          onClick: () => context.post({ type: 'add_agent' }),
        }),
      ];
    default:
      return [];
  }
}

function signInButtons(methods: readonly AuthMethod[], context: RenderContext): HTMLElement[] {
  return methods.map((method, index) =>
    button(methods.length === 1 ? 'Sign in' : `Sign in with ${method.name}`, {
      icon: 'sign-in',
      secondary: index > 0,
      ariaLabel: `Sign in with ${method.name}`,
      ...(method.description ? { title: method.description } : {}),
      onClick: () => context.post({ type: 'authenticate', methodId: method.id }),
    }),
  );
}

/** The agent's own last words, collapsed. */
function stderrView(lines: readonly string[]): HTMLElement {
  const stderr = new Disclosure('stderr', false);
  stderr.header.append(
    el('span', '', `Agent output (last ${lines.length === 1 ? 'line' : `${lines.length} lines`})`),
  );
  const pre = el('pre', 'stderr-tail', lines.join('\n'));
  pre.tabIndex = 0;
  stderr.body.append(pre);
  return stderr.element;
}
