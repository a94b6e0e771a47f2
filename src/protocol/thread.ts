import * as z from 'zod/mini';
import type { DeepReadonly } from './deepReadonly';

/*
 * The thread: our own view model of an ACP session, and the one definition of it. ACP objects are
 * translated into these shapes at the core boundary (src/core/thread/normalize.ts); nothing outside
 * src/core sees raw ACP. Everything here is plain JSON data, so it is posted to the webview and
 * journaled as is. The schemas are the source: every type below is inferred from them (readonly —
 * neither side mutates what it received or sent), src/core/thread/threadTypes.ts re-exports them for the
 * core, and `applyThreadEvent` (./threadModel.ts) is the one place events change a thread.
 */

/**
 * Where the transcript given to a new session lives (a fork's earlier conversation, or a chat whose
 * session could not be taken up): `<prefix><chatId>.md`, an embedded resource only we write. The chat
 * names its chip for what it is rather than by that file name.
 */
export const TRANSCRIPT_URI_PREFIX = 'acp-agents:/transcripts/';

/** Something attached to a message besides its text. */
export const AttachmentSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('resource_link'),
    uri: z.string(),
    name: z.string(),
    title: z.optional(z.string()),
  }),
  z.object({
    type: z.literal('resource'),
    uri: z.string(),
    mimeType: z.optional(z.string()),
    chars: z.number(),
  }),
  z.object({
    type: z.literal('image'),
    mimeType: z.string(),
    uri: z.optional(z.string()),
    bytes: z.number(),
  }),
  z.object({ type: z.literal('audio'), mimeType: z.string(), bytes: z.number() }),
]);

/** Set on text that went over its size limit: the text ends with a visible marker. */
export const TruncationSchema = z.object({
  limit: z.number(),
  /** Characters received past the limit and dropped. */
  omittedChars: z.number(),
});

const messageFields = {
  id: z.string(),
  /** The turn the entry belongs to; absent for history replayed by `session/load`. */
  turnId: z.optional(z.string()),
  text: z.string(),
  attachments: z.array(AttachmentSchema),
  truncated: z.optional(TruncationSchema),
  /** The agent's message id, when it sends one: chunks with another id start a new message. */
  messageId: z.optional(z.string()),
};

export const UserMessageEntrySchema = z.object({ kind: z.literal('user'), ...messageFields });
export const AgentMessageEntrySchema = z.object({ kind: z.literal('agent'), ...messageFields });
export const ThoughtEntrySchema = z.object({ kind: z.literal('thought'), ...messageFields });

export const ToolKindSchema = z.enum([
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
]);
export const ToolStatusSchema = z.enum(['pending', 'in_progress', 'completed', 'failed']);

export const ToolContentSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string(), truncated: z.optional(TruncationSchema) }),
  z.object({
    type: z.literal('diff'),
    path: z.string(),
    oldText: z.nullable(z.string()),
    newText: z.string(),
    truncated: z.optional(TruncationSchema),
  }),
  /** The output travels separately, as `terminal_output` messages. */
  z.object({ type: z.literal('terminal'), terminalId: z.string() }),
  z.object({ type: z.literal('attachment'), attachment: AttachmentSchema }),
]);

export const ToolLocationSchema = z.object({
  path: z.string(),
  /** 1-based, when known. */
  line: z.optional(z.number()),
});

export const PermissionOptionKindSchema = z.enum([
  'allow_once',
  'allow_always',
  'reject_once',
  'reject_always',
]);

export const PermissionOptionSchema = z.object({
  optionId: z.string(),
  name: z.string(),
  kind: PermissionOptionKindSchema,
});

/** A permission the agent asked for on a tool call, and what became of it. */
export const PermissionStateSchema = z.object({
  /** Our key for the request; answer it with `AgentSession.answerPermission(key, …)`. */
  key: z.string(),
  options: z.array(PermissionOptionSchema),
  status: z.enum(['pending', 'selected', 'cancelled']),
  selectedOptionId: z.optional(z.string()),
  /** While pending: how many more requests of the session wait behind this one ("3 more requests"). */
  waiting: z.optional(z.number()),
});

