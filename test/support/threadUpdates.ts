import type * as acp from '@agentclientprotocol/sdk';
import { Thread, type ThreadLimits } from '../../src/core/thread/thread';
import type { ThreadEvent } from '../../src/core/thread/threadTypes';

/** A thread and every event it emitted. */
export function recorded(limits: Partial<ThreadLimits> = {}): { thread: Thread; events: ThreadEvent[] } {
  const thread = new Thread(limits);
  const events: ThreadEvent[] = [];
  thread.onEvent((event) => events.push(event));
  return { thread, events };
}

export function agent(text: string, messageId?: string): acp.SessionUpdate {
  return {
    sessionUpdate: 'agent_message_chunk',
    content: { type: 'text', text },
    ...(messageId ? { messageId } : {}),
  };
}

export function thought(text: string, messageId?: string): acp.SessionUpdate {
  return {
    sessionUpdate: 'agent_thought_chunk',
    content: { type: 'text', text },
    ...(messageId ? { messageId } : {}),
  };
}

export function user(text: string, messageId?: string): acp.SessionUpdate {
  return {
    sessionUpdate: 'user_message_chunk',
    content: { type: 'text', text },
    ...(messageId ? { messageId } : {}),
  };
}

export function toolCall(toolCallId: string, fields: Partial<acp.ToolCall> = {}): acp.SessionUpdate {
  return { sessionUpdate: 'tool_call', toolCallId, title: 'Read file', ...fields };
}

export function toolUpdate(toolCallId: string, fields: Partial<acp.ToolCallUpdate> = {}): acp.SessionUpdate {
  return { sessionUpdate: 'tool_call_update', toolCallId, ...fields };
}

export function textContent(text: string): acp.ToolCallContent {
  return { type: 'content', content: { type: 'text', text } };
}
