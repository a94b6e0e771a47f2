import type * as acp from '@agentclientprotocol/sdk';
import { isBrandedInstance } from './util/bundleBrand';
import type { Event } from './util/disposable';
import type { PermissionOption, ToolCallEntry } from './thread/threadTypes';

/*
 * What the core needs from the editor, as small interfaces the core owns. src/vscode implements
 * them with the workspace API and dialogs; src/core/node implements them for tests and tools.
 */

/** A file the agent asked for does not exist. Answered to the agent as ACP's resource-not-found. */
export class FileNotFoundError extends Error {
  /** Thrown by the chat's ports, checked by the connection's bundle: `instanceof` by brand (./bundleBrand). */
  static readonly brand: string = 'acp-agents:FileNotFoundError';
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBrandedInstance(this, value);
  }

  constructor(readonly path: string) {
    super(`File not found: ${path}`);
    this.name = 'FileNotFoundError';
  }
}

/**
 * Why the client refused an agent's request, sent to the agent in the error's `data.reason` so it
 * can tell a decision from a failure and act on it:
 * - `user_declined`: the user said no (rejected an edit, kept their unsaved changes);
 * - `outside_workspace`: the path is outside the workspace folders and the user did not allow it;
 * - `untrusted`: the workspace is not trusted;
 * - `unsupported`: the request cannot be served as asked (a binary file, a folder, over a limit);
 * - `not_available`: this client does not offer the service here (e.g. the agent check's sandbox).
 */
export type RefusalReason =
  'user_declined' | 'outside_workspace' | 'untrusted' | 'unsupported' | 'not_available';

/**
 * A request the client refuses for a reason the agent should hear. It is answered with its own
 * JSON-RPC code (not "Internal error"), the message, and what the agent can do about it. A
 * failure (an I/O error) is not a refusal: throw a plain Error for that.
 */
export class ClientRefusalError extends Error {
  /** Thrown by the chat's ports, checked by the connection's bundle: `instanceof` by brand (./bundleBrand). */
  static readonly brand: string = 'acp-agents:ClientRefusalError';
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBrandedInstance(this, value);
  }

  constructor(
    message: string,
    readonly reason: RefusalReason,
  ) {
    super(message);
    this.name = 'ClientRefusalError';
  }
}

/**
 * A port's answer to an agent's request as a JSON-RPC error with a code of its own (an elicitation the
 * chat cannot show is invalid params). The connection sends it to the agent as it is; it is made
 * without the SDK, which the chat's bundle does not carry.
 */
export class PortRequestError extends Error {
  /** Thrown by the chat's ports, checked by the connection's bundle: `instanceof` by brand (./bundleBrand). */
  static readonly brand: string = 'acp-agents:PortRequestError';
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBrandedInstance(this, value);
  }

  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'PortRequestError';
  }
}

export interface FileSystemPort {
  /** The file's whole current text (an open editor's unsaved text wins over disk). */
  readTextFile(path: string, context: { sessionId: string }): Promise<string>;
  /** Writes the whole text, creating the file and its folders when missing. */
  writeTextFile(path: string, content: string, context: { sessionId: string }): Promise<void>;
}

export interface PermissionPrompt {
  /** Which configured agent asks (`AgentClientOptions.agentId`), for remembered answers. */
  readonly agentId: string;
  readonly sessionId: string;
  /** Our key for this request (also on the tool call entry). */
  readonly key: string;
  /** The tool call as the thread knows it when the request arrives. */
  readonly toolCall: ToolCallEntry;
  readonly options: readonly PermissionOption[];
  /** Requests of the same session waiting behind this one when it is asked. */
  readonly waiting?: number;
  /** It waited behind another request: a dialog for it would follow another (show the chat instead). */
  readonly following?: boolean;
}

export type PermissionDecision =
  { readonly outcome: 'selected'; readonly optionId: string } | { readonly outcome: 'cancelled' };

