import * as z from 'zod/mini';
import type { DeepReadonly } from './deepReadonly';

/*
 * "Agent sessions": the sessions an agent already has (`session/list`), shown in the chat list to be
 * opened as chats. Every field is bounded: an agent decides what is in the list.
 */

/** Sessions kept per agent (all pages together); the host and the view both stop there. */
export const MAX_AGENT_SESSIONS = 200;
/** A `session/list` cursor longer than this is not followed (no "more" row). */
export const MAX_CURSOR_CHARS = 2_000;

export const AgentSessionSchema = z.object({
  sessionId: z.string().check(z.minLength(1), z.maxLength(500)),
  /** Plain text, bounded (the agent's `title`, or what its `session_info_update` said since). */
  title: z.optional(z.string().check(z.maxLength(200))),
  /** The session's folder (the agent's `cwd`). */
  cwd: z.string().check(z.maxLength(4_096)),
  /** Milliseconds since the epoch, when the agent said (`updatedAt`). */
  updatedAt: z.optional(z.number()),
  /** Our chat on this session, when there is one: opening the row switches to it. */
  chatId: z.optional(z.string()),
});

/** One agent's sessions: a first page (replaces what is shown) or the next (`append`). */
export const AgentSessionGroupSchema = z.object({
  agentId: z.string(),
  agentLabel: z.string(),
  sessions: z.array(AgentSessionSchema).check(z.maxLength(MAX_AGENT_SESSIONS)),
  /** Where the next page starts; absent when there is none (or the cap is reached). */
  nextCursor: z.optional(z.string().check(z.maxLength(MAX_CURSOR_CHARS))),
  append: z.optional(z.literal(true)),
  /** Why the sessions could not be listed (the agent's error, plain). */
  error: z.optional(z.string().check(z.maxLength(2_000))),
});

export const AgentSessionsMessageSchema = z.object({
  type: z.literal('agent_sessions'),
  groups: z.array(AgentSessionGroupSchema).check(z.maxLength(100)),
});

/** The chat list was opened (no `agentId`: every agent's first page) or its "More" row was pressed. */
export const ListAgentSessionsSchema = z.object({
  type: z.literal('list_agent_sessions'),
  agentId: z.optional(z.string()),
  cursor: z.optional(z.string().check(z.maxLength(MAX_CURSOR_CHARS))),
});

/** Open one of an agent's sessions as a chat (or switch to our chat on it). */
export const OpenAgentSessionSchema = z.object({
  type: z.literal('open_agent_session'),
  agentId: z.string(),
  sessionId: z.string().check(z.minLength(1), z.maxLength(500)),
});

export type AgentSession = DeepReadonly<z.infer<typeof AgentSessionSchema>>;
export type AgentSessionGroup = DeepReadonly<z.infer<typeof AgentSessionGroupSchema>>;
