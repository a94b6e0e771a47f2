import type { TurnMessage } from '../../../src/protocol';
import { fileChange, turn, turnChanges } from './builders';
import type { ChatPage } from './chatPage';

/** When the change-card suites' turns start (ms since the epoch). */
export const T0 = 1_700_000_000_000;

/** A finished turn with a user message and a mix of created, modified, deleted and decided files. */
export function finishedTurn(partial: Partial<TurnMessage> = {}): TurnMessage {
  return turn('t1', {
    status: 'completed',
    stopReason: 'end_turn',
    endedAt: T0 + 5000,
    checkpointId: 'cp-1',
    changes: turnChanges([
      fileChange('src/new.ts', { kind: 'created', added: 10, removed: 0 }),
      fileChange('src/lib/config.ts', { added: 3, removed: 2 }),
      fileChange('old.txt', { kind: 'deleted', added: 0, removed: 5, decision: 'kept' }),
      fileChange('assets/logo.png', { binary: true, added: 0, removed: 0, decision: 'undone' }),
    ]),
    ...partial,
  });
}

/** The change card under a turn. */
export const changeCard = (page: ChatPage, turnId = 't1') =>
  page.page.locator(`.turn-changes[data-turn-id="${turnId}"]`);
/** One file's row on a change card, by its full path. */
export const changeRow = (page: ChatPage, path: string) =>
  page.page.locator(`.change-row[data-path="${path}"]`);
