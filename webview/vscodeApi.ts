import * as z from 'zod/mini';
import {
  AttachmentRefSchema,
  ViewMessageSchema,
  type AttachmentRef,
  type ViewMessage,
} from '../src/protocol';

/** The part of VS Code's webview API we use. */
interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare const acquireVsCodeApi: (() => VsCodeApi) | undefined;

/** A queued message as kept across the view being hidden (images are not kept: too large for the state). */
export interface PersistedQueuedMessage {
  readonly text: string;
  readonly attachments: readonly AttachmentRef[];
}

/**
 * What survives the view being hidden and shown again; read back through zod like any other input,
 * field by field so a bad queue does not cost the draft. (Not `z.catch`: in zod/mini it keeps all
 * of zod's utilities in the bundle, ≈ 8 KiB.)
 */
const DraftSchema = z.string();
const QueueSchema = z.array(z.object({ text: z.string(), attachments: z.array(AttachmentRefSchema) }));
/** The chat shown: an editor tab reopens it after a reload (the host's panel serializer reads it). */
const ChatIdSchema = z.string();
/** Each chat's own draft, by chat id: typing in one chat does not follow you to the next. */
const DraftsSchema = z.record(z.string(), z.string());
/** Drafts kept at most (the most recently typed); an empty draft is not kept. */
const MAX_DRAFTS = 50;
const PersistedStateSchema = z.object({
  draft: z.optional(z.unknown()),
  drafts: z.optional(z.unknown()),
  queue: z.optional(z.unknown()),
  chatId: z.optional(z.unknown()),
});

interface PersistedState {
  /** The draft of a view that shows no chat yet. */
  readonly draft: string;
  readonly drafts?: Readonly<Record<string, string>>;
  readonly queue?: z.infer<typeof QueueSchema>;
  readonly chatId?: string;
}

/**
 * The view's only way out: every message is checked against the protocol before it is posted,
 * so a bug here shows up as a warning instead of a host-side error.
 */
export class HostBridge {
  private readonly api: VsCodeApi;
  /**
   * The state as last written (at first, as read back), serialised: a write of the same state is not made
   * again. In VS Code each `setState` is a message to the window (which shares its main thread with the
   * page) carrying the whole state, drafts of fifty chats included.
   */
  private written: string;

  constructor() {
    // Outside a webview (a plain browser while developing) messages go nowhere.
    this.api =
      typeof acquireVsCodeApi === 'function'
        ? acquireVsCodeApi()
        : { postMessage: () => undefined, getState: () => undefined, setState: () => undefined };
    this.written = JSON.stringify(this.state());
  }

  /** Posts a message; returns false (and warns) when it is not a valid ViewMessage. */
  post(message: ViewMessage): boolean {
    const parsed = ViewMessageSchema.safeParse(message);
    if (!parsed.success) {
      console.warn('ACP chat: not posting an invalid message', message, parsed.error.issues);
      return false;
    }
    this.api.postMessage(parsed.data);
    return true;
  }

  /** The draft of the chat shown. */
  get draft(): string {
    const state = this.state();
    return state.chatId === undefined ? state.draft : (state.drafts?.[state.chatId] ?? '');
  }

  set draft(draft: string) {
    const state = this.state();
    if (state.chatId === undefined) {
      this.write({ ...state, draft });
      return;
    }
    const others = Object.entries(state.drafts ?? {}).filter(([chatId]) => chatId !== state.chatId);
    const drafts = Object.fromEntries(
      [...others, ...(draft ? [[state.chatId, draft]] : [])].slice(-MAX_DRAFTS),
    );
    this.write({ ...state, drafts });
  }

  /** The queued messages of a view that was hidden while they waited. */
  get queue(): readonly PersistedQueuedMessage[] {
    return this.state().queue ?? [];
  }

  set queue(queue: readonly PersistedQueuedMessage[]) {
    const kept = queue.map(({ text, attachments }) => ({ text, attachments: [...attachments] }));
    this.write({ ...this.state(), queue: kept });
  }

  /** The chat the view showed last (also before a reload). */
  get shownChatId(): string | undefined {
    return this.state().chatId;
  }

  /** Remembers the chat the view shows, for the tab to come back with it after a reload. */
  set shownChatId(chatId: string) {
    this.write({ ...this.state(), chatId });
  }

  private write(state: PersistedState): void {
    const serialised = JSON.stringify(state);
    if (serialised !== this.written) {
      this.written = serialised;
      this.api.setState(state);
    }
  }

  private state(): PersistedState {
    const parsed = PersistedStateSchema.safeParse(this.api.getState());
    if (!parsed.success) {
      return { draft: '' };
    }
    const draft = DraftSchema.safeParse(parsed.data.draft);
    const drafts = DraftsSchema.safeParse(parsed.data.drafts);
    const chatId = ChatIdSchema.safeParse(parsed.data.chatId);
    const state = {
      draft: draft.success ? draft.data : '',
      ...(drafts.success ? { drafts: drafts.data } : {}),
      ...(chatId.success ? { chatId: chatId.data } : {}),
    };
    if (parsed.data.queue === undefined) {
      return state;
    }
    const queue = QueueSchema.safeParse(parsed.data.queue);
    return { ...state, queue: queue.success ? queue.data : [] };
  }
}
