import type { FileSystemPort } from '../core/ports';
import type { PromptBlock } from '../core/session/promptBlocks';
import type { AttachmentRef, DroppedTextFile, ImageAttachment, Mention } from '../protocol';
import { attachmentBlocks, CHAT_URI_SCHEME, droppedTextBlocks, imageBlocks } from './attachmentBlocks';
import type { Conversation } from './conversation';
import { fuzzyScore, rankBy } from '../features/mentions/chat/fuzzyRank';
import type { MentionSource } from '../features/mentions/chat/mentionSource';
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
  readonly mentions: MentionSource | undefined;
  readonly chat: (chatId: string) => Conversation | undefined;
}

/** The prompt blocks for a composer message, attachments resolved the way the agent can take them. */
export async function composerPrompt(
  message: ComposerMessage,
  sources: ComposerSources,
): Promise<PromptBlock[]> {
  const mentions = sources.mentions;
  const blocks = await attachmentBlocks(message.attachments, {
    files: sources.files,
    ...(mentions ? { problems: (uri: string) => mentions.problems(uri) } : {}),
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

/** Earlier chats (not the active one) whose title matches the @-mention `query`, best first. */
export function earlierChatMentions(
  chats: readonly Conversation[],
  activeId: string,
  query: string,
): Mention[] {
  return rankBy(
    chats.filter((chat) => chat.id !== activeId && chat.title.trim() !== ''),
    query,
    (q, chat) => fuzzyScore(q, chat.title),
    query === '' ? 3 : 5,
  ).map((chat): Mention => ({
    kind: 'chat',
    uri: `${CHAT_URI_SCHEME}${chat.id}`,
    name: chat.title,
    detail: 'Earlier chat',
  }));
}
