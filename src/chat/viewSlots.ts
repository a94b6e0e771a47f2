import type { Disposable } from '../core/util/disposable';
import type { AgentChoice } from './agentChoice';
import type { ChatCollection } from './chatCollection';
import type { ViewPresenter } from './viewPresenter';
import { ViewSlot } from './viewSlot';
import type { ViewSink } from './viewSink';

/**
 * The views' slots: the window's (the sidebar, which the commands and the status bar act on) and one
 * of their own for each editor tab. Before the journal is read, a tab's slot waits for its chat.
 */
export class ViewSlots {
  /** The window's slot. */
  readonly main = new ViewSlot();
  private restored = false;
  /** Views of their own waiting for the journal before their chat is chosen: the chat each asked for. */
  private readonly unsettled = new Map<ViewSlot, string | undefined>();

  constructor(
    private readonly chats: ChatCollection,
    private readonly presenter: ViewPresenter,
    private readonly agents: AgentChoice,
  ) {}

  /** The journal is read: the window shows the newest chat (or a new one), waiting views get theirs. */
  restoredChats(): void {
    const newest = this.chats.sorted()[0];
    this.main.chatId =
      newest && this.agents.isOffered(newest.agentId)
        ? newest.id
        : this.chats.create(this.agents.defaultAgent().id).id;
    this.restored = true;
    for (const [slot, chatId] of this.unsettled) {
      this.settle(slot, chatId);
    }
    this.unsettled.clear();
  }

  /** See `ChatController.attachView`. */
  attach(sink: ViewSink, own?: { readonly chatId?: string }): Disposable {
    if (!own) {
      return this.presenter.attach(sink, this.main);
    }
    const slot = new ViewSlot();
    if (this.restored) {
      this.settle(slot, own.chatId);
    } else {
      this.unsettled.set(slot, own.chatId);
    }
    const attachment = this.presenter.attach(sink, slot);
    return {
      dispose: () => {
        this.unsettled.delete(slot);
        attachment.dispose();
      },
    };
  }

  /** The slot of the view `sink`, the window's when it is not attached (or not said). */
  of(sink: ViewSink | undefined): ViewSlot {
    return (sink && this.presenter.slotOf(sink)) ?? this.main;
  }

  /** Every slot that shows a chat now: the window's and the attached views'. */
  all(): Set<ViewSlot> {
    return new Set([...this.presenter.attachedSlots(), this.main]);
  }

  /** Gives a view of its own the chat it asked for, or a new one when that chat is gone (or none was named). */
  private settle(slot: ViewSlot, chatId: string | undefined): void {
    if (chatId !== undefined && this.chats.get(chatId)) {
      slot.chatId = chatId;
      return;
    }
    slot.chatId = this.chats.create(this.agents.nextTo(this.chats.get(this.main.chatId)?.agentId)).id;
  }
}
