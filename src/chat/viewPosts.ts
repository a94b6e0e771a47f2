import { systemClock, type Clock } from '../core/util/clock';
import type { Disposable } from '../core/util/disposable';
import { TickBatch } from '../core/util/tickBatch';
import type { HostMessage, HostPost, ThreadEventMessage } from '../protocol';

/**
 * How long a view's messages after a Send may wait for the turn to end, to go to the page together. The page
 * shows the sent message at once; what the host says next (the chat list, the turn started with that
 * message, a short answer's parts, its end) each cost the window a message and the page a frame when sent
 * as they come — on the main thread the page shares with the workbench in a browser — so a short answer
 * showed a frame or two later than one post would. Under a tenth of a second, and counted from the Send: an
 * agent that answers later (a model's first words take longer) streams as it comes; one that answers within
 * it shows its first words no later than this after the Send.
 */
export const ANSWER_WAIT_MS = 50;

/**
 * The messages to one view: those of one turn of the event loop go as one post (`TickBatch`), and after
 * the page sends a prompt they wait (at most ANSWER_WAIT_MS) for the turn's end or anything the user must
 * see at once, and go with it.
 */
export class ViewPosts implements Disposable {
  private readonly batch: TickBatch<HostMessage>;

  constructor(send: (post: HostPost) => void, clock: Clock = systemClock) {
    this.batch = new TickBatch<HostMessage>(
      (batch) => {
        const latest = withLatestChatList(batch);
        send(latest.length === 1 ? latest[0]! : latest);
      },
      undefined,
      clock,
    );
  }

  post(message: HostMessage): void {
    this.batch.post(message);
  }

  /** A message from the page, seen before the controller handles it. */
  received(message: unknown): void {
    if (sendsPrompt(message)) {
      this.batch.hold(ANSWER_WAIT_MS, endsAnswerWait);
    }
  }

  dispose(): void {
    this.batch.dispose();
  }
}

/**
 * A batch without the chat lists a later one in it replaces: each is the whole list (a change of one chat
 * before it, made to a list the later one replaces, does no harm and is kept).
 */
function withLatestChatList(batch: readonly HostMessage[]): readonly HostMessage[] {
  const last = batch.findLastIndex((message) => message.type === 'chats');
  return batch.filter((message, index) => message.type !== 'chats' || index === last);
}

/** Whether a message from the page sends a prompt (it is parsed by the controller, after). */
function sendsPrompt(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'send';
}

/** Thread events that need no frame of their own: the turn's start, its entries as they grow. */
const QUIET_EVENTS: ReadonlySet<ThreadEventMessage['type']> = new Set([
  'state_updated',
  'turn_started',
  'entry_added',
  'text_appended',
  'entry_updated',
]);

/**
 * Whether a host message ends the wait: anything but the chat list, the save notice and the quiet thread
 * events — the turn's end, a permission asked, an error, a question, a snapshot.
 */
export function endsAnswerWait(message: HostMessage): boolean {
  if (message.type === 'chats' || message.type === 'chat_changed' || message.type === 'save_problem') {
    return false;
  }
  if (message.type !== 'thread_events') {
    return true;
  }
  return message.events.some((event) => !QUIET_EVENTS.has(event.type) || asksPermission(event));
}

function asksPermission(event: ThreadEventMessage): boolean {
  return (
    (event.type === 'entry_added' || event.type === 'entry_updated') &&
    event.entry.kind === 'tool_call' &&
    event.entry.permission?.status === 'pending'
  );
}
