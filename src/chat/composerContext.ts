import type { FileSystemPort } from '../core/ports';
import type { PromptBlock } from '../core/session/promptBlocks';
import type { AttachmentRef, DroppedTextFile, ImageAttachment } from '../protocol';
import { attachmentBlocks, droppedTextBlocks, imageBlocks, type AttachmentSources } from './attachmentBlocks';
import type { Conversation } from './conversation';
import { transcriptAsMarkdown } from './transcriptMarkdown';

/** What the composer sent: its text, attachments and mentions, pasted images and dropped text files. */
export interface ComposerMessage {
  readonly text: string;
  readonly attachments: readonly AttachmentRef[];
  readonly images: readonly ImageAttachment[];
  readonly textFiles: readonly DroppedTextFile[];
}

export interface ComposerSources {
  readonly files: FileSystemPort;
  /** Attachments of the kinds a contribution resolves. */
  readonly contributed?: AttachmentSources['contributed'];
  readonly chat: (chatId: string) => Conversation | undefined;
}

/** The prompt blocks for a composer message, attachments resolved the way the agent can take them. */
export async function composerPrompt(
  message: ComposerMessage,
  sources: ComposerSources,
): Promise<PromptBlock[]> {
  const blocks = await attachmentBlocks(message.attachments, {
    files: sources.files,
    ...(sources.contributed ? { contributed: sources.contributed } : {}),
    chatTranscript: (chatId) => {
      const chat = sources.chat(chatId);
      return chat ? transcriptAsMarkdown(chat.thread.snapshot()) : undefined;
    },
  });
  return [
    { type: 'text', text: message.text },
    ...blocks,
    ...droppedTextBlocks(message.textFiles),
    ...imageBlocks(message.images),
  ];
}
