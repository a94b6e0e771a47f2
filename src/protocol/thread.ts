import * as z from 'zod/mini';
import type { DeepReadonly } from './deepReadonly';

/*
 * zod schemas for the thread as the webview receives it. They mirror src/core/threadTypes.ts;
 * test/unit/protocolTypes.test.ts checks at compile time that both stay the same shape.
 */

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

export const TruncationSchema = z.object({ limit: z.number(), omittedChars: z.number() });

const messageFields = {
  id: z.string(),
  turnId: z.optional(z.string()),
  text: z.string(),
  attachments: z.array(AttachmentSchema),
  truncated: z.optional(TruncationSchema),
  messageId: z.optional(z.string()),
};

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

export const PermissionOptionSchema = z.object({
  optionId: z.string(),
  name: z.string(),
  kind: z.enum(['allow_once', 'allow_always', 'reject_once', 'reject_always']),
});

export const PermissionStateSchema = z.object({
  key: z.string(),
  options: z.array(PermissionOptionSchema),
  status: z.enum(['pending', 'selected', 'cancelled']),
  selectedOptionId: z.optional(z.string()),
});

export const ThreadEntrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), ...messageFields }),
  z.object({ kind: z.literal('agent'), ...messageFields }),
  z.object({ kind: z.literal('thought'), ...messageFields }),
  z.object({
    kind: z.literal('tool_call'),
    id: z.string(),
    turnId: z.optional(z.string()),
    toolCallId: z.string(),
    title: z.string(),
    toolKind: ToolKindSchema,
    status: ToolStatusSchema,
    content: z.array(ToolContentSchema),
    locations: z.array(z.object({ path: z.string(), line: z.optional(z.number()) })),
    permission: z.optional(PermissionStateSchema),
  }),
]);

export const ConfigOptionSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('select'),
    id: z.string(),
    name: z.string(),
    description: z.optional(z.string()),
    category: z.optional(z.string()),
    currentValue: z.string(),
    choices: z.array(
      z.object({
        value: z.string(),
        name: z.string(),
        description: z.optional(z.string()),
        group: z.optional(z.string()),
      }),
    ),
  }),
  z.object({
    type: z.literal('boolean'),
    id: z.string(),
    name: z.string(),
    description: z.optional(z.string()),
    category: z.optional(z.string()),
    currentValue: z.boolean(),
  }),
]);

export const SessionStateSchema = z.object({
  title: z.optional(z.string()),
  usage: z.optional(
    z.object({
      used: z.number(),
      size: z.number(),
      cost: z.optional(z.object({ amount: z.number(), currency: z.string() })),
    }),
  ),
  modes: z.optional(
    z.object({
      currentModeId: z.string(),
      available: z.array(z.object({ id: z.string(), name: z.string(), description: z.optional(z.string()) })),
    }),
  ),
  configOptions: z.array(ConfigOptionSchema),
  commands: z.array(
    z.object({ name: z.string(), description: z.string(), inputHint: z.optional(z.string()) }),
  ),
  plan: z.array(
    z.object({
      content: z.string(),
      priority: z.enum(['high', 'medium', 'low']),
      status: z.enum(['pending', 'in_progress', 'completed']),
    }),
  ),
});

/**
 * One error shape end to end (core `ErrorDetails`): kind, message, the JSON-RPC code and the
 * agent's `data` as bounded text. Journaled with the turn, so the host keeps `data` small.
 */
export const ErrorDetailsSchema = z.object({
  kind: z.string(),
  message: z.string(),
  code: z.optional(z.number()),
  data: z.optional(z.string()),
});

export const TurnSchema = z.object({
  id: z.string(),
  status: z.enum(['running', 'completed', 'cancelled', 'interrupted', 'failed']),
  startedAt: z.number(),
  endedAt: z.optional(z.number()),
  stopReason: z.optional(z.enum(['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled'])),
  error: z.optional(ErrorDetailsSchema),
  stderrTail: z.optional(z.array(z.string())),
  checkpointId: z.optional(z.string()),
  changes: z.optional(
    z.object({
      files: z.array(
        z.object({
          path: z.string(),
          relativePath: z.string(),
          kind: z.enum(['created', 'modified', 'deleted']),
          added: z.number(),
          removed: z.number(),
          binary: z.optional(z.boolean()),
          decision: z.enum(['pending', 'kept', 'undone']),
        }),
      ),
      live: z.boolean(),
      coverage: z.enum(['full', 'limited']),
      afterCheckpointId: z.optional(z.string()),
    }),
  ),
  restoredAt: z.optional(z.number()),
});

export const NoticeSchema = z.object({
  severity: z.enum(['info', 'warning', 'error']),
  title: z.string(),
  description: z.optional(z.string()),
});

export const ThreadEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('entry_added'), entry: ThreadEntrySchema }),
  z.object({ type: z.literal('text_appended'), entryId: z.string(), text: z.string() }),
  z.object({ type: z.literal('entry_updated'), entry: ThreadEntrySchema }),
  z.object({
    type: z.literal('state_updated'),
    changed: z.enum(['title', 'usage', 'modes', 'configOptions', 'commands', 'plan']),
    state: SessionStateSchema,
  }),
  z.object({ type: z.literal('notice'), notice: NoticeSchema }),
  z.object({ type: z.literal('turn_started'), turn: TurnSchema }),
  z.object({ type: z.literal('turn_ended'), turn: TurnSchema }),
  z.object({ type: z.literal('turn_updated'), turn: TurnSchema }),
]);

export const ThreadSnapshotSchema = z.object({
  entries: z.array(ThreadEntrySchema),
  turns: z.array(TurnSchema),
  state: SessionStateSchema,
});

export type ThreadEntryMessage = DeepReadonly<z.infer<typeof ThreadEntrySchema>>;
export type ThreadEventMessage = DeepReadonly<z.infer<typeof ThreadEventSchema>>;
export type ThreadSnapshotMessage = DeepReadonly<z.infer<typeof ThreadSnapshotSchema>>;
export type SessionStateMessage = DeepReadonly<z.infer<typeof SessionStateSchema>>;
export type ErrorDetailsMessage = DeepReadonly<z.infer<typeof ErrorDetailsSchema>>;
export type TurnMessage = DeepReadonly<z.infer<typeof TurnSchema>>;
export type TurnChangesMessage = NonNullable<TurnMessage['changes']>;
export type TurnFileChangeMessage = TurnChangesMessage['files'][number];
export type ToolContentMessage = DeepReadonly<z.infer<typeof ToolContentSchema>>;
export type PermissionOptionMessage = DeepReadonly<z.infer<typeof PermissionOptionSchema>>;
export type ConfigOptionMessage = DeepReadonly<z.infer<typeof ConfigOptionSchema>>;
export type AttachmentMessage = DeepReadonly<z.infer<typeof AttachmentSchema>>;
