import type * as acp from '@agentclientprotocol/sdk';
import { secretValues, type SecretValues } from './secrets';

type ChunkUpdate = Extract<
  acp.SessionUpdate,
  { sessionUpdate: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk' }
>;

/**
 * Scrubs secret values from a session's updates before the thread (and so the chat, the journal)
 * sees them. Streamed text can split a secret across two chunks: the end of a chunk that could be
 * the start of a secret is held back until the next update says which, then passed on scrubbed.
 * With no secret in use every update passes through untouched.
 */
export class StreamScrubber {
  private held: { readonly update: ChunkUpdate; readonly text: string } | undefined;

  constructor(private readonly secrets: SecretValues = secretValues) {}

  /** The updates to apply for `update`, in order (none while text is held back). */
  accept(update: acp.SessionUpdate): acp.SessionUpdate[] {
    if (this.secrets.size === 0 && !this.held) {
      return [update];
    }
    if (isTextChunk(update)) {
      const out: acp.SessionUpdate[] = [];
      const continues =
        this.held?.update.sessionUpdate === update.sessionUpdate &&
        this.held.update.messageId === update.messageId;
      if (this.held && !continues) {
        out.push(...this.flush());
      }
      const text = this.secrets.scrub((this.held?.text ?? '') + textOfChunk(update));
      const hold = this.secrets.heldTail(text);
      this.held = hold > 0 ? { update, text: text.slice(text.length - hold) } : undefined;
      const ready = text.slice(0, text.length - hold);
      if (ready !== '') {
        out.push(withText(update, ready));
      }
      return out;
    }
    return [...this.flush(), this.secrets.scrubDeep(update)];
  }

  /** Passes on the held text (at a turn's end: it was not a secret after all). */
  flush(): acp.SessionUpdate[] {
    const held = this.held;
    this.held = undefined;
    return held ? [withText(held.update, held.text)] : [];
  }
}

function isTextChunk(update: acp.SessionUpdate): update is ChunkUpdate {
  return (
    (update.sessionUpdate === 'agent_message_chunk' ||
      update.sessionUpdate === 'agent_thought_chunk' ||
      update.sessionUpdate === 'user_message_chunk') &&
    update.content.type === 'text'
  );
}

function textOfChunk(update: ChunkUpdate): string {
  return update.content.type === 'text' ? update.content.text : '';
}

function withText(update: ChunkUpdate, text: string): acp.SessionUpdate {
  return { ...update, content: { ...update.content, type: 'text', text } } as acp.SessionUpdate;
}
