import { ToolCardView } from '../toolCard';
import type { EntryView } from '../types';

/** The tool cards that show each terminal, so a terminal's new output updates only those cards. */
export class TerminalCards {
  private readonly cards = new Map<string, Set<ToolCardView>>();

  /** Notes the terminals a (new or updated) view shows; anything but a tool card shows none. */
  track(view: EntryView): void {
    if (!(view instanceof ToolCardView)) {
      return;
    }
    for (const terminalId of view.terminalIds) {
      let cards = this.cards.get(terminalId);
      if (!cards) {
        cards = new Set();
        this.cards.set(terminalId, cards);
      }
      cards.add(view);
    }
  }

  /** A view that went (its turn was evicted). */
  untrack(view: EntryView): void {
    if (view instanceof ToolCardView) {
      for (const terminalId of view.terminalIds) {
        this.cards.get(terminalId)?.delete(view);
      }
    }
  }

  /** Shows the new state of these terminals on their cards. */
  update(terminalIds: Iterable<string>): void {
    for (const terminalId of terminalIds) {
      for (const card of this.cards.get(terminalId) ?? []) {
        card.updateTerminal(terminalId);
      }
    }
  }

  clear(): void {
    this.cards.clear();
  }
}
