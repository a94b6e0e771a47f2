import { restorable, restoreCheckpointButton, setRestoreDisabled } from './checkpoints/checkpoint';
import { el } from './dom';
import { MessageView } from './message';
import type { Group } from './turnGroup';
import type { EntryView, RenderContext } from './types';

/** A message's actions as made: the bar, and Restore checkpoint in it while its turn offers one. */
interface Bar {
  readonly element: HTMLElement;
  readonly message: HTMLElement;
  restore?: { readonly button: HTMLButtonElement; readonly checkpointId: string };
}

/** What TurnActions needs of the transcript. */
export interface TurnActionsHost {
  /** The view of the entry with this id, if built. */
  view(entryId: string): EntryView | undefined;
  /** The group of the turn with this id. */
  group(turnId: string): Group | undefined;
  /** Whether a turn runs (Restore checkpoint waits for it). */
  anyRunning(): boolean;
}

/**
 * A user message's actions — Restore checkpoint (of the turn it started) and Edit and resend — made
 * when the pointer comes over the message or the keyboard focus reaches it (the message is focusable),
 * not with every turn up front: a long chat of short turns then holds a few elements a turn. Once
 * made they stay with the message, kept up to date, until its turn is evicted or the chat rebuilt.
 */
export class TurnActions {
  private readonly bars = new Map<HTMLElement, Bar>();

  constructor(
    log: HTMLElement,
    private readonly host: TurnActionsHost,
    private readonly context: RenderContext,
  ) {
    const reveal = (event: Event): void => {
      const message = event.target instanceof Element ? event.target.closest('article.entry-user') : null;
      if (message instanceof HTMLElement && !this.bars.has(message)) {
        this.show(message);
      }
    };
    log.addEventListener('pointerover', reveal);
    log.addEventListener('focusin', reveal);
  }

  /** Brings the bars made up to date (a turn started or ended, a checkpoint was taken). */
  refresh(): void {
    for (const bar of this.bars.values()) {
      this.refreshRestore(bar);
    }
  }

  /** The messages of an evicted or rebuilt part of the transcript: their bars go with them. */
  forget(messages: Iterable<HTMLElement>): void {
    for (const message of messages) {
      this.bars.delete(message);
    }
  }

  clear(): void {
    this.bars.clear();
  }

  private show(message: HTMLElement): void {
    const view = this.host.view(message.dataset.entryId ?? '');
    const element = el('div', 'message-actions');
    const edit = view instanceof MessageView ? view.editAction() : undefined;
    if (edit) {
      element.append(edit);
    }
    const bar: Bar = { element, message };
    this.bars.set(message, bar);
    this.refreshRestore(bar);
    message.prepend(element);
  }

  /** Restore checkpoint, first in the bar, while the turn the message started offers one. */
  private refreshRestore(bar: Bar): void {
    // Not through `dataset`: its wrapper would stay with the turn's section.
    const turnId = bar.message.closest('section.turn')?.getAttribute('data-turn-id') ?? undefined;
    const group = turnId === undefined ? undefined : this.host.group(turnId);
    const turn = group?.userMessage === bar.message ? group.turn : undefined;
    const checkpointId = turn && restorable(turn) ? turn.checkpointId : undefined;
    const disabled = this.host.anyRunning();
    if (bar.restore && bar.restore.checkpointId === checkpointId) {
      if (bar.restore.button.disabled !== disabled) {
        // In place: it may have the focus.
        setRestoreDisabled(bar.restore.button, disabled);
      }
      return;
    }
    bar.restore?.button.remove();
    bar.restore = undefined;
    if (turn && checkpointId !== undefined) {
      const button = restoreCheckpointButton(turn.id, disabled, this.context.post);
      bar.element.prepend(button);
      bar.restore = { button, checkpointId };
    }
  }
}
