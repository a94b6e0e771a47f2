import type { ChatContributionFactory } from '../../../chat/chatContribution';
import { chatOf } from '../../../chat/chatCommands';
import { offerMessage, ProblemsWatch, problemsPrompt, type DiagnosticsPort } from './problemsOffer';

/**
 * Problems offered back: after a turn that changed files, the new errors and warnings in them are offered
 * as "Fix N new problems" in the views of its chat; taking the offer sends them to the agent.
 */
export function problemsContribution(diagnostics: DiagnosticsPort): ChatContributionFactory {
  return ({ chats, presenter, turns }) => {
    const relativePath = (path: string): string => diagnostics.relativePath(path);
    const watch = new ProblemsWatch(diagnostics, (chatId, offer) =>
      presenter.postToChat(chatId, {
        type: 'problems_offer',
        chatId,
        ...(offer ? { offer: offerMessage(offer, relativePath) } : {}),
      }),
    );
    return {
      id: 'problems',
      threadEvent: (chat, event) => watch.observe(chat.id, chat.thread, event),
      viewState: (chat) => {
        const offer = chat && watch.offer(chat.id);
        return offer ? { problemsOffer: offerMessage(offer, relativePath) } : {};
      },
      viewMessages: {
        fix_problems: async ({ turnId }, view) => {
          const chat = chatOf(chats, view);
          if (chat.running) {
            throw new Error('A turn is running: wait for it to end (or stop it), then fix the problems.');
          }
          const offer = watch.take(chat.id, turnId);
          await turns.sendPrompt(problemsPrompt(offer.problems, relativePath), view);
        },
        dismiss_problems: (_message, view) => watch.dismiss(view.chatId),
      },
      dispose: () => watch.dispose(),
    };
  };
}
