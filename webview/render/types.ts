import type { AgentStatus, ThreadEntryMessage, ViewMessage } from '../../src/protocol';
import type { TerminalState } from '../terminalText';
import type { WorkspacePaths } from '../workspacePaths';

/** Entry types narrowed by kind, for the renderers. */
export type ToolCallEntry = Extract<ThreadEntryMessage, { kind: 'tool_call' }>;
export type MessageEntry = Exclude<ThreadEntryMessage, { kind: 'tool_call' }>;

/** One entry's view in the transcript. */
export interface EntryView {
  readonly element: HTMLElement;
  /** The entry's id: the store's own string (reading it back from the DOM would make a copy). */
  readonly entryId: string;
  update(entry: ThreadEntryMessage): void;
}

/** What the renderers may do besides building DOM. */
export interface RenderContext {
  /** Posts to the host (validated); false when the message was not valid. */
  post(message: ViewMessage): boolean;
  /** Moves focus to `element` after the next render, unless the user is typing elsewhere. */
  requestFocus(element: HTMLElement): void;
  /** The latest output of a terminal. */
  terminal(terminalId: string): TerminalState | undefined;
  /** Sign-in methods of the current agent, for auth errors. */
  authMethods(): readonly AuthMethod[];
  /** Shows paths relative to the workspace folders. */
  paths(): WorkspacePaths;
  /** Edit and resend: puts a past user message back in the composer (absent: no Edit action). */
  editMessage?(entry: MessageEntry): void;
}

export type AuthMethod = NonNullable<AgentStatus['authMethods']>[number];
