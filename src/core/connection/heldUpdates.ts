import type * as acp from '@agentclientprotocol/sdk';
import { boundedJson, shorten } from '../util/boundedJson';
import type { Logger } from '../ports';

/** Updates for a session id we do not know yet are held up to these limits (per id, ids, bytes in all). */
const UPDATE_LIMIT = 500;
const SESSION_LIMIT = 16;
const BYTE_LIMIT = 4 * 1024 * 1024;

/**
 * `session/update`s for sessions not registered yet: agents send some (commands, modes) before their
 * `session/new` response is read, and a broken agent may send any number for ids that never come. They
 * are held, bounded, until the session registers; past the bounds they are dropped, reported once.
 */
export class HeldUpdates {
  private readonly held = new Map<string, { updates: acp.SessionUpdate[]; bytes: number }>();
  private bytes = 0;
  private overflowReported = false;

  constructor(private readonly logger: Logger) {}

  hold(sessionId: string, update: acp.SessionUpdate): void {
    const held = this.held.get(sessionId);
    const remaining = BYTE_LIMIT - this.bytes;
    // Measured with a bounded serializer: a huge update costs no more than the budget left.
    const bytes = remaining > 0 ? boundedJson(update, { maxChars: remaining + 1, maxDepth: 64 }).length : 1;
    const full =
      bytes > remaining || (held ? held.updates.length >= UPDATE_LIMIT : this.held.size >= SESSION_LIMIT);
    if (full) {
      if (!this.overflowReported) {
        this.overflowReported = true;
        this.logger.warn(
          `Dropped updates for unknown sessions (first: ${shorten(sessionId, 80)}): more than ${SESSION_LIMIT} sessions, ${UPDATE_LIMIT} updates each or ${BYTE_LIMIT / (1024 * 1024)} MiB are held. Reported once.`,
        );
      }
      return;
    }
    this.bytes += bytes;
    if (held) {
      held.updates.push(update);
      held.bytes += bytes;
    } else {
      this.held.set(sessionId, { updates: [update], bytes });
    }
  }

  /** The updates held for `sessionId`, in order, which are no longer held. */
  take(sessionId: string): acp.SessionUpdate[] {
    const held = this.held.get(sessionId);
    if (!held) {
      return [];
    }
    this.held.delete(sessionId);
    this.bytes -= held.bytes;
    return held.updates;
  }
}
