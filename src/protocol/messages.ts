import * as z from 'zod/mini';
import { AgentSessionsMessageSchema, ListAgentSessionsSchema, OpenAgentSessionSchema } from './agentSessions';
import type { DeepReadonly } from './deepReadonly';
import { ElicitationAnswerSchema, ElicitationSchema } from './elicitation';
import { ErrorDetailsSchema, ThreadEventSchema, ThreadSnapshotSchema } from './thread';
import {
  WorktreeActionSchema,
  WorktreeInfoSchema,
  WorktreeMessageSchema,
  WorktreeOfferSchema,
} from './worktrees';

/*
 * The host ⇄ webview protocol: one discriminated union per direction. Each side parses what it
 * receives with these schemas; a message that does not parse is reported, never acted on.
 */

export const AgentOptionSchema = z.object({
  id: z.string(),
  label: z.string(),
  description: z.optional(z.string()),
});

export const AuthMethodSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.optional(z.string()),
});

/** What the agent takes in a prompt besides text (its `promptCapabilities`), so the composer can say so early. */
export const PromptCapabilitiesSchema = z.object({
  image: z.optional(z.boolean()),
  embeddedContext: z.optional(z.boolean()),
});

/** Where the selected agent is: not started, starting, ready, or failed (with a classified error). */
export const AgentStatusSchema = z.object({
  state: z.enum(['idle', 'starting', 'ready', 'error']),
  agentName: z.optional(z.string()),
  error: z.optional(z.extend(ErrorDetailsSchema, { stderrTail: z.optional(z.array(z.string())) })),
  /** Sign-in methods the agent offers (shown with an auth_required error). */
  authMethods: z.optional(z.array(AuthMethodSchema)),
  /** Known once the agent is ready. */
  promptCapabilities: z.optional(PromptCapabilitiesSchema),
  /**
   * The agent's latest fatal-looking stderr line while a message waits on it (its start, its session's
   * setup): shown as it arrives, not only once the wait is over. Scrubbed and bounded by the host.
   */
  said: z.optional(z.string().check(z.maxLength(1000))),
});

export const ChatSchema = z.object({
  chatId: z.string(),
  thread: ThreadSnapshotSchema,
  /** Set while the chat's journal cannot be written ("This chat is not being saved: …"). */
  saveProblem: z.optional(z.string()),
  /** The workspace folder chosen for the chat's agent (multi-root); absent: the first folder. */
  cwd: z.optional(z.string()),
  /** With `saveProblem`: another window writes this chat, so this one is read-only (the composer is locked). */
  readOnly: z.optional(z.literal(true)),
});

/**
 * What a chat is doing, shown in the chat list, its tab and the badge: a turn runs; it waits for the user
 * (a permission, a question, a sign-in); a turn ended unseen; a turn failed unseen. Absent: idle, seen.
 */
export const ChatActivityStateSchema = z.enum(['running', 'waiting', 'unread', 'failed']);

/** One line of the chat list. */
export const ChatSummarySchema = z.object({
  chatId: z.string(),
  title: z.string(),
  agentId: z.string(),
  agentLabel: z.string(),
  updatedAt: z.number(),
  running: z.boolean(),
  /** The agent can delete this chat's session on its side too (`session/delete`). */
  deletableOnAgent: z.optional(z.boolean()),
  /** The chat this one forks (Edit and resend): the list shows it under that one. */
  forkOf: z.optional(z.string()),
  activity: z.optional(ChatActivityStateSchema),
  /** With `activity: waiting`: what for ("permission: Edit README.md"). */
  waitingFor: z.optional(z.string().check(z.maxLength(300))),
});

/** What an @-mention points at; absent on an attachment means a file. */
export const MentionKindSchema = z.enum([
  'file',
  'folder',
  'editor',
  'selection',
  'symbol',
  'problems',
  'chat',
]);

