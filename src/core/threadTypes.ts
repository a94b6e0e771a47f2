/**
 * The thread: our own view model of an ACP session. ACP objects are translated into these types
 * at the core boundary (normalize.ts); nothing outside src/core sees raw ACP. Everything here is
 * plain JSON data, so it can be posted to the webview and journaled as is.
 */

/** Something attached to a message besides its text. */
export type Attachment =
  | { readonly type: 'resource_link'; readonly uri: string; readonly name: string; readonly title?: string }
  | { readonly type: 'resource'; readonly uri: string; readonly mimeType?: string; readonly chars: number }
  | { readonly type: 'image'; readonly mimeType: string; readonly uri?: string; readonly bytes: number }
  | { readonly type: 'audio'; readonly mimeType: string; readonly bytes: number };

/** Set on text that went over its size limit: the text ends with a visible marker. */
export interface Truncation {
  readonly limit: number;
  /** Characters received past the limit and dropped. */
  readonly omittedChars: number;
}

interface MessageBase {
  readonly id: string;
  /** The turn the entry belongs to; absent for history replayed by `session/load`. */
  readonly turnId?: string;
  readonly text: string;
  readonly attachments: readonly Attachment[];
  readonly truncated?: Truncation;
  /** The agent's message id, when it sends one: chunks with another id start a new message. */
  readonly messageId?: string;
}

export interface UserMessageEntry extends MessageBase {
  readonly kind: 'user';
}

export interface AgentMessageEntry extends MessageBase {
  readonly kind: 'agent';
}

export interface ThoughtEntry extends MessageBase {
  readonly kind: 'thought';
}

export type ToolKind =
  'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'think' | 'fetch' | 'switch_mode' | 'other';
export type ToolStatus = 'pending' | 'in_progress' | 'completed' | 'failed';

export type ToolContent =
  | { readonly type: 'text'; readonly text: string; readonly truncated?: Truncation }
  | {
      readonly type: 'diff';
      readonly path: string;
      readonly oldText: string | null;
      readonly newText: string;
      readonly truncated?: Truncation;
    }
  | { readonly type: 'terminal'; readonly terminalId: string }
  | { readonly type: 'attachment'; readonly attachment: Attachment };

export interface ToolLocation {
  readonly path: string;
  /** 1-based, when known. */
  readonly line?: number;
}

export type PermissionOptionKind = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';

export interface PermissionOption {
  readonly optionId: string;
  readonly name: string;
  readonly kind: PermissionOptionKind;
}

/** A permission the agent asked for on a tool call, and what became of it. */
export interface PermissionState {
  /** Our key for the request; answer it with `AgentSession.answerPermission(key, …)`. */
  readonly key: string;
  readonly options: readonly PermissionOption[];
  readonly status: 'pending' | 'selected' | 'cancelled';
  readonly selectedOptionId?: string;
}

export interface ToolCallEntry {
  readonly kind: 'tool_call';
  readonly id: string;
  readonly turnId?: string;
  readonly toolCallId: string;
  readonly title: string;
  readonly toolKind: ToolKind;
  readonly status: ToolStatus;
  readonly content: readonly ToolContent[];
  readonly locations: readonly ToolLocation[];
  readonly permission?: PermissionState;
}

export type ThreadEntry = UserMessageEntry | AgentMessageEntry | ThoughtEntry | ToolCallEntry;

export type PlanItemStatus = 'pending' | 'in_progress' | 'completed';
export interface PlanItem {
  readonly content: string;
  readonly priority: 'high' | 'medium' | 'low';
  readonly status: PlanItemStatus;
}

export interface AvailableCommand {
  readonly name: string;
  readonly description: string;
  /** Hint for the unstructured input the command takes, when it takes any. */
  readonly inputHint?: string;
}

export interface SessionMode {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
}

export interface ModeState {
  readonly currentModeId: string;
  readonly available: readonly SessionMode[];
}

export interface ConfigSelectChoice {
  readonly value: string;
  readonly name: string;
  readonly description?: string;
  readonly group?: string;
}

interface ConfigOptionBase {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly category?: string;
}

export type ConfigOption =
  | (ConfigOptionBase & {
      readonly type: 'select';
      readonly currentValue: string;
      readonly choices: readonly ConfigSelectChoice[];
    })
  | (ConfigOptionBase & { readonly type: 'boolean'; readonly currentValue: boolean });