export interface PermissionPort {
  /**
   * Asks for a decision. `signal` aborts when the request is settled elsewhere (the turn was
   * cancelled, the user answered inline, the agent went away): stop asking then.
   */
  request(prompt: PermissionPrompt, signal: AbortSignal): Promise<PermissionDecision>;
  /** Told the final decision however it was made (dialog, inline card, cancel), e.g. to remember "always". */
  settled?(prompt: PermissionPrompt, decision: PermissionDecision): void;
}

export interface TerminalCreateRequest {
  readonly sessionId: string;
  readonly command: string;
  /** When absent or empty, `command` is one shell command line. */
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Output kept, in bytes; older output is dropped from the start. */
  readonly outputByteLimit?: number;
}

export interface TerminalExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

export interface TerminalOutput {
  readonly output: string;
  readonly truncated: boolean;
  readonly exitStatus?: TerminalExit;
}

/** New terminal output for the view: a delta after an offset, or (`append` false) all that is held. */
export interface TerminalDelta {
  readonly text: string;
  /** True: `text` continues what was read up to the offset asked from. False: it replaces it. */
  readonly append: boolean;
  /** The offset to ask from next time. */
  readonly next: number;
  readonly truncated: boolean;
  readonly exitStatus?: TerminalExit;
}

export interface TerminalPort {
  /** A terminal's id whenever its output grows or its command exits (read it with `lastOutput`). */
  readonly onDidChange?: Event<string>;
  /**
   * The terminal's output for display, also shortly after the agent released it (the agent often
   * releases a terminal right after reading it; the view must still show how it ended).
   */
  lastOutput?(terminalId: string): TerminalOutput | undefined;
  /**
   * Output since `offset` (from a previous delta's `next`; 0 at first) as a delta whose cost is
   * its own size; the whole held output when that part was dropped or `offset` is negative.
   * Undefined for an unknown terminal.
   */
  outputFrom?(terminalId: string, offset: number): TerminalDelta | undefined;
  create(request: TerminalCreateRequest): Promise<string>;
  /**
   * The terminal's output. With `sessionId` (the agent's requests always pass it) a terminal another
   * session created is "not found": terminals belong to the session that created them.
   */
  output(terminalId: string, sessionId?: string): Promise<TerminalOutput>;
  waitForExit(terminalId: string, sessionId?: string): Promise<TerminalExit>;
  /** Ends the command and its whole process tree. */
  kill(terminalId: string, sessionId?: string): Promise<void>;
  release(terminalId: string, sessionId?: string): Promise<void>;
  /** Releases (and kills) every terminal of a session: it ended, or its agent stopped or crashed. */
  releaseSession?(sessionId: string): Promise<void>;
}

/** Where the core writes what it did and what went wrong; the VS Code side is a LogOutputChannel. */
export interface Logger {
  trace(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: Logger = { trace() {}, info() {}, warn() {}, error() {} };

/** An agent's `elicitation/create`, with the session it is tied to (absent when request-scoped). */
export interface ElicitationRequest {
  readonly agentId: string;
  readonly sessionId?: string;
  /** As the SDK validated it; the port bounds and normalises it before anything is shown. */
  readonly params: acp.CreateElicitationRequest;
}

export interface ElicitationPort {
  /**
   * Asks the user. `signal` aborts when the question is void (Stop, the session ended, the agent
   * cancelled the request or went away): settle as `cancel` then. Throw a `RequestError` to refuse
   * a request that cannot be shown (the agent receives it as the JSON-RPC error).
   */
  request(request: ElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse>;
  /** The agent's `elicitation/complete`: the URL flow of `elicitationId` finished on its side. */
  complete?(elicitationId: string): void;
}

export interface ClientPorts {
  readonly fileSystem: FileSystemPort;
  readonly permissions: PermissionPort;
  readonly terminals: TerminalPort;
  /** Elicitation is advertised only when this is given. */
  readonly elicitation?: ElicitationPort;
  readonly logger?: Logger;
}
