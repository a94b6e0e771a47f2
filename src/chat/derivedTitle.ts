import type { Thread } from '../core/thread/thread';

/** How much of the first message a title shows. */
const MAX_TITLE_CHARS = 60;

/**
 * A chat's title when the user gave it none: the agent's (its session's title), else the start of its first
 * message, else "New chat". Kept until the thread changes: the chat list asks every chat for its title at each
 * change of any of them, and working it out again copies that chat's whole transcript.
 */
export class DerivedTitle {
  private title: string | undefined;

  constructor(private readonly thread: Thread) {}

  get(): string {
    return (this.title ??= derive(this.thread));
  }

  /** The thread changed (any of its events): the title is worked out again when next asked. */
  forget(): void {
    this.title = undefined;
  }
}

function derive(thread: Thread): string {
  const snapshot = thread.snapshot();
  if (snapshot.state.title) {
    return snapshot.state.title;
  }
  const first = snapshot.entries.find((entry) => entry.kind === 'user');
  const text = first && first.kind === 'user' ? first.text.trim().replace(/\s+/g, ' ') : '';
  return text
    ? text.length > MAX_TITLE_CHARS
      ? `${text.slice(0, MAX_TITLE_CHARS - 1)}…`
      : text
    : 'New chat';
}
