// Types of what TypeScript benches import from workloads.mjs.
/** A snapshot message of a chat of `turns` finished turns (see workloads.mjs). */
export function longChatSnapshot(turns: number): {
  readonly view: { readonly chat: { readonly thread: unknown } };
};

/** The bench's model of the host's batching (see workloads.mjs). */
export const CHUNKS_PER_MESSAGE: number;
export const LONG_ANSWER_CHARS: number;
export const CHUNKS_PER_LONG_MESSAGE: number;
export const CHUNK_CHARS: number;
/** `text` as the host's `thread_events` messages of one streamed answer (see workloads.mjs). */
export function streamMessages(text: string): Array<{
  readonly type: 'thread_events';
  readonly chatId: string;
  readonly events: Array<{ readonly type: 'text_appended'; readonly entryId: string; readonly text: string }>;
}>;
/** How many characters of the answer one of `streamMessages`' messages carries. */
export function messageChars(message: ReturnType<typeof streamMessages>[number]): number;
