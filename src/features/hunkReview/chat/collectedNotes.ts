import type { ViewPresenter } from '../../../chat/viewPresenter';
import type { ViewSlot } from '../../../chat/viewSlot';
import { Emitter, type Disposable } from '../../../core/util/disposable';
import { noteAttachment, noteOf, type FeedbackNote } from './feedbackNotes';

/** A note on a composer, with its chip's URI (which names it). */
export interface CollectedNote {
  readonly uri: string;
  readonly note: FeedbackNote;
}

/**
 * The "Ask for a change…" notes waiting on the composers: their chips are the one record of them (kept
 * until sent, across view reloads), and this follows every composer's chips so that another view of them
 * (the editor's comment threads) stays in step — a chip removed or sent takes its note away there, and a
 * note edited or deleted there changes or removes its chip.
 */
export class CollectedNotes implements Disposable {
  private presenter: ViewPresenter | undefined;
  private readonly watched = new WeakSet<ViewSlot>();
  private readonly subscriptions: Disposable[] = [];
  private readonly changed = new Emitter<void>();
  /** A note was added, edited, removed or sent. */
  readonly onDidChange = this.changed.event;

  /** The chat's views, once the contribution is built. */
  connect(presenter: ViewPresenter): void {
    this.presenter = presenter;
    presenter.attachedSlots().forEach((slot) => this.watch(slot));
  }

  /** Follows `slot`'s chips (a view got ready). */
  watch(slot: ViewSlot): void {
    if (!this.watched.has(slot)) {
      this.watched.add(slot);
      this.subscriptions.push(slot.onDidChangeAttachments(() => this.changed.fire()));
      this.changed.fire();
    }
  }

  /** Every note on a composer now (one per chip; the same note on two composers once). */
  notes(): CollectedNote[] {
    const byUri = new Map<string, CollectedNote>();
    for (const slot of this.presenter?.attachedSlots() ?? []) {
      for (const attachment of slot.attachments) {
        const note = noteOf(attachment);
        if (note !== undefined) {
          byUri.set(attachment.uri, { uri: attachment.uri, note });
        }
      }
    }
    return [...byUri.values()];
  }

  /** Takes note `uri` off every composer. */
  remove(uri: string): void {
    this.edit(uri, undefined);
  }

  /** Puts `note` in place of note `uri` on the composers that hold it (its chip is named anew). */
  replace(uri: string, note: FeedbackNote): void {
    this.edit(uri, note);
  }

  dispose(): void {
    this.subscriptions.forEach((subscription) => subscription.dispose());
    this.changed.dispose();
  }

  private edit(uri: string, note: FeedbackNote | undefined): void {
    for (const slot of this.presenter?.attachedSlots() ?? []) {
      if (slot.attachments.some((attachment) => attachment.uri === uri)) {
        slot.removeAttachment(uri);
        if (note !== undefined) {
          slot.addAttachment(noteAttachment(note));
        }
        this.presenter?.snapshot(slot); // the view shows the slot's chips again
      }
    }
  }
}