/** Lines of a file (1-based, inclusive): a selection or a symbol. */
export const LineRangeSchema = z
  .object({ startLine: z.int().check(z.positive()), endLine: z.int().check(z.positive()) })
  .check(z.refine((range) => range.endLine >= range.startLine, 'endLine must not be before startLine'));

/**
 * Something attached to the next message: a file (explorer "Add File to Chat", a drop, the
 * paperclip) or an @-mention of a folder, a selection, a symbol, a file's problems or a chat.
 */
export const AttachmentRefSchema = z.object({
  uri: z.string(),
  name: z.string(),
  kind: z.optional(MentionKindSchema),
  range: z.optional(LineRangeSchema),
});

/** The active editor's file as the composer offers it: attached as an @-mentioned file is when sent. */
export const CurrentFileSchema = z.object({
  uri: z.string().check(z.maxLength(4096)),
  name: z.string().check(z.maxLength(300)),
  kind: z.literal('file'),
});

/** One entry of the @-mention picker: what it attaches, plus a line of detail (a path, a container). */
export const MentionSchema = z.extend(AttachmentRefSchema, { detail: z.optional(z.string()) });

/** Images the composer sends as image blocks (pasted or dropped); bounded by the view and here. */
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** A text file dropped from the OS into a browser window has no path: its text goes along (bounded). */
export const MAX_DROPPED_TEXT_CHARS = 1_000_000;
export const DroppedTextFileSchema = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(300)),
  text: z.string().check(z.maxLength(MAX_DROPPED_TEXT_CHARS)),
});
export const ImageAttachmentSchema = z.object({
  name: z.string().check(z.maxLength(300)),
  mimeType: z.enum(IMAGE_MIME_TYPES),
  /** Base64, without a `data:` prefix. */
  data: z
    .string()
    .check(z.maxLength(Math.ceil(MAX_IMAGE_BYTES / 3) * 4), z.regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64')),
});

/** A file write waiting for Keep or Undo (`acpAgents.edits.review: ask`). */
export const EditReviewSchema = z.object({
  id: z.string(),
  path: z.string(),
  /** True when the agent creates the file. */
  isNew: z.boolean(),
});

/** An error or warning that appeared in a file the agent changed. */
export const ProblemSchema = z.object({
  /** Relative to its workspace folder. */
  path: z.string(),
  line: z.int().check(z.positive()),
  severity: z.enum(['error', 'warning']),
  message: z.string(),
  source: z.optional(z.string()),
});

/** "Fix N new problems": offered after the turn `turnId` left new problems in the files it changed. */
export const ProblemsOfferSchema = z.object({
  turnId: z.string(),
  problems: z.array(ProblemSchema).check(z.minLength(1)),
});

/** Everything the view shows, sent after `ready` and whenever the view must start over. */
export const ViewStateSchema = z.object({
  agents: z.array(AgentOptionSchema),
  selectedAgentId: z.optional(z.string()),
  status: AgentStatusSchema,
  chat: z.optional(ChatSchema),
  /** Every chat, most recently used first. */
  chats: z.optional(z.array(ChatSummarySchema)),
  /** File writes waiting for the user's Keep or Undo. */
  editReviews: z.optional(z.array(EditReviewSchema)),
  /** Files waiting on the composer for the next message. */
  attachments: z.optional(z.array(AttachmentRefSchema)),
  /** The workspace folders' absolute paths: the view shows paths inside them relative, as VS Code does. */
  workspaceFolders: z.optional(z.array(z.string())),
  /** New problems in the files the active chat's last turn changed. */
  problemsOffer: z.optional(ProblemsOfferSchema),
  /** The agent's questions (forms, URLs) waiting for the user in the active chat, oldest first. */
  elicitations: z.optional(z.array(ElicitationSchema)),
  /** The active editor's file, offered on the composer as a removable chip (`acpAgents.chat.offerCurrentFile`). */
  currentFile: z.optional(CurrentFileSchema),
  /** The chat's own git worktree, when it works in one. */
  worktree: z.optional(WorktreeInfoSchema),
  /** For an empty chat: whether it can start in a new worktree. */
  worktreeOffer: z.optional(WorktreeOfferSchema),
});

export const TerminalOutputSchema = z.object({
  terminalId: z.string(),
  /** The output; with `append`, only what follows the output sent before for this terminal. */
  output: z.string(),
  append: z.optional(z.literal(true)),
  truncated: z.boolean(),
  exitStatus: z.optional(z.object({ exitCode: z.nullable(z.number()), signal: z.nullable(z.string()) })),
});

export const HostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('snapshot'), view: ViewStateSchema }),
  /** Coalesced thread events of one chat, in order. */
  z.object({ type: z.literal('thread_events'), chatId: z.string(), events: z.array(ThreadEventSchema) }),
  z.object({ type: z.literal('agent_status'), status: AgentStatusSchema }),
  z.object({ type: z.literal('terminal_output'), terminal: TerminalOutputSchema }),
  /** The active editor's file changed (absent: none to offer: no editor, untitled, outside the workspace, off). */
  z.object({ type: z.literal('current_file'), file: z.optional(CurrentFileSchema) }),
  /** Put a file on the composer as an attachment of the next message. */
  z.object({ type: z.literal('add_attachment'), attachment: AttachmentRefSchema }),
  /** The chat list changed (a title, a running turn, a chat added or deleted). */
  z.object({ type: z.literal('chats'), chats: z.array(ChatSummarySchema), activeChatId: z.string() }),
  /**
   * One chat of the list the view holds changed, moved, or both (a turn's start and end touch one chat): it goes
   * to `index` (`withChatAt`). Sent instead of the whole list only when that gives the host's list exactly.
   */
  z.object({
    type: z.literal('chat_changed'),
    chat: ChatSummarySchema,
    index: z.int().check(z.nonnegative()),
  }),
  /** The active chat's "not being saved" notice appeared or went away (no `message`). */
  z.object({
    type: z.literal('save_problem'),
    chatId: z.string(),
    message: z.optional(z.string()),
    readOnly: z.optional(z.literal(true)),
  }),
  /** The file writes waiting for Keep or Undo changed. */
  z.object({ type: z.literal('edit_reviews'), reviews: z.array(EditReviewSchema) }),
  /** The active chat's "Fix N new problems" offer appeared, or went away (no `offer`). */
  z.object({ type: z.literal('problems_offer'), chatId: z.string(), offer: z.optional(ProblemsOfferSchema) }),
  /** The agent asks a question in chat `chatId` (each change is posted alone, never the whole list). */
  z.object({ type: z.literal('elicitation_added'), chatId: z.string(), item: ElicitationSchema }),
  /** A question of chat `chatId` was answered, cancelled or withdrawn. */
  z.object({ type: z.literal('elicitation_settled'), chatId: z.string(), key: z.string() }),
  /** The answer to `key` was not sent: what is wrong, by field (the agent's patterns run only on the host). */
  z.object({
    type: z.literal('elicitation_problems'),
    chatId: z.string(),
    key: z.string(),
    problems: z.record(z.string(), z.string()),
  }),
  /**
   * The view's message was not sent because the user cancelled a step before it (the restore asked for
   * by an edit's resend): it goes back to the composer, editing as it was.
   */
  z.object({ type: z.literal('send_cancelled') }),
  /** Something the host could not do for the view (a bad message, a failed command). */
  z.object({ type: z.literal('error'), message: z.string(), details: z.optional(ErrorDetailsSchema) }),
  /** Open the chat list, or close it when open (the view title's, or the chat tab's, Show Chats). */
  z.object({ type: z.literal('show_chat_list') }),
  /**
   * Open Chat: VS Code is asked to focus the view between `start` and `end`. It hands the focus on to the view's
   * page itself, but not always: a focus it hands on while its own state still says "blurred" is dropped, and stays
   * in the frame hosting the page (seen under load). A page the focus did not reach between the two takes it.
   */
  z.object({ type: z.literal('focus_handoff'), step: z.enum(['start', 'end']) }),
  /** The answer to the view's `mention_query` with the same `requestId`, best first. */
  z.object({
    type: z.literal('mention_results'),
    requestId: z.int(),
    items: z.array(MentionSchema).check(z.maxLength(200)),
  }),
  AgentSessionsMessageSchema,
  WorktreeMessageSchema,
]);

