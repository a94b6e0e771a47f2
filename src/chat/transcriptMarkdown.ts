import type { PromptBlock } from '../core/session/promptBlocks';
import type { ThreadSnapshot } from '../core/thread/threadTypes';
import { TRANSCRIPT_URI_PREFIX } from '../protocol';

/** Characters of transcript given to a new session: the latest part, so a long chat stays one prompt. */
export const MAX_TRANSCRIPT_CHARS = 200_000;

/** `blocks` with the chat's transcript along, as an embedded markdown resource (for a new session). */
export function withTranscript(
  blocks: readonly PromptBlock[],
  chatId: string,
  thread: ThreadSnapshot,
): PromptBlock[] {
  const uri = `${TRANSCRIPT_URI_PREFIX}${chatId}.md`;
  return [
    ...blocks,
    { type: 'resource', uri, mimeType: 'text/markdown', text: transcriptAsMarkdown(thread) },
  ];
}

/**
 * A transcript as markdown: what a new session is given when the old one could not be continued.
 * Bounded: past `maxChars` the earliest entries are left out, and the text says how many.
 */
export function transcriptAsMarkdown(thread: ThreadSnapshot, maxChars = MAX_TRANSCRIPT_CHARS): string {
  const body: string[][] = [];
  let chars = 0;
  let omitted = 0;
  // Newest first, so the bound keeps the end of the conversation.
  for (let i = thread.entries.length - 1; i >= 0; i--) {
    const entry = thread.entries[i];
    const part = entry ? partOf(entry) : [];
    const size = part.reduce((sum, line) => sum + line.length + 1, 0);
    if (chars + size > maxChars) {
      omitted = i + 1;
      break;
    }
    chars += size;
    body.push(part);
  }
  const parts = [
    '# Earlier conversation',
    '',
    'This chat continues an earlier session. What was said so far:',
    '',
    ...(omitted > 0 ? [`(${omitted} earlier entries are left out.)`, ''] : []),
    ...body.reverse().flat(),
  ];
  return parts.join('\n');
}

function partOf(entry: ThreadSnapshot['entries'][number]): string[] {
  const parts: string[] = [];
  {
    switch (entry.kind) {
      case 'user':
        parts.push(`## User`, '', entry.text, '');
        break;
      case 'agent':
        parts.push(`## Assistant`, '', entry.text, '');
        break;
      case 'tool_call':
        parts.push(`- Tool call: ${entry.title} (${entry.status})`, '');
        break;
      case 'thought':
        break;
      default: {
        // A new kind of entry is exported once it is taught here; the compiler points at this line.
        const unknown: never = entry;
        throw new Error(`Unknown entry ${JSON.stringify(unknown)}`);
      }
    }
  }
  return parts;
}