export const ToolCallEntrySchema = z.object({
  kind: z.literal('tool_call'),
  id: z.string(),
  turnId: z.optional(z.string()),
  toolCallId: z.string(),
  title: z.string(),
  toolKind: ToolKindSchema,
  status: ToolStatusSchema,
  content: z.array(ToolContentSchema),
  locations: z.array(ToolLocationSchema),
  permission: z.optional(PermissionStateSchema),
});

/** One entry of the transcript. A new kind of entry is added here, and only here. */
export const ThreadEntrySchema = z.discriminatedUnion('kind', [
  UserMessageEntrySchema,
  AgentMessageEntrySchema,
  ThoughtEntrySchema,
  ToolCallEntrySchema,
]);

export const PlanItemStatusSchema = z.enum(['pending', 'in_progress', 'completed']);
export const PlanItemSchema = z.object({
  content: z.string(),
  priority: z.enum(['high', 'medium', 'low']),
  status: PlanItemStatusSchema,
});

export const AvailableCommandSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** Hint for the unstructured input the command takes, when it takes any. */
  inputHint: z.optional(z.string()),
});

export const SessionModeSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.optional(z.string()),
});

export const ModeStateSchema = z.object({
  currentModeId: z.string(),
  available: z.array(SessionModeSchema),
});

export const ConfigSelectChoiceSchema = z.object({
  value: z.string(),
  name: z.string(),
  description: z.optional(z.string()),
  group: z.optional(z.string()),
});

const configOptionFields = {
  id: z.string(),
  name: z.string(),
  description: z.optional(z.string()),
  category: z.optional(z.string()),
};

export const ConfigOptionSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('select'),
    ...configOptionFields,
    currentValue: z.string(),
    choices: z.array(ConfigSelectChoiceSchema),
  }),
  z.object({ type: z.literal('boolean'), ...configOptionFields, currentValue: z.boolean() }),
]);

export const UsageSchema = z.object({
  used: z.number(),
  size: z.number(),
  cost: z.optional(z.object({ amount: z.number(), currency: z.string() })),
});

export const NoticeSchema = z.object({
  severity: z.enum(['info', 'warning', 'error']),
  title: z.string(),
  description: z.optional(z.string()),
});

/** Session-wide state that updates replace rather than append to. */
export const SessionStateSchema = z.object({
  title: z.optional(z.string()),
  usage: z.optional(UsageSchema),
  modes: z.optional(ModeStateSchema),
  configOptions: z.array(ConfigOptionSchema),
  commands: z.array(AvailableCommandSchema),
  plan: z.array(PlanItemSchema),
});

export const StopReasonSchema = z.enum([
  'end_turn',
  'max_tokens',
  'max_turn_requests',
  'refusal',
  'cancelled',
]);

export const TurnStatusSchema = z.enum(['running', 'completed', 'cancelled', 'interrupted', 'failed']);

/**
 * One error shape end to end: kind, message, the JSON-RPC code and the agent's `data` as bounded
 * text (`errorDetails` in src/core/connection/errors.ts makes one). The same for a failed turn and the agent's
 * status; journaled with the turn, so the host keeps `data` small.
 */
export const ErrorDetailsSchema = z.object({
  /** See `AgentErrorKind`. */
  kind: z.string(),
  message: z.string(),
  /** The JSON-RPC error code, when the error came from the agent. */
  code: z.optional(z.number()),
  /** The agent's `data`: bounded, pretty-printed text to show as is (never as HTML). */
  data: z.optional(z.string()),
});

export const TurnErrorSchema = ErrorDetailsSchema;

/** How a file differs after a turn. A rename shows as a deletion plus a creation. */
export const FileChangeKindSchema = z.enum(['created', 'modified', 'deleted']);

/** What the user decided about a file a turn changed. */
export const FileChangeDecisionSchema = z.enum(['pending', 'kept', 'undone']);