export interface Usage {
  readonly used: number;
  readonly size: number;
  readonly cost?: { readonly amount: number; readonly currency: string };
}

export interface Notice {
  readonly severity: 'info' | 'warning' | 'error';
  readonly title: string;
  readonly description?: string;
}

/** Session-wide state that updates replace rather than append to. */
export interface SessionState {
  readonly title?: string;
  readonly usage?: Usage;
  readonly modes?: ModeState;
  readonly configOptions: readonly ConfigOption[];
  readonly commands: readonly AvailableCommand[];
  readonly plan: readonly PlanItem[];
}

export type StopReason = 'end_turn' | 'max_tokens' | 'max_turn_requests' | 'refusal' | 'cancelled';

export type TurnStatus = 'running' | 'completed' | 'cancelled' | 'interrupted' | 'failed';

/**
 * An error as the chat shows it and the journal keeps it (`errorDetails` makes one): the same
 * shape for a failed turn and for the agent's status.
 */
export interface ErrorDetails {
  /** See `AgentErrorKind`. */
  readonly kind: string;
  readonly message: string;
  /** The JSON-RPC error code, when the error came from the agent. */
  readonly code?: number;
  /** The agent's `data`: bounded, pretty-printed text to show as is (never as HTML). */
  readonly data?: string;
}

export type TurnError = ErrorDetails;

/** How a file differs after a turn. A rename shows as a deletion plus a creation. */
export type FileChangeKind = 'created' | 'modified' | 'deleted';

/** What the user decided about a file a turn changed. */
export type FileChangeDecision = 'pending' | 'kept' | 'undone';

/** One file a turn created, modified or deleted — whoever wrote it (the agent itself or through us). */
export interface TurnFileChange {
  /** Absolute path. */
  readonly path: string;
  /** Relative to its workspace folder (prefixed by the folder's name in a multi-root workspace). */
  readonly relativePath: string;
  readonly kind: FileChangeKind;
  readonly added: number;
  readonly removed: number;
  readonly binary?: boolean;
  readonly decision: FileChangeDecision;
}

/** The files a turn changed, for the "N files changed" card. */
export interface TurnChanges {
  readonly files: readonly TurnFileChange[];
  /** True while the turn runs and the list can still grow. */
  readonly live: boolean;
  /** `limited` when only files we wrote or tool calls named can be seen (git is not available). */
  readonly coverage: 'full' | 'limited';
  /** The workspace as the turn left it: tells whether the user edited a file since. */
  readonly afterCheckpointId?: string;
}

export interface Turn {
  readonly id: string;
  readonly status: TurnStatus;
  readonly startedAt: number;
  readonly endedAt?: number;
  /** Set when the agent answered the prompt. */
  readonly stopReason?: StopReason;
  /** Set when the turn failed (a classified JSON-RPC error) or was interrupted (the agent exited). */
  readonly error?: TurnError;
  /** The agent's last stderr lines, when it exited mid-turn. */
  readonly stderrTail?: readonly string[];
  /** The workspace as it was before the turn: "Restore checkpoint" goes back to it. */
  readonly checkpointId?: string;
  /** The files the turn changed. */
  readonly changes?: TurnChanges;
  /** When the workspace was restored to before this turn (the transcript is marked from here). */
  readonly restoredAt?: number;
}

/** Everything the thread emits, in order. Replaying them onto an empty thread rebuilds it. */
export type ThreadEvent =
  | { readonly type: 'entry_added'; readonly entry: ThreadEntry }
  /** Streaming text appended to a message or thought: only the delta travels. */
  | { readonly type: 'text_appended'; readonly entryId: string; readonly text: string }
  | { readonly type: 'entry_updated'; readonly entry: ThreadEntry }
  /** One part of the session-wide state changed (`changed` names it); the whole state travels. */
  | { readonly type: 'state_updated'; readonly changed: keyof SessionState; readonly state: SessionState }
  | { readonly type: 'notice'; readonly notice: Notice }
  | { readonly type: 'turn_started'; readonly turn: Turn }
  | { readonly type: 'turn_ended'; readonly turn: Turn }
  /** A turn's checkpoint, changes or restore mark changed (also after it ended). */
  | { readonly type: 'turn_updated'; readonly turn: Turn };

/** A full copy of a thread, for a view that (re)connects. */
export interface ThreadSnapshot {
  readonly entries: readonly ThreadEntry[];
  readonly turns: readonly Turn[];
  readonly state: SessionState;
}
