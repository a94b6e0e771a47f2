import * as acp from '@agentclientprotocol/sdk';
import { methods, ndJsonStream } from '@agentclientprotocol/sdk';
import * as path from 'node:path';
import {
  AgentProcess,
  describeExit,
  type AgentCommand,
  type AgentProcessOptions,
  type ExitInfo,
} from './agentProcess';
import { systemClock, type Clock } from '../util/clock';
import { DEFAULT_DEADLINES, withinDeadline, type DeadlineHost, type RequestDeadlines } from './deadlines';
import type { AgentSession, SessionOptions } from '../session/agentSession';
import { ConnectionLostError, describeCause, OutputClosedError } from './connectionLoss';
import { AgentEndReasons, exitWithin } from './endReasons';
import { Emitter, type Disposable } from '../util/disposable';
import { AgentExitedError, NotSupportedError, type AgentError } from './errors';
import { lineGuard } from './lineGuard';
import { silentLogger, type ClientPorts, type Logger } from '../ports';
import { guardedOutgoing } from './outgoingGuard';
import { tracedStream } from './protocolTrace';
import { SessionOpener, type SessionParams } from './sessionOpening';
import type { Thread, ThreadLimits } from '../thread/thread';
import { SessionRouter } from './updateRouting';

export interface AgentClientOptions {
  /** Our id for the configured agent (defaults to the command); permission answers are remembered per agent. */
  readonly agentId?: string;
  readonly command: AgentCommand;
  readonly ports: ClientPorts;
  readonly clientInfo?: { readonly name: string; readonly version: string; readonly title?: string };
  /** The agent's name as the user knows it (the configured label), for messages; else its own, from `initialize`. */
  readonly label?: string;
  /** How long each kind of request may go unanswered (`DEFAULT_DEADLINES` for what is not given). */
  readonly deadlines?: Partial<RequestDeadlines>;
  /** The clock deadlines run on (tests move it by hand). */
  readonly clock?: Clock;
  /** Log every protocol message at trace level. */
  readonly traceProtocol?: boolean;
  /** The host runs terminal sign-in methods in a terminal the user types in: advertised as `auth.terminal`. */
  readonly terminalAuth?: boolean;
  readonly threadLimits?: Partial<ThreadLimits>;
  readonly sessionOptions?: SessionOptions;
  readonly processOptions?: AgentProcessOptions;
  /**
   * The MCP servers to give every session (`session/new`, `load`, `resume`) that is not given its own,
   * read at session time (secrets resolved then, never stored). Filtered by the agent's `mcpCapabilities`.
   */
  readonly mcpServers?: () => Promise<readonly acp.McpServer[]>;
  /** Aborting it during the start stops the process at once (the start then rejects). */
  readonly signal?: AbortSignal;
  /** Each piece of the agent's stderr as it arrives, from the start on (the chat shows a fatal line at once). */
  readonly onStderr?: (text: string) => void;
}

import { handshake, type AgentDescription } from './handshake';
export type { AgentDescription } from './handshake';
export type { SessionParams } from './sessionOpening';

/** After the agent's output ends, how long its exit may take before it counts as a lost connection. */
const EXIT_AFTER_EOF_MS = 2000;

/**
 * A running agent and the ACP connection to it: one process, any number of sessions. Starts and
 * initializes it, watches the connection and the process, and turns every failure into a classified
 * `AgentError`. Opening sessions is the `SessionOpener`'s job, routing what the agent sends the
 * `SessionRouter`'s; this class is where protocol v1's connection lives.
 */
export class AgentClient implements Disposable {
  private readonly opener: SessionOpener;
  /** Why the agent is gone, and what a failed request says once it is. */
  private readonly ends: AgentEndReasons;
  private readonly exitEmitter = new Emitter<ExitInfo>();
  /** Fires once when the agent process has ended, for whatever reason. */
  readonly onExit = this.exitEmitter.event;
  private readonly endEmitter = new Emitter<AgentError>();
  private ended = false;
  /**
   * Fires once when the agent is gone for the user: its connection was lost (even while the
   * process is still being stopped) or its process ended. Carries the reason to show.
   */
  readonly onEnded = this.endEmitter.event;
  readonly logger: Logger;
  private description: AgentDescription | undefined;
  private disposed = false;
  /** Aborted by `stop()`: session openings still waiting are cancelled on the agent (`$/cancel_request`). */
  private readonly stopping = new AbortController();
  /** Every request's deadline, and what a timeout says (the agent's name, its last stderr lines). */
  private readonly deadline: DeadlineHost;

