import type { ChatContributionFactory } from '../../../chat/chatContribution';
import { ElicitationRelay, type ElicitationQuestions } from './elicitationRelay';

/**
 * The agents' questions (ACP elicitation) in the chat: each question goes to the views of the chat whose
 * session asked (a request-scoped one to the window's chat), and their answers back to the broker.
 */
export function elicitationContribution(questions: ElicitationQuestions): ChatContributionFactory {
  return ({ presenter, editor, windowChatId, chatOfSession }) => {
    const relay = new ElicitationRelay(questions, {
      chatOf: (question) =>
        question.sessionId === undefined ? windowChatId() : chatOfSession(question.sessionId),
      postToChat: (chatId, message) => presenter.postToChat(chatId, message),
      openUrl: (url) => editor.openUrl(url),
    });
    return {
      id: 'elicitation',
      viewState: (chat) => {
        const items = chat ? relay.forChat(chat.id) : [];
        return items.length > 0 ? { elicitations: items } : {};
      },
      viewMessages: {
        answer_elicitation: ({ key, answer }) => relay.answer(key, answer),
      },
      dispose: () => relay.dispose(),
    };
  };
}
