import type { Disposable } from '../core/util/disposable';
import type { ChatSummary, HostMessage } from '../protocol';
import { chatListChange, type HeldChatList } from './chatListChange';
import type { ViewSlot } from './viewSlot';
import type { ViewSink } from './viewSink';

interface Connection {
  ready: boolean;
  readonly slot: ViewSlot;
  /**
   * What the view holds of each state posted whole (`postChanged`), by key, as posted: an unchanged one
   * is not posted again. Forgotten on `ready` and on a snapshot, which replace the view's whole state.
   */
  readonly holds: Map<string, string>;
  /** The chat list the view holds (`postChatList`); forgotten as `holds` is. */
  chatList: HeldChatList | undefined;
}

/**
 * The connected webviews (the sidebar, editor tabs), each with the slot it shows and whether it said
 * `ready`: nothing goes to a view before its `ready`.
 */
export class ViewConnections {
  private readonly sinks = new Map<ViewSink, Connection>();

  /** A view (re)connected, showing `slot`; `onDetached` runs when it goes. */
  attach(sink: ViewSink, slot: ViewSlot, onDetached: () => void): Disposable {
    this.sinks.set(sink, { ready: false, slot, holds: new Map(), chatList: undefined });
    return {
      dispose: () => {
        if (this.sinks.delete(sink)) {
          onDetached();
        }
      },
    };
  }

  /** Notes a `ready` from `from` (without `from`: from every attached view) before it is dispatched. */
  noteReady(raw: unknown, from?: ViewSink): void {
    if (typeof raw !== 'object' || raw === null || (raw as { type?: unknown }).type !== 'ready') {
      return;
    }
    for (const [sink, connection] of this.sinks) {
      if (from === undefined || sink === from) {
        connection.ready = true;
        forget(connection);
      }
    }
  }

  /** How many attached views said `ready`. */
  get readyCount(): number {
    return [...this.sinks.values()].filter((connection) => connection.ready).length;
  }

  /** The slot `sink` shows, if it is attached. */
  slotOf(sink: ViewSink): ViewSlot | undefined {
    return this.sinks.get(sink)?.slot;
  }

  /** Whether any view is attached. */
  get isEmpty(): boolean {
    return this.sinks.size === 0;
  }

  /** The slots of every attached view, ready or not. */
  slots(): Set<ViewSlot> {
    return new Set([...this.sinks.values()].map((connection) => connection.slot));
  }

  /** The slots of the ready views. */
  readySlots(): Set<ViewSlot> {
    const slots = new Set<ViewSlot>();
    for (const connection of this.sinks.values()) {
      if (connection.ready) {
        slots.add(connection.slot);
      }
    }
    return slots;
  }

  /** Whether a ready view shows chat `chatId`. */
  shows(chatId: string): boolean {
    return [...this.sinks.values()].some(
      (connection) => connection.ready && connection.slot.chatId === chatId,
    );
  }

  /** Posts to every ready view whose slot `to` accepts (all of them without `to`). */
  post(message: HostMessage, to?: (slot: ViewSlot) => boolean): void {
    for (const [sink, connection] of this.sinks) {
      if (connection.ready && (to === undefined || to(connection.slot))) {
        if (message.type === 'snapshot') {
          forget(connection);
          // The page takes the snapshot's list as its own: the next change of one chat is that chat alone.
          connection.chatList = { activeChatId: connection.slot.chatId, chats: message.view.chats ?? [] };
        }
        sink.post(message);
      }
    }
  }

  /**
   * Posts a state the view replaces whole (the chat list, a chat's save problem) under `key`, to the
   * ready views `to` accepts that do not hold it already. A send changes a chat several times in one go
   * (preparing, running, its turn); each unchanged copy would cost the workbench's renderer — which the
   * webview shares — a message to decode and relay, on the way to the answer.
   */
  postChanged(key: string, message: HostMessage, to?: (slot: ViewSlot) => boolean): void {
    const text = JSON.stringify(message);
    for (const [sink, connection] of this.sinks) {
      if (
        connection.ready &&
        (to === undefined || to(connection.slot)) &&
        connection.holds.get(key) !== text
      ) {
        connection.holds.set(key, text);
        sink.post(message);
      }
    }
  }

  /**
   * Posts the chat list (`chats`, the view's chat `activeChatId`) to the ready views `to` accepts that do not
   * hold it already: to a view whose list differs in one chat only — a turn's start and end touch one chat,
   * and move it to the top — that chat and its place, not the whole list (a hundred chats are ≈ 17 KB, twice a
   * turn, for the window to relay and the page to parse).
   */
  postChatList(chats: readonly ChatSummary[], activeChatId: string, to?: (slot: ViewSlot) => boolean): void {
    const next: HeldChatList = { activeChatId, chats };
    for (const [sink, connection] of this.sinks) {
      if (!connection.ready || (to !== undefined && !to(connection.slot))) {
        continue;
      }
      const change = chatListChange(connection.chatList, next);
      connection.chatList = next;
      if (change === 'whole') {
        sink.post({ type: 'chats', chats: [...chats], activeChatId });
      } else if (change !== 'same') {
        sink.post({ type: 'chat_changed', chat: chats[change.index]!, index: change.index });
      }
    }
  }
}

/** The view's whole state is replaced (it said `ready`, or gets a snapshot): nothing posted before counts. */
function forget(connection: Connection): void {
  connection.holds.clear();
  connection.chatList = undefined;
}
