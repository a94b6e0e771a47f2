import type { ThreadSnapshot } from '../core/threadTypes';

/** A transcript as markdown: what a new session is given when the old one could not be continued. */
export function transcriptAsMarkdown(thread: ThreadSnapshot): string {
  const parts = [
    '# Earlier conversation',
    '',
    'This chat continues an earlier session. What was said so far:',
    '',
  ];
  for (const entry of thread.entries) {
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
  return parts.join('\n');
}
