import * as nodePath from 'node:path';
import { fileUri } from '../../../chat/attachmentBlocks';
import type { PromptBlock } from '../../../core/session/promptBlocks';
import type { AttachmentRef } from '../../../protocol';
import { lineText, linesOf } from '../core/hunks';
import type { CurrentContent } from './hunkReviewPorts';

/** The scheme of a feedback note's chip: the note itself travels in it, so it survives a reload. */
export const NOTE_SCHEME = 'acp-note:';
/** A note longer than this is cut (it is a short request, not a document). */
export const MAX_NOTE_CHARS = 2000;
/** At most this many of the lines a note is about go with it (the agent can read the rest). */
export const MAX_NOTE_EXCERPT_LINES = 200;

/** "Ask for a change…" on lines of a changed file: what the user wants done there. */
export interface FeedbackNote {
  readonly path: string;
  /** 1-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  readonly note: string;
}

/** The composer's chip for `note`: `file.ts:12-15` with the note in its URI. */
export function noteAttachment(note: FeedbackNote): AttachmentRef {
  const bounded = { ...note, note: note.note.trim().slice(0, MAX_NOTE_CHARS) };
  const payload = Buffer.from(JSON.stringify(bounded), 'utf8').toString('base64url');
  const lines = note.startLine === note.endLine ? `${note.startLine}` : `${note.startLine}-${note.endLine}`;
  return {
    uri: `${NOTE_SCHEME}${payload}`,
    name: `Change ${nodePath.basename(note.path)}:${lines}`,
    kind: 'selection',
    range: { startLine: note.startLine, endLine: note.endLine },
  };
}

/** The note a chip carries, or undefined when it is not a (well-formed) note's chip. */
export function noteOf(attachment: AttachmentRef): FeedbackNote | undefined {
  if (!attachment.uri.startsWith(NOTE_SCHEME)) {
    return undefined;
  }
  try {
    const raw = Buffer.from(attachment.uri.slice(NOTE_SCHEME.length), 'base64url').toString('utf8');
    const value = JSON.parse(raw) as Partial<FeedbackNote>;
    const { path, startLine, endLine, note } = value;
    const line = (n: unknown): n is number => Number.isInteger(n) && (n as number) > 0;
    if (typeof path !== 'string' || typeof note !== 'string' || !line(startLine) || !line(endLine)) {
      return undefined;
    }
    return endLine < startLine || !nodePath.isAbsolute(path)
      ? undefined
      : { path, startLine, endLine, note: note.slice(0, MAX_NOTE_CHARS) };
  } catch {
    return undefined;
  }
}

/**
 * The prompt block of a note: the request, the file and its lines, and those lines as they are now — a
 * text resource the agent reads beside the message (a fenced block for agents without embedded context).
 */
export async function noteBlock(note: FeedbackNote, current: CurrentContent): Promise<PromptBlock> {
  const bytes = await current(note.path);
  const lines = bytes === undefined ? [] : linesOf(bytes);
  const last = Math.min(note.endLine, note.startLine + MAX_NOTE_EXCERPT_LINES - 1);
  const excerpt = lines.slice(note.startLine - 1, last).map(lineText);
  const range =
    note.startLine === note.endLine ? `line ${note.startLine}` : `lines ${note.startLine}-${note.endLine}`;
  const text = [
    `Requested change in ${note.path}, ${range}: ${note.note}`,
    ...(excerpt.length > 0
      ? ['', `The ${range === `line ${note.startLine}` ? 'line' : 'lines'} now:`, ...excerpt]
      : []),
    ...(last < note.endLine ? [`… (${note.endLine - last} more lines)`] : []),
  ].join('\n');
  return {
    type: 'resource',
    uri: `${fileUri(note.path)}#L${note.startLine}-L${note.endLine}`,
    text,
    mimeType: 'text/plain',
  };
}
