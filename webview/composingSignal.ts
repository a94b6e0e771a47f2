import type { ViewMessage } from '../src/protocol';
import type { ChatStore } from './store';

/**
 * Tells the host when the user starts writing a message — clicks into the message box, or types after a
 * turn ended — so that it can take the next turn's checkpoint ahead, off the send path. While typing it is
 * said once per turn; never while a turn runs (the agent may still be changing files). Not on focus: the
 * chat focuses its message box by itself when it opens (the host's warm-up checkpoint covers that).
 */
export function signalComposing(
  input: HTMLElement,
  store: ChatStore,
  post: (message: ViewMessage) => void,
): void {
  let saidFor: string | undefined;
  const say = (always: boolean): void => {
    if (store.runningTurn !== undefined) {
      return;
    }
    const after = `${store.chatId ?? ''}:${store.turns.length}`;
    if (always || after !== saidFor) {
      saidFor = after;
      post({ type: 'composing' });
    }
  };
  input.addEventListener('pointerdown', () => say(true));
  input.addEventListener('input', () => say(false));
}
