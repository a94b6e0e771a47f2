import type { ChatContributionFactory } from '../../../chat/chatContribution';
import { AgentSessionsBrowser } from './agentSessionsBrowser';

/** "Agent sessions": each running agent's own sessions in the chat list, opened as chats. */
export function agentSessionsContribution(
  /** Whether a listed session is one the agent check opened (left out of the list). */
  isProbe: (agentId: string, sessionId: string) => boolean = () => false,
): ChatContributionFactory {
  return ({ chats, pool, sessions, presenter, switchChat }) => {
    const browser = new AgentSessionsBrowser({ chats, pool, sessions, presenter, switchChat, isProbe });
    return {
      id: 'agentSessions',
      viewMessages: {
        list_agent_sessions: ({ agentId, cursor }, view) => browser.list(view, agentId, cursor),
        open_agent_session: ({ agentId, sessionId }, view) => browser.open(view, agentId, sessionId),
      },
    };
  };
}
