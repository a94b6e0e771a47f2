import { ViewMessageSchema, type ViewMessage } from '../src/protocol';

/** The part of VS Code's webview API we use. */
interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare const acquireVsCodeApi: (() => VsCodeApi) | undefined;

/** What survives the view being hidden and shown again. */
interface PersistedState {
  readonly draft: string;
}

/**
 * The view's only way out: every message is checked against the protocol before it is posted,
 * so a bug here shows up as a warning instead of a host-side error.
 */
export class HostBridge {
  private readonly api: VsCodeApi;

  constructor() {
    // Outside a webview (a plain browser while developing) messages go nowhere.
    this.api =
      typeof acquireVsCodeApi === 'function'
        ? acquireVsCodeApi()
        : { postMessage: () => undefined, getState: () => undefined, setState: () => undefined };
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

  get draft(): string {
    const state = this.api.getState();
    if (typeof state === 'object' && state !== null && 'draft' in state && typeof state.draft === 'string') {
      return state.draft;
    }
    return '';
  }

  set draft(draft: string) {
    const state: PersistedState = { draft };
    this.api.setState(state);
  }
}