/** What a message from the composer carries (a send, or an edit and resend). */
const SEND_FIELDS = {
  text: z.string().check(z.minLength(1), z.maxLength(1_000_000)),
  attachments: z.optional(z.array(AttachmentRefSchema).check(z.maxLength(50))),
  images: z.optional(z.array(ImageAttachmentSchema).check(z.maxLength(10))),
  textFiles: z.optional(z.array(DroppedTextFileSchema).check(z.maxLength(10))),
};

export const ViewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('send'), ...SEND_FIELDS }),
  z.object({ type: z.literal('cancel') }),
  z.object({ type: z.literal('answer_permission'), key: z.string(), optionId: z.nullable(z.string()) }),
  /** The user's answer to the agent's question `key`: the form's values, decline or cancel; for a URL, accept opens it. */
  z.object({ type: z.literal('answer_elicitation'), key: z.string(), answer: ElicitationAnswerSchema }),
  z.object({ type: z.literal('select_agent'), agentId: z.string() }),
  z.object({ type: z.literal('set_mode'), modeId: z.string() }),
  z.object({
    type: z.literal('set_config_option'),
    configId: z.string(),
    value: z.union([z.string(), z.boolean()]),
  }),
  z.object({ type: z.literal('open_file'), path: z.string(), line: z.optional(z.int().check(z.positive())) }),
  z.object({ type: z.literal('open_url'), url: z.url() }),
  z.object({ type: z.literal('authenticate'), methodId: z.string() }),
  z.object({ type: z.literal('restart_agent') }),
  z.object({ type: z.literal('new_chat') }),
  /** Multi-root: the folder the view's (empty) chat's agent works in. */
  z.object({ type: z.literal('set_chat_folder'), folder: z.string().check(z.maxLength(4_096)) }),
  z.object({ type: z.literal('switch_chat'), chatId: z.string() }),
  z.object({ type: z.literal('rename_chat'), chatId: z.string(), title: z.string().check(z.maxLength(200)) }),
  z.object({
    type: z.literal('delete_chat'),
    chatId: z.string(),
    /** Also delete the chat's session on the agent's side (`session/delete`). */
    onAgent: z.optional(z.boolean()),
  }),
  /** The user took a file off the composer. */
  z.object({ type: z.literal('remove_attachment'), uri: z.string() }),
  /** Keep or Undo a file write the agent proposed. */
  z.object({ type: z.literal('answer_review'), id: z.string(), decision: z.enum(['keep', 'undo']) }),
  /** Send the last prompt again (after an interrupted or failed turn). */
  z.object({ type: z.literal('retry') }),
  /**
   * The change card of a turn: `diff` opens one file's diff (before the turn ↔ now), or every file's in
   * the multi-file diff editor when `path` is absent ("Review all"); `keep` / `undo` one file or all.
   */
  z.object({
    type: z.literal('turn_changes'),
    turnId: z.string(),
    action: z.enum(['diff', 'keep', 'undo']),
    path: z.optional(z.string()),
  }),
  /** Put the workspace back to how it was before the turn's message (after a confirmation). */
  z.object({ type: z.literal('restore_checkpoint'), turnId: z.string() }),
  /** The user started writing a message: the next turn's checkpoint may be taken ahead of Send. */
  z.object({ type: z.literal('composing') }),
  /** The failed-start banner's "Check agents": run the agent doctor (ACP: Check Agents). */
  z.object({ type: z.literal('check_agents') }),
  /** A failure card's "Show Agent Log": the agents' output channel (ACP: Show Agent Log). */
  z.object({ type: z.literal('show_log') }),
  /** The Restricted Mode notice's "Manage Workspace Trust" (`workbench.trust.manage`). */
  z.object({ type: z.literal('manage_trust') }),
  /** ACP: Add Agent… (the empty state's and the failed-start banner's button). */
  z.object({ type: z.literal('add_agent') }),
  /** Send the offered problems of turn `turnId` to the agent as the next prompt. */
  z.object({ type: z.literal('fix_problems'), turnId: z.string() }),
  /** Drop the "Fix N new problems" offer. */
  z.object({ type: z.literal('dismiss_problems') }),
  /** The @-mention picker's text after "@"; answered by `mention_results`. */
  z.object({
    type: z.literal('mention_query'),
    query: z.string().check(z.maxLength(200)),
    requestId: z.int(),
  }),
  /** The paperclip: pick files to attach (the host shows its file dialog). */
  z.object({ type: z.literal('pick_files') }),
  /** A tool card's "Open in terminal": the agent terminal `terminalId` of the view's chat, in the terminal panel. */
  z.object({ type: z.literal('open_terminal'), terminalId: z.string().check(z.maxLength(200)) }),
  // "Open the whole message" under a message cut in the middle: the message as journaled, in an editor.
  z.object({ type: z.literal('open_message'), entryId: z.string() }),
  ListAgentSessionsSchema,
  OpenAgentSessionSchema,
  /** Edit and resend: fork the chat before user message `entryId` and send there (restoring its checkpoint first). */
  z.object({
    type: z.literal('edit_resend'),
    entryId: z.string(),
    restoreCheckpoint: z.optional(z.boolean()),
    ...SEND_FIELDS,
  }),
  WorktreeActionSchema,
]);

