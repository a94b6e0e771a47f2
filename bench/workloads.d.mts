// Types of what TypeScript benches import from workloads.mjs.
/** A snapshot message of a chat of `turns` finished turns (see workloads.mjs). */
export function longChatSnapshot(turns: number): {
  readonly view: { readonly chat: { readonly thread: unknown } };
};
