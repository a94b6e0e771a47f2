import type {
  AgentStatus,
  ChatSummary,
  ErrorDetails,
  HostMessage,
  SessionStateMessage,
  TerminalOutputMessage,
  ThreadEntryMessage,
  ThreadEventMessage,
  TurnMessage,
  ViewState,
} from '../../../src/protocol';

/** Typed builders for what the host sends, with defaults the tests override. */

export const CHAT_ID = 'chat-1';

type ToolCall = Extract<ThreadEntryMessage, { kind: 'tool_call' }>;
type Message = Exclude<ThreadEntryMessage, { kind: 'tool_call' }>;

/** A chat of the chat list: an idle Claude Code chat "Fix the parser" updated now, unless `partial` says else. */
export function chatSummary(partial: Partial<ChatSummary> = {}): ChatSummary {
  return {
    chatId: CHAT_ID,
    title: 'Fix the parser',
    agentId: 'claude',
    agentLabel: 'Claude Code',
    updatedAt: Date.now(),
    running: false,
    ...partial,
  };
}

export function sessionState(partial: Partial<SessionStateMessage> = {}): SessionStateMessage {
  return { configOptions: [], commands: [], plan: [], ...partial };
}

type SelectOption = Extract<SessionStateMessage['configOptions'][number], { type: 'select' }>;

/** A select setting `id` named `name`, offering `choices` (value → name), set to `currentValue`. */
export function selectOption(
  id: string,
  name: string,
  choices: Record<string, string>,
  currentValue: string,
  partial: Partial<SelectOption> = {},
): SelectOption {
  const offered = Object.entries(choices).map(([value, label]) => ({ value, name: label }));
  return { type: 'select', id, name, currentValue, choices: offered, ...partial };
}

/** The agent's model setting: a select between Fast and Smart, set to `currentValue`. */
export function modelOption(currentValue = 'fast'): SelectOption {
  return selectOption('model', 'Model', { fast: 'Fast', smart: 'Smart' }, currentValue);
}

export function viewState(
  thread: { entries?: ThreadEntryMessage[]; turns?: TurnMessage[]; state?: SessionStateMessage } = {},
  partial: Partial<ViewState> = {},
): ViewState {
  return {
    agents: [
      { id: 'copilot', label: 'Copilot CLI' },
      { id: 'demo', label: 'Demo agent (offline)' },
    ],
    selectedAgentId: 'copilot',
    status: { state: 'ready', agentName: 'Copilot CLI' },
    chat: {
      chatId: CHAT_ID,
      thread: {
        entries: thread.entries ?? [],
        turns: thread.turns ?? [],
        state: thread.state ?? sessionState(),
      },
    },
    ...partial,
  };
}

export function snapshot(
  thread: Parameters<typeof viewState>[0] = {},
  partial: Partial<ViewState> = {},
): HostMessage {
  return { type: 'snapshot', view: viewState(thread, partial) };
}

export function events(...list: ThreadEventMessage[]): HostMessage {
  return { type: 'thread_events', chatId: CHAT_ID, events: list };
}

/** The status of an agent that failed: the banner over the chat says `error`. */
export function agentFailed(
  agentName: string,
  error: ErrorDetails & { readonly stderrTail?: readonly string[] },
): HostMessage {
  return status({ state: 'error', agentName, error });
}

export function status(value: AgentStatus): HostMessage {
  return { type: 'agent_status', status: value };
}

export function message(
  kind: Message['kind'],
  id: string,
  text: string,
  partial: Partial<Message> = {},
): Message {
  return { kind, id, turnId: 't1', text, attachments: [], ...partial } as Message;
}

export function toolCall(id: string, partial: Partial<ToolCall> = {}): ToolCall {
  return {
    kind: 'tool_call',
    id,
    turnId: 't1',
    toolCallId: `call-${id}`,
    title: 'Read file',
    toolKind: 'read',
    status: 'pending',
    content: [],
    locations: [],
    ...partial,
  };
}

/** The output of the agent's terminal term-1, as the host sends it (by default empty, whole, not truncated). */
export function terminalOutput(partial: Partial<TerminalOutputMessage>): HostMessage {
  return {
    type: 'terminal_output',
    terminal: { terminalId: 'term-1', output: '', truncated: false, ...partial },
  };
}

/** A running command whose card shows the agent's terminal term-1. */
export const RUNNING_COMMAND = toolCall('e1', {
  toolKind: 'execute',
  status: 'in_progress',
  content: [{ type: 'terminal', terminalId: 'term-1' }],
});

export function turn(id: string, partial: Partial<TurnMessage> = {}): TurnMessage {
  return { id, status: 'running', startedAt: 1_700_000_000_000, ...partial };
}

export const added = (entry: ThreadEntryMessage): ThreadEventMessage => ({ type: 'entry_added', entry });
export const updated = (entry: ThreadEntryMessage): ThreadEventMessage => ({ type: 'entry_updated', entry });
export const appended = (entryId: string, text: string): ThreadEventMessage => ({
  type: 'text_appended',
  entryId,
  text,
});
export const started = (value: TurnMessage): ThreadEventMessage => ({ type: 'turn_started', turn: value });
export const ended = (value: TurnMessage): ThreadEventMessage => ({ type: 'turn_ended', turn: value });
export const turnUpdated = (value: TurnMessage): ThreadEventMessage => ({
  type: 'turn_updated',
  turn: value,
});

type TurnChanges = NonNullable<TurnMessage['changes']>;
type FileChange = TurnChanges['files'][number];

/** A file a turn changed, under the workspace /w unless the relative path says otherwise. */
export function fileChange(relativePath: string, partial: Partial<FileChange> = {}): FileChange {
  return {
    path: `/w/${relativePath}`,
    relativePath,
    kind: 'modified',
    added: 1,
    removed: 0,
    decision: 'pending',
    ...partial,
  };
}

export function turnChanges(files: FileChange[], partial: Partial<TurnChanges> = {}): TurnChanges {
  return { files, live: false, coverage: 'full', ...partial };
}