/** One file a turn created, modified or deleted — whoever wrote it (the agent itself or through us). */
/** How many changes of one file can be kept one at a time (the rest: Keep of the file, on the card). */
export const MAX_KEPT_HUNKS = 2000;

export const TurnFileChangeSchema = z.object({
  /** Absolute path. */
  path: z.string(),
  /** Relative to its workspace folder (prefixed by the folder's name in a multi-root workspace). */
  relativePath: z.string(),
  kind: FileChangeKindSchema,
  added: z.number(),
  removed: z.number(),
  binary: z.optional(z.boolean()),
  decision: FileChangeDecisionSchema,
  /** Created, but it was ignored (not recorded) before the turn, so it may have existed: Undo leaves it. */
  beforeUnknown: z.optional(z.boolean()),
  /** Why the last Undo left this file as it is (e.g. a folder on its path is now a link to outside). */
  problem: z.optional(z.string()),
  /**
   * It is a symbolic link the turn made (deleted: one it removed), naming `target` as written; `outside`:
   * the target is not in the workspace, so the agent may have changed files outside it through the link.
   */
  link: z.optional(z.object({ target: z.string().check(z.maxLength(1024)), outside: z.boolean() })),
  /**
   * The changes of this file the user kept one at a time in the editor, each named by its content (the hunk
   * review's `hunkKey`), so that they stay kept after a reload; at most `MAX_KEPT_HUNKS`.
   */
  keptHunks: z.optional(z.array(z.string().check(z.maxLength(64))).check(z.maxLength(MAX_KEPT_HUNKS))),
});

/** The files a turn changed, for the "N files changed" card. */
export const TurnChangesSchema = z.object({
  files: z.array(TurnFileChangeSchema),
  /** True while the turn runs and the list can still grow. */
  live: z.boolean(),
  /** `limited` when only files we wrote or tool calls named can be seen (git is not available). */
  coverage: z.enum(['full', 'limited']),
  /** The workspace as the turn left it: tells whether the user edited a file since. */
  afterCheckpointId: z.optional(z.string()),
  /** Folders whose changes are not tracked (nested git repositories, submodules), relative, ending in `/`. */
  untracked: z.optional(z.array(z.string())),
});

export const TurnSchema = z.object({
  id: z.string(),
  status: TurnStatusSchema,
  startedAt: z.number(),
  endedAt: z.optional(z.number()),
  /** Set when the agent answered the prompt. */
  stopReason: z.optional(StopReasonSchema),
  /** Set when the turn failed (a classified JSON-RPC error) or was interrupted (the agent exited). */
  error: z.optional(TurnErrorSchema),
  /** The agent's last stderr lines, when it exited mid-turn. */
  stderrTail: z.optional(z.array(z.string())),
  /** The workspace as it was before the turn: "Restore checkpoint" goes back to it. */
  checkpointId: z.optional(z.string()),
  /**
   * What is wrong with the checkpoint from before the turn: why there is none (its changes cannot be listed
   * or undone), or that it was taken late, while the turn ran (what changed before then is not listed).
   */
  checkpointProblem: z.optional(z.string()),
  /** The files the turn changed. */
  changes: z.optional(TurnChangesSchema),
  /** When the workspace was restored to before this turn (the transcript is marked from here). */
  restoredAt: z.optional(z.number()),
});

/** Everything the thread emits, in order. Replaying them onto an empty thread rebuilds it. */
export const ThreadEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('entry_added'), entry: ThreadEntrySchema }),
  /** Streaming text appended to a message or thought: only the delta travels. */
  z.object({ type: z.literal('text_appended'), entryId: z.string(), text: z.string() }),
  z.object({ type: z.literal('entry_updated'), entry: ThreadEntrySchema }),
  /**
   * One part of the session-wide state changed (`changed` names it). Only that part travels (and is
   * journaled): a 50-byte usage update must not rewrite megabytes of commands. Without it the part is
   * cleared. Journals written before kept the whole state here; it applies the same.
   */
  z.object({
    type: z.literal('state_updated'),
    changed: z.keyof(SessionStateSchema),
    state: z.partial(SessionStateSchema),
  }),
  z.object({ type: z.literal('notice'), notice: NoticeSchema }),
  z.object({ type: z.literal('turn_started'), turn: TurnSchema }),
  z.object({ type: z.literal('turn_ended'), turn: TurnSchema }),
  /** A turn's checkpoint, changes or restore mark changed (also after it ended). */
  z.object({ type: z.literal('turn_updated'), turn: TurnSchema }),
]);

