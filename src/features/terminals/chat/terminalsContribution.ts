import type { ChatContributionFactory } from '../../../chat/chatContribution';
import type { TerminalPort } from '../../../core/ports';
import { TerminalRelay } from './terminalRelay';

/**
 * The agent's terminals in the chat: their output streamed to every view (coalesced deltas, sent whole
 * again after a full state), and a tool card's "Open in terminal".
 */
export function terminalsContribution(terminals: TerminalPort): ChatContributionFactory {
  return ({ presenter, editor, turns }) => {
    const relay = new TerminalRelay(terminals, (terminal) =>
      presenter.postToAll({ type: 'terminal_output', terminal }),
    );
    return {
      id: 'terminals',
      snapshotSent: () => relay.resend(),
      viewMessages: {
        open_terminal: ({ terminalId }, view) => editor.showTerminal?.(terminalId, turns.sessionIdOf(view)),
      },
      dispose: () => relay.dispose(),
    };
  };
}
