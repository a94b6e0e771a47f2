import type * as acp from '@agentclientprotocol/sdk';
import { assertNever, toolKindOf } from './normalize';
import { boundText } from './textBudget';
import type { ToolCallEntry, ToolContent, ToolLocation as Location } from './threadTypes';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A tool call's content with each text and each diff side cut at `limit` characters (marked as cut). */
export function boundToolContent(content: ToolContent, limit: number): ToolContent {
  switch (content.type) {
    case 'text': {
      const bounded = boundText(content.text, limit);
      return bounded.truncated ? { type: 'text', text: bounded.text, truncated: bounded.truncated } : content;
    }
    case 'diff': {
      const newSide = boundText(content.newText, limit);
      const oldSide = content.oldText === null ? undefined : boundText(content.oldText, limit);
      const truncated = newSide.truncated ?? oldSide?.truncated;
      return truncated
        ? { ...content, newText: newSide.text, oldText: oldSide ? oldSide.text : null, truncated }
        : content;
    }
    case 'terminal':
    case 'attachment':
      return content;
    default:
      return assertNever(content);
  }
}

/** A new tool call entry from the first update seen for its id. */
export function newToolCallEntry(
  id: string,
  turn: { turnId?: string },
  update: acp.ToolCallUpdate | acp.ToolCall,
  content: readonly ToolContent[] | undefined,
  locations: readonly Location[] | undefined,
): ToolCallEntry {
  return {
    kind: 'tool_call',
    id,
    ...turn,
    toolCallId: update.toolCallId,
    title: update.title || 'Tool call',
    toolKind: toolKindOf(update.kind),
    status: update.status ?? 'pending',
    content: content ? [...content] : [],
    locations: locations ? [...locations] : [],
  };
}

/** `existing` with what `update` says (fields it leaves out stay as they were). */
export function mergeToolCall(
  existing: ToolCallEntry,
  update: acp.ToolCallUpdate | acp.ToolCall,
  content: readonly ToolContent[] | undefined,
  locations: readonly Location[] | undefined,
): ToolCallEntry {
  const next: Mutable<ToolCallEntry> = { ...existing };
  if (update.title) {
    next.title = update.title;
  }
  if (update.kind) {
    next.toolKind = update.kind;
  }
  if (update.status) {
    next.status = update.status;
  }
  if (content) {
    next.content = [...content];
  }
  if (locations) {
    next.locations = [...locations];
  }
  return next;
}
