import { CHAT_URI_SCHEME, fileUri } from '../../../chat/attachmentBlocks';
import type { ChatContributionFactory } from '../../../chat/chatContribution';
import type { Conversation } from '../../../chat/conversation';
import type { PromptBlock } from '../../../core/session/promptBlocks';
import type { Mention } from '../../../protocol';
import { fuzzyScore, rankBy } from './fuzzyRank';
import type { MentionSource } from './mentionSource';

/** How many entries the @-mention picker shows from the workspace. */
const MENTION_LIMIT = 50;
/** How many entries one answer to the picker holds in all. */
const MAX_RESULTS = 200;

/**
 * `@`-mentions: the picker's entries (the workspace's from `source`, then earlier chats whose title matches)
 * and a mentioned file's problems, read when the message is sent.
 */
export function mentionsContribution(source?: MentionSource): ChatContributionFactory {
  return ({ chats, presenter }) => ({
    id: 'mentions',
    viewMessages: {
      mention_query: async ({ query, requestId }, view) => {
        const workspace = (await source?.query(query, MENTION_LIMIT)) ?? [];
        const earlier = earlierChatMentions(chats.sorted(), view.chatId, query);
        presenter.postTo(view, {
          type: 'mention_results',
          requestId,
          items: [...workspace, ...earlier].slice(0, MAX_RESULTS),
        });
      },
    },
    attachmentBlock: (attachment) =>
      attachment.kind === 'problems' && source
        ? Promise.resolve(problemsBlock(attachment.uri, source.problems(attachment.uri)))
        : undefined,
  });
}

/** A mentioned file's problems now, one line each, as a text resource beside the file. */
function problemsBlock(uri: string, lines: readonly string[]): PromptBlock {
  const text = lines.length > 0 ? lines.join('\n') : 'No problems are reported for this file now.';
  return { type: 'resource', uri: `${fileUri(uri)}#problems`, text, mimeType: 'text/plain' };
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
