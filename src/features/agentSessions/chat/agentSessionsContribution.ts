import type { ChatContributionFactory } from '../../../chat/chatContribution';
import { AgentSessionsBrowser } from './agentSessionsBrowser';

/** "Agent sessions": each running agent's own sessions in the chat list, opened as chats. */
export function agentSessionsContribution(): ChatContributionFactory {
  return ({ chats, pool, sessions, presenter, switchChat }) => {
    const browser = new AgentSessionsBrowser({ chats, pool, sessions, presenter, switchChat });
    return {
      id: 'agentSessions',
      viewMessages: {
        list_agent_sessions: ({ agentId, cursor }, view) => browser.list(view, agentId, cursor),
        open_agent_session: ({ agentId, sessionId }, view) => browser.open(view, agentId, sessionId),
      },
    };
  };
}
