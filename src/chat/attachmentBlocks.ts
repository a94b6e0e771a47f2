import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FileSystemPort } from '../core/ports';
import type { PromptBlock } from '../core/promptBlocks';
import type { AttachmentRef } from '../protocol';

/**
 * Files attached to a message go as embedded text (the agent sees what the user sees, unsaved
 * edits included); a file that cannot be read goes as a link.
 */
export function attachmentBlocks(
  attachments: readonly AttachmentRef[],
  files: FileSystemPort,
): Promise<PromptBlock[]> {
  return Promise.all(
    attachments.map(async (attachment): Promise<PromptBlock> => {
      const filePath = attachment.uri.startsWith('file:') ? fileURLToPath(attachment.uri) : attachment.uri;
      try {
        const text = await files.readTextFile(filePath, { sessionId: '' });
        return { type: 'resource', uri: pathToFileURL(filePath).href, text };
      } catch {
        return { type: 'resource_link', uri: attachment.uri, name: attachment.name };
      }
    }),
  );
}