  private constructor(
    readonly process: AgentProcess,
    private readonly connection: acp.ClientConnection,
    private readonly router: SessionRouter,
    private readonly options: AgentClientOptions,
  ) {
    this.logger = options.ports.logger ?? silentLogger;
    this.ends = new AgentEndReasons(process, connection.signal);
    this.deadline = {
      deadlines: { ...DEFAULT_DEADLINES, ...options.deadlines },
      clock: options.clock ?? systemClock,
      // The name the user gave it (the picker's) says which agent; the one it calls itself may be another's.
      agentName: () => options.label ?? this.description?.name ?? path.basename(options.command.command),
      stderrTail: () => this.process.stderr.lastLines(20),
    };
    this.opener = new SessionOpener({
      deadline: this.deadline,
      agentId: options.agentId ?? options.command.command,
      agent: connection.agent,
      logger: this.logger,
      permissions: options.ports.permissions,
      router,
      ...(options.threadLimits ? { threadLimits: options.threadLimits } : {}),
      ...(options.sessionOptions ? { sessionOptions: options.sessionOptions } : {}),
      ...(options.mcpServers ? { mcpServers: options.mcpServers } : {}),
      stopping: this.stopping.signal,
      info: () => this.info,
      failure: (error) => this.ends.failure(error),
      exitReport: () => this.ends.exitReport(),
      releaseTerminals: (sessionId) =>
        options.ports.terminals.releaseSession?.(sessionId) ?? Promise.resolve(),
    });
  }

