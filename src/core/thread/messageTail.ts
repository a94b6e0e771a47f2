import { middleMarker, tailCharsFor, TailKeeper, truncationMarker } from './textBudget';
import type { AgentMessageEntry, ThoughtEntry, ThreadEntry, UserMessageEntry } from './threadTypes';

export type MessageEntry = UserMessageEntry | AgentMessageEntry | ThoughtEntry;

/**
 * Whether a chunk of `kind` (with `messageId`, after a tool step or not) continues the `last` entry of turn
 * `turnId`. The same id says "same message" even across tool updates; only without ids does a step divide.
 */
export function continuesMessage(
  last: ThreadEntry | undefined,
  kind: MessageEntry['kind'],
  turnId: string | undefined,
  messageId: string | undefined,
  afterStep: boolean,
): boolean {
  const lastId = last !== undefined && 'messageId' in last ? last.messageId : undefined;
  const sameMessage = messageId !== undefined && lastId === messageId;
  return (
    last !== undefined &&
    last.kind === kind &&
    last.turnId === turnId &&
    (sameMessage ||
      (!afterStep && !(messageId !== undefined && lastId !== undefined && lastId !== messageId)))
  );
}

/**
 * The end of the one message being written past its limit. While it streams the chat shows the head and a
 * marker; once it is finished its end goes after the head, with a marker in the middle saying how much is
 * not shown — so the end of a long answer, often the part that matters, is never lost.
 */
export class MessageTail {
  private pending: { readonly entryId: string; readonly keeper: TailKeeper } | undefined;

  /** Text `added` to `message`, now `truncated` (or not): past the limit, its end is kept aside. */
  keep(message: MessageEntry, added: string, truncated: MessageEntry['truncated']): void {
    if (!truncated) {
      return;
    }
    if (!message.truncated) {
      this.pending = { entryId: message.id, keeper: new TailKeeper(tailCharsFor(truncated.limit)) };
      this.pending.keeper.push(added.slice(added.length - truncated.omittedChars));
    } else if (this.pending?.entryId === message.id) {
      this.pending.keeper.push(added);
    }
  }

  /** The finished message with its end (`entryAt` reads the thread), or undefined when none is pending. */
  finish(entryAt: (id: string) => ThreadEntry | undefined): MessageEntry | undefined {
    const pending = this.pending;
    this.pending = undefined;
    const message = pending ? entryAt(pending.entryId) : undefined;
    if (!pending || !message || message.kind === 'tool_call' || !message.truncated) {
      return undefined;
    }
    const marker = truncationMarker(message.truncated.limit);
    const head = message.text.endsWith(marker) ? message.text.slice(0, -marker.length) : message.text;
    const tail = pending.keeper.text();
    const notShown = message.truncated.omittedChars - tail.length;
    if (notShown <= 0) {
      // The end fits beside the head: the message is whole after all.
      const { truncated: _whole, ...rest } = message;
      return { ...rest, text: head + tail };
    }
    const text = head + middleMarker(notShown, message.truncated.limit) + tail;
    return { ...message, text, truncated: { ...message.truncated, omittedChars: notShown } };
  }
}