export type AgentOption = DeepReadonly<z.infer<typeof AgentOptionSchema>>;
export type AgentStatus = DeepReadonly<z.infer<typeof AgentStatusSchema>>;
export type EditReview = DeepReadonly<z.infer<typeof EditReviewSchema>>;
export type ChatSummary = DeepReadonly<z.infer<typeof ChatSummarySchema>>;
export type ChatActivityState = z.infer<typeof ChatActivityStateSchema>;
export type ViewState = DeepReadonly<z.infer<typeof ViewStateSchema>>;
export type ProblemsOfferMessage = DeepReadonly<z.infer<typeof ProblemsOfferSchema>>;
export type CurrentFile = DeepReadonly<z.infer<typeof CurrentFileSchema>>;
export type AttachmentRef = DeepReadonly<z.infer<typeof AttachmentRefSchema>>;
export type MentionKind = z.infer<typeof MentionKindSchema>;
export type Mention = DeepReadonly<z.infer<typeof MentionSchema>>;
export type ImageAttachment = DeepReadonly<z.infer<typeof ImageAttachmentSchema>>;
export type DroppedTextFile = DeepReadonly<z.infer<typeof DroppedTextFileSchema>>;
export type PromptCapabilitiesMessage = DeepReadonly<z.infer<typeof PromptCapabilitiesSchema>>;
export type TerminalOutputMessage = DeepReadonly<z.infer<typeof TerminalOutputSchema>>;
export type HostMessage = DeepReadonly<z.infer<typeof HostMessageSchema>>;
/**
 * What one `postMessage` to a chat page carries: a message, or the messages of one turn of the host's event
 * loop sent together, in order (one trip through VS Code's window; the page renders them in one frame). The
 * page parses each message on its own, so a bad one costs only itself.
 */
export type HostPost = HostMessage | readonly HostMessage[];
export type ViewMessage = DeepReadonly<z.infer<typeof ViewMessageSchema>>;