/** A full copy of a thread, for a view that (re)connects. */
export const ThreadSnapshotSchema = z.object({
  entries: z.array(ThreadEntrySchema),
  turns: z.array(TurnSchema),
  state: SessionStateSchema,
});

/** The type a schema describes, as a value: readonly all the way down. */
type Data<Schema extends z.ZodMiniType> = DeepReadonly<z.infer<Schema>>;

export type Attachment = Data<typeof AttachmentSchema>;
export type Truncation = Data<typeof TruncationSchema>;
export type UserMessageEntry = Data<typeof UserMessageEntrySchema>;
export type AgentMessageEntry = Data<typeof AgentMessageEntrySchema>;
export type ThoughtEntry = Data<typeof ThoughtEntrySchema>;
export type ToolKind = Data<typeof ToolKindSchema>;
export type ToolStatus = Data<typeof ToolStatusSchema>;
export type ToolContent = Data<typeof ToolContentSchema>;
export type ToolLocation = Data<typeof ToolLocationSchema>;
export type PermissionOptionKind = Data<typeof PermissionOptionKindSchema>;
export type PermissionOption = Data<typeof PermissionOptionSchema>;
export type PermissionState = Data<typeof PermissionStateSchema>;
export type ToolCallEntry = Data<typeof ToolCallEntrySchema>;
export type ThreadEntry = Data<typeof ThreadEntrySchema>;
export type PlanItemStatus = Data<typeof PlanItemStatusSchema>;
export type PlanItem = Data<typeof PlanItemSchema>;
export type AvailableCommand = Data<typeof AvailableCommandSchema>;
export type SessionMode = Data<typeof SessionModeSchema>;
export type ModeState = Data<typeof ModeStateSchema>;
export type ConfigSelectChoice = Data<typeof ConfigSelectChoiceSchema>;
export type ConfigOption = Data<typeof ConfigOptionSchema>;
export type Usage = Data<typeof UsageSchema>;
export type Notice = Data<typeof NoticeSchema>;
export type SessionState = Data<typeof SessionStateSchema>;
export type StopReason = Data<typeof StopReasonSchema>;
export type TurnStatus = Data<typeof TurnStatusSchema>;
export type ErrorDetails = Data<typeof ErrorDetailsSchema>;
export type TurnError = ErrorDetails;
export type FileChangeKind = Data<typeof FileChangeKindSchema>;
export type FileChangeDecision = Data<typeof FileChangeDecisionSchema>;
export type TurnFileChange = Data<typeof TurnFileChangeSchema>;
export type TurnChanges = Data<typeof TurnChangesSchema>;
export type Turn = Data<typeof TurnSchema>;
export type ThreadEvent = Data<typeof ThreadEventSchema>;
export type ThreadSnapshot = Data<typeof ThreadSnapshotSchema>;

/*
 * The same types under the names the webview has always used for what it receives (its render
 * code reads them); they are aliases, not copies.
 */
export type ThreadEntryMessage = ThreadEntry;
export type ThreadEventMessage = ThreadEvent;
export type ThreadSnapshotMessage = ThreadSnapshot;
export type SessionStateMessage = SessionState;
export type ErrorDetailsMessage = ErrorDetails;
export type TurnMessage = Turn;
export type TurnChangesMessage = TurnChanges;
export type TurnFileChangeMessage = TurnFileChange;
export type ToolContentMessage = ToolContent;
export type PermissionOptionMessage = PermissionOption;
export type ConfigOptionMessage = ConfigOption;
export type AttachmentMessage = Attachment;