  /** Starts the agent process and completes `initialize`. Rejects with an `AgentError`. */
  static async start(options: AgentClientOptions): Promise<AgentClient> {
    const logger = options.ports.logger ?? silentLogger;
    const agentProcess = new AgentProcess(options.command, options.processOptions);
    logger.info(
      `Starting ${[options.command.command, ...options.command.args].join(' ')} (pid ${agentProcess.pid ?? '?'})`,
    );
    const stdout = agentProcess.stdout.pipeThrough(
      lineGuard((line) =>
        logger.warn(
          `Ignored a line on the agent's stdout that is not JSON-RPC (${line.bytes} bytes): ${line.preview}`,
        ),
      ),
    );
    const output = { ended: false };
    const watchedStdout = stdout.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({ flush: () => void (output.ended = true) }),
    );
    let stream = guardedOutgoing(ndJsonStream(agentProcess.stdin, watchedStdout));
    if (options.traceProtocol) {
      stream = tracedStream(stream, logger);
    }
    // Handlers are snapshotted by connect(): register them first.
    const app = acp.client({ name: options.clientInfo?.name ?? 'acp-agents' });
    const router = new SessionRouter(logger);
    router.registerHandlers(app, options.ports, logger, options.agentId ?? options.command.command);
    const self = new AgentClient(agentProcess, app.connect(stream), router, options);
    agentProcess.onStderr((text) => {
      logger.info(`[stderr] ${text.trimEnd()}`);
      options.onStderr?.(text);
    });
    void agentProcess.exited.then((exit) => self.handleExit(exit));
    self.watchConnection(output);
    // Stopped while starting (the user pressed Stop or Restart, VS Code is shutting down): no waiting for
    // an answer to `initialize` that nobody wants any more.
    const stopStarting = (): void => void agentProcess.stop();
    options.signal?.addEventListener('abort', stopStarting, { once: true });
    try {
      if (options.signal?.aborted) {
        stopStarting();
      }
      await self.initialize();
    } catch (error) {
      const failure = await self.ends.settledFailure(error);
      // Not awaited: the failure is reported now; the process gets its SIGTERM → SIGKILL grace in the background.
      void agentProcess.stop();
      throw failure;
    } finally {
      options.signal?.removeEventListener('abort', stopStarting);
    }
    return self;
  }

  /**
   * The SDK closes the connection on its own when the agent sends something it cannot go on from
   * (a line over the size limit, a stream error). The process may still run, so its exit alone
   * would never tell: the agent is stopped and every session learns why.
   */
  private watchConnection(output: { readonly ended: boolean }): void {
    const signal = this.connection.signal;
    const onClosed = async (): Promise<void> => {
      let reason: unknown = signal.reason;
      if (output.ended) {
        // The output ended: normally the exit follows at once, and the exit tells the story.
        const exited = await exitWithin(this.process, EXIT_AFTER_EOF_MS);
        reason = exited ? undefined : new OutputClosedError();
      }
      if (this.disposed || !this.process.running || reason === undefined) {
        return; // stopped on purpose, or the process ended first
      }
      const loss = new ConnectionLostError(
        reason,
        this.description?.name ?? path.basename(this.options.command.command),
      );
      this.ends.lost(loss);
      this.logger.error(`${loss.message} (${describeCause(signal.reason)})`);
      this.router.abandonAll();
      this.fireEnded(loss);
      void this.process.stop();
    };
    if (signal.aborted) {
      void onClosed();
    } else {
      signal.addEventListener('abort', () => void onClosed(), { once: true });
    }
  }

  /** False once the connection is gone (even while the process still runs). */
  get connected(): boolean {
    return !this.connection.signal.aborted && this.process.running;
  }

  private async initialize(): Promise<void> {
    this.description = await handshake(this.agent, this.process, this.deadline, {
      ...this.options,
      elicitation: this.options.ports.elicitation !== undefined,
    });
    this.logger.info(`Connected to ${this.description.name} (ACP v${this.description.protocolVersion})`);
  }

  /** The agent's name as the user knows it (the configured label), else the one it gives itself. */
  get displayName(): string {
    return this.deadline.agentName();
  }

  get info(): AgentDescription {
    if (!this.description) {
      throw new Error('The agent is not initialized.');
    }
    return this.description;
  }

  get exitInfo(): ExitInfo | undefined {
    return this.process.exitInfo;
  }

  private get agent(): acp.ClientContext {
    return this.connection.agent;
  }

  async authenticate(methodId: string): Promise<void> {
    try {
      await withinDeadline(this.deadline, 'authenticate', (cancellationSignal) =>
        this.agent.request(methods.agent.authenticate, { methodId }, { cancellationSignal }),
      );
      this.logger.info(`Authenticated with ${this.info.name} using "${methodId}"`);
    } catch (error) {
      throw this.ends.failure(error);
    }
  }

  newSession(params: SessionParams & { readonly thread?: Thread }): Promise<AgentSession> {
    return this.opener.newSession(params);
  }

  loadSession(
    sessionId: string,
    params: SessionParams & { readonly thread?: Thread },
  ): Promise<AgentSession> {
    return this.opener.loadSession(sessionId, params);
  }

  resumeSession(
    sessionId: string,
    params: SessionParams & { readonly thread?: Thread },
  ): Promise<AgentSession> {
    return this.opener.resumeSession(sessionId, params);
  }

  listSessions(params: { cwd?: string; cursor?: string } = {}): Promise<acp.ListSessionsResponse> {
    return this.opener.listSessions(params);
  }

  closeSession(sessionId: string): Promise<void> {
    return this.opener.closeSession(sessionId);
  }

  deleteSession(sessionId: string): Promise<void> {
    return this.opener.deleteSession(sessionId);
  }

  /** Ends a session nobody will use: deleted where the agent can, else closed where it can. Never throws. */
  discardSession(sessionId: string): Promise<void> {
    return this.opener.discard(sessionId);
  }

  /** `logout`: signs out of the agent (Sign out), for an agent that advertises `auth.logout`. */
  async logout(): Promise<void> {
    if (!this.info.capabilities.auth?.logout) {
      throw new NotSupportedError(this.info.name, 'Signing out (logout)');
    }
    try {
      await withinDeadline(this.deadline, 'logout', (cancellationSignal) =>
        this.agent.request(methods.agent.logout, {}, { cancellationSignal }),
      );
      this.logger.info(`Signed out of ${this.info.name}`);
    } catch (error) {
      throw this.ends.failure(error);
    }
  }

  session(sessionId: string): AgentSession | undefined {
    return this.router.get(sessionId);
  }

  /** Why the agent is gone (the lost connection, else the exit); undefined while it runs. */
  get endReason(): AgentError | undefined {
    return this.ends.endReason;
  }

  private handleExit(exit: ExitInfo): void {
    const error = this.ends.exitError(exit);
    if (this.ends.connectionLoss) {
      this.logger.info(`Agent stopped (${describeExit(exit)})`);
    } else if (this.disposed) {
      this.logger.info(`Agent stopped (${error.message})`);
    } else {
      const tail = error instanceof AgentExitedError ? error.stderrTail : [];
      this.logger.error(`${error.message}${tail.length ? `\n${tail.join('\n')}` : ''}`);
    }
    this.router.abandonAll();
    this.connection.close(error);
    this.fireEnded(error);
    this.exitEmitter.fire(exit);
  }

  private fireEnded(reason: AgentError): void {
    if (!this.ended) {
      this.ended = true;
      this.endEmitter.fire(reason);
    }
  }

  /** Stops the agent process (stdin closed, SIGTERM, then SIGKILL) and ends every session. */
  async stop(): Promise<ExitInfo> {
    this.disposed = true;
    this.stopping.abort(new Error('The agent was stopped.'));
    this.router.disposeAll();
    const exit = await this.process.stop();
    this.connection.close();
    return exit;
  }

  dispose(): void {
    void this.stop();
  }
}
