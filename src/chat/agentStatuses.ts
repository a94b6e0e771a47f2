import type { AgentClient } from '../core/connection/agentClient';
import {
  AgentExitedError,
  AgentTimeoutError,
  classifyError,
  errorDetails,
  stderrTailOf,
  type AgentError,
} from '../core/connection/errors';
import type { AgentStatus } from '../protocol';
import type { AgentDefinition } from './agentSettings';

/*
 * What the views are told about an agent: ready (and what its prompts may carry), or failed — with the
 * agent's own last stderr lines and, where a sign-in may be the reason, its ways to sign in.
 */

/** The requests that set up a chat's session: an agent silent on them may be waiting for a sign-in. */
const SESSION_SETUP: ReadonlySet<string> = new Set(['session/new', 'session/load', 'session/resume']);

export function isSessionSetup(method: string): boolean {
  return SESSION_SETUP.has(method);
}

/** A ready agent's status, with what its prompts may carry (the composer says early what it cannot take). */
export function readyStatus(client: AgentClient, agentName: string): AgentStatus {
  const prompt = client.info.capabilities.promptCapabilities;
  return {
    state: 'ready',
    agentName,
    promptCapabilities: { image: prompt?.image === true, embeddedContext: prompt?.embeddedContext === true },
  };
}

/**
 * A failed agent's status: the classified error, its stderr tail, and Sign in where it may help.
 * `agentName`: the agent as the user knows it (the picker's label).
 */
export function failedStatus(
  agent: AgentDefinition,
  error: unknown,
  client: AgentClient | undefined,
  agentName: string,
): AgentStatus {
  const failure = classifyError(error);
  if (failure instanceof AgentExitedError && /^ENOENT\b/.test(failure.exit?.error ?? '')) {
    // It never started: say so as the agent doctor does, not as an exit.
    const where = /[\\/]/.test(agent.command) ? '' : ' on PATH';
    return {
      state: 'error',
      agentName: agent.label,
      error: { kind: 'not_installed', message: `${agent.command} was not found${where}.` },
    };
  }
  const stderrTail = stderrTailOf(failure);
  const authMethods = signInOffer(failure, client);
  return {
    state: 'error',
    agentName,
    error: { ...errorDetails(failure), ...(stderrTail.length > 0 ? { stderrTail: [...stderrTail] } : {}) },
    ...(authMethods ? { authMethods } : {}),
  };
}

/**
 * The ways to sign in a failure's card offers: the agent's methods when it asked for a sign-in, or when it
 * did not answer a session's setup in time and has methods to offer (a missing sign-in is a likely reason).
 */
function signInOffer(failure: AgentError, client: AgentClient | undefined): AgentStatus['authMethods'] {
  const methods = client?.info.authMethods ?? [];
  const mayBeSignIn =
    failure.kind === 'auth_required' ||
    (failure instanceof AgentTimeoutError && isSessionSetup(failure.method) && methods.length > 0);
  if (!client || !mayBeSignIn) {
    return undefined;
  }
  return methods.map((method) => ({
    id: method.id,
    name: method.name,
    ...(method.description ? { description: method.description } : {}),
  }));
}
