import type { AgentClient } from '../core/connection/agentClient';
import type { AgentSession } from '../core/session/agentSession';
import type { SessionParams } from '../core/connection/sessionOpening';
import { AgentError, classifyError, NotSupportedError } from '../core/connection/errors';
import type { Thread } from '../core/thread/thread';
import { sentence } from '../core/thread/agentText';

/** Takes up a chat's earlier session `oldId` on `client` again: `session/resume` where the agent has it, else `load`. */
export function continueSession(
  client: AgentClient,
  oldId: string,
  params: SessionParams & { readonly thread: Thread },
): Promise<AgentSession> {
  const caps = client.info.capabilities;
  if (caps.sessionCapabilities?.resume) {
    return client.resumeSession(oldId, params);
  }
  if (caps.loadSession) {
    return client.loadSession(oldId, params);
  }
  return Promise.reject(
    new NotSupportedError(client.info.name, 'Continuing an earlier session (session/resume or session/load)'),
  );
}

/**
 * Why the earlier session cannot be taken up, as the chat says it (the agent's error as its
 * cause) — or undefined when `error` means no such thing: a sign-in is needed first, or the opening
 * was `abandoned` (Stop, the chat deleted) or cancelled (the agent stopped).
 */
export function resumeFailureOf(
  error: unknown,
  agentName: string,
  abandoned: boolean,
): AgentError | undefined {
  const failure = classifyError(error);
  // Cancelled: abandoned here, or the agent was stopped meanwhile; the session may well go on later.
  if (failure.kind === 'auth_required' || failure.kind === 'cancelled' || abandoned) {
    return undefined;
  }
  return new AgentError(
    failure.kind,
    `${agentName} could not continue this chat's earlier session: ${sentence(failure.message)}`,
    failure.code,
    failure.data,
    { cause: failure },
  );
}
