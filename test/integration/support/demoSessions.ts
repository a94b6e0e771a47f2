/**
 * The demo agent's session files (one JSON file per ACP session in its TEST_AGENT_STATE_DIR), read to see
 * which session a chat continued, and unique prompts to tell sessions apart by their first message.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** A session file of the demo agent's state dir (TEST_AGENT_STATE_DIR). */
export interface SessionRecord {
  readonly file: string;
  readonly sessionId: string;
  readonly turns: ReadonlyArray<{ readonly user: string; readonly reply: string }>;
}

export function sessionRecords(stateDir: string): SessionRecord[] {
  if (!existsSync(stateDir)) {
    return [];
  }
  return readdirSync(stateDir)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => {
      const file = path.join(stateDir, name);
      try {
        const parsed = JSON.parse(readFileSync(file, 'utf8')) as Omit<SessionRecord, 'file'>;
        return [{ file, sessionId: parsed.sessionId, turns: parsed.turns ?? [] }];
      } catch {
        return []; // being written
      }
    });
}

/** The session records whose first turn's user text is `firstPrompt`. */
export function sessionsStartedWith(stateDir: string, firstPrompt: string): SessionRecord[] {
  return sessionRecords(stateDir).filter((record) => record.turns[0]?.user === firstPrompt);
}

/** `prefix` with a random tail, so no earlier chat or session file starts with the same prompt. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
}
