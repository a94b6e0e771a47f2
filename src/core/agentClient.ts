import * as acp from '@agentclientprotocol/sdk';
import { methods, ndJsonStream, PROTOCOL_VERSION, RequestError } from '@agentclientprotocol/sdk';
import * as path from 'node:path';
import {
  AgentProcess,
  describeExit,
  type AgentCommand,
  type AgentProcessOptions,
  type ExitInfo,
} from './agentProcess';
import { AgentSession, type SessionHost, type SessionOptions } from './agentSession';
import { ConnectionLostError, describeCause, OutputClosedError } from './connectionLoss';
import { Emitter, type Disposable } from './disposable';
import { AgentError, AgentExitedError, classifyError, NotSupportedError } from './errors';
import { registerPortHandlers } from './clientRequests';
import { HeldUpdates } from './heldUpdates';
import { lineGuard } from './lineGuard';
import { selectMcpServers } from '../features/mcp/core/mcpServers';
import { modesOf } from './normalize';
import { silentLogger, type ClientPorts, type Logger } from './ports';
import { guardedOutgoing } from './outgoingGuard';
import { tracedStream } from './protocolTrace';
import { Thread, type ThreadLimits } from './thread';

export interface AgentClientOptions {
  /** Our id for the configured agent (defaults to the command); permission answers are remembered per agent. */
  readonly agentId?: string;
  readonly command: AgentCommand;
  readonly ports: ClientPorts;
  readonly clientInfo?: { readonly name: string; readonly version: string; readonly title?: string };
  /** How long `initialize` may take before the start fails with a timeout (default 30 s). */
  readonly initializeTimeoutMs?: number;
  /** Log every protocol message at trace level. */
  readonly traceProtocol?: boolean;
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
}

/** What the agent said about itself in `initialize`. */
export interface AgentDescription {
  /** For messages: the agent's title or name, else the command. */
  readonly name: string;
  readonly protocolVersion: number;
  readonly agentInfo?: acp.Implementation;
  readonly capabilities: acp.AgentCapabilities;
  readonly authMethods: readonly acp.AuthMethod[];
}

export interface SessionParams {
  readonly cwd: string;
  /** Replaces the client's `mcpServers` option for this session. */
  readonly mcpServers?: readonly acp.McpServer[];
}

/** After the agent's output ends, how long its exit may take before it counts as a lost connection. */
const EXIT_AFTER_EOF_MS = 2000;

function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref?.());
}

/**
 * A running agent and the ACP connection to it: one process, any number of sessions. Answers
 * the agent's requests through the ports, routes `session/update`s to their sessions, and turns
 * every failure into a classified `AgentError`.
 */
export class AgentClient implements Disposable {
  private readonly sessions = new Map<string, AgentSession>();
  private readonly heldUpdates: HeldUpdates;
  /** Why the connection closed while the process still ran (an oversized or malformed message). */
  private connectionLoss: ConnectionLostError | undefined;
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

  private constructor(
    readonly process: AgentProcess,
    private readonly connection: acp.ClientConnection,
    private readonly options: AgentClientOptions,
  ) {
    this.logger = options.ports.logger ?? silentLogger;
    this.heldUpdates = new HeldUpdates(this.logger);
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
    // Handlers are snapshotted by connect(): register them first, bound to the client made next.
    const app = acp.client({ name: options.clientInfo?.name ?? 'acp-agents' });
    const pending: { client?: AgentClient } = {};
    AgentClient.registerHandlers(app, options.ports, () => pending.client as AgentClient);
    const self = new AgentClient(agentProcess, app.connect(stream), options);
    pending.client = self;
    agentProcess.onStderr((text) => logger.info(`[stderr] ${text.trimEnd()}`));
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
      const failure = await self.settledFailure(error);
      // Not awaited: the failure is reported now; the process gets its SIGTERM → SIGKILL grace in the background.
      void agentProcess.stop();
      throw failure;
    } finally {
      options.signal?.removeEventListener('abort', stopStarting);
    }
    return self;
  }

  private static registerHandlers(app: acp.ClientApp, ports: ClientPorts, client: () => AgentClient): void {
    app
      .onNotification(methods.client.session.update, ({ params }) =>
        client().routeUpdate(params.sessionId, params.update),
      )
      .onRequest(methods.client.session.requestPermission, ({ params, signal }) => {
        const session = client().sessions.get(params.sessionId);
        if (!session) {
          throw RequestError.invalidParams(undefined, `Unknown session ${params.sessionId}`);
        }
        return session.requestPermission(params, signal);
      });
    registerPortHandlers(
      app,
      ports,
      ports.logger ?? silentLogger,
      (sessionId) => client().sessions.get(sessionId)?.cwd,
    );
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
        const exited = await Promise.race([this.process.exited, delay(EXIT_AFTER_EOF_MS)]);
        reason = exited ? undefined : new OutputClosedError();
      }
      if (this.disposed || !this.process.running || reason === undefined) {
        return; // stopped on purpose, or the process ended first
      }
      this.connectionLoss = new ConnectionLostError(
        reason,
        this.description?.name ?? path.basename(this.options.command.command),
      );
      this.logger.error(`${this.connectionLoss.message} (${describeCause(signal.reason)})`);
      for (const session of this.sessions.values()) {
        session.abandon();
      }
      this.fireEnded(this.connectionLoss);
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

  private routeUpdate(sessionId: string, update: acp.SessionUpdate): void {
    const session = this.sessions.get(sessionId);
    if (session) {
      session.handleUpdate(update);
      return;
    }
    // Agents may send updates (commands, modes) before their session/new response is read.
    this.heldUpdates.hold(sessionId, update);
  }

  private async initialize(): Promise<void> {
    const timeoutMs = this.options.initializeTimeoutMs ?? 30_000;
    const command = this.options.command.command;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new AgentError('timeout', `${command} did not answer initialize within ${timeoutMs / 1000} s.`),
          ),
        timeoutMs,
      );
    });
    const exited = this.process.exited.then((exit): never => {
      throw new AgentExitedError(exit, this.process.stderr.lastLines(20));
    });
    const clientInfo = this.options.clientInfo ?? {
      name: 'acp-agents',
      title: 'ACP Agents for VS Code',
      version: '0.0.1',
    };
    const params: acp.InitializeRequest = {
      protocolVersion: PROTOCOL_VERSION,
      clientInfo,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
    };
    const request = this.agent.request(methods.agent.initialize, params);
    try {
      const response = await Promise.race([request, timeout, exited]);
      if (response.protocolVersion !== PROTOCOL_VERSION) {
        throw new AgentError(
          'not_supported',
          `${command} speaks ACP protocol version ${response.protocolVersion}; this extension speaks version ${PROTOCOL_VERSION}.`,
        );
      }
      const agentInfo = response.agentInfo ?? undefined;
      this.description = {
        name: agentInfo?.title || agentInfo?.name || path.basename(command),
        protocolVersion: response.protocolVersion,
        ...(agentInfo ? { agentInfo } : {}),
        capabilities: response.agentCapabilities ?? {},
        authMethods: response.authMethods ?? [],
      };
      this.logger.info(`Connected to ${this.description.name} (ACP v${response.protocolVersion})`);
    } finally {
      clearTimeout(timer);
      exited.catch(() => {});
    }
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
      await this.agent.request(methods.agent.authenticate, { methodId });
      this.logger.info(`Authenticated with ${this.info.name} using "${methodId}"`);
    } catch (error) {
      throw this.failure(error);
    }
  }

  /**
   * `session/new`. An agent that needs a sign-in rejects with kind `auth_required`. Pass `thread` to
   * continue an existing transcript in the new session (after a restart, the user keeps what they saw).
   */
  async newSession(params: SessionParams & { readonly thread?: Thread }): Promise<AgentSession> {
    try {
      const response = await this.agent.request(methods.agent.session.new, {
        cwd: params.cwd,
        mcpServers: await this.mcpServersFor(params),
      });
      const session = this.register(response.sessionId, params.cwd, params.thread);
      this.applySessionSetup(session, response);
      return session;
    } catch (error) {
      throw this.failure(error);
    }
  }

  /**
   * `session/load`: the agent replays the history. Into a new thread it becomes the transcript;
   * into a `thread` that already holds the transcript (our journal) the replayed messages are
   * dropped rather than shown twice — only session state (modes, commands…) is taken from it.
   */
  async loadSession(
    sessionId: string,
    params: SessionParams & { readonly thread?: Thread },
  ): Promise<AgentSession> {
    if (!this.info.capabilities.loadSession) {
      throw new NotSupportedError(this.info.name, 'Loading a session (session/load)');
    }
    const session = this.register(sessionId, params.cwd, params.thread);
    const hasTranscript = session.thread.snapshot().entries.length > 0;
    session.thread.setReplaying(true);
    session.ignoreReplayedTranscript(hasTranscript);
    try {
      const response = await this.agent.request(methods.agent.session.load, {
        sessionId,
        cwd: params.cwd,
        mcpServers: await this.mcpServersFor(params),
      });
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.applySessionSetup(session, response ?? {});
      return session;
    } catch (error) {
      session.dispose();
      throw this.failure(error);
    } finally {
      session.thread.setReplaying(false);
      session.ignoreReplayedTranscript(false);
    }
  }

  /** `session/resume`: reattach to a session without a replay. */
  async resumeSession(
    sessionId: string,
    params: SessionParams & { readonly thread?: Thread },
  ): Promise<AgentSession> {
    if (!this.info.capabilities.sessionCapabilities?.resume) {
      throw new NotSupportedError(this.info.name, 'Resuming a session (session/resume)');
    }
    const session = this.register(sessionId, params.cwd, params.thread);
    try {
      const response = await this.agent.request(methods.agent.session.resume, {
        sessionId,
        cwd: params.cwd,
        mcpServers: await this.mcpServersFor(params),
      });
      this.applySessionSetup(session, response);
      return session;
    } catch (error) {
      session.dispose();
      throw this.failure(error);
    }
  }

  /** The session's MCP servers, less those the agent cannot take (each skipped one is logged). */
  private async mcpServersFor(params: SessionParams): Promise<acp.McpServer[]> {
    let servers = params.mcpServers;
    if (!servers) {
      try {
        servers = (await this.options.mcpServers?.()) ?? [];
      } catch (error) {
        this.logger.warn(
          `No MCP servers for this session: ${error instanceof Error ? error.message : String(error)}`,
        );
        servers = [];
      }
    }
    const { accepted, skipped } = selectMcpServers(
      servers,
      this.info.capabilities.mcpCapabilities,
      this.info.name,
    );
    for (const { name, reason } of skipped) {
      this.logger.warn(`MCP server "${name}" skipped: ${reason}.`);
    }
    if (accepted.length > 0) {
      this.logger.info(`MCP servers for the session: ${accepted.map((server) => server.name).join(', ')}`);
    }
    return accepted;
  }

  /** `session/list`: the agent's sessions, newest pages first as the agent orders them. */
  async listSessions(params: { cwd?: string; cursor?: string } = {}): Promise<acp.ListSessionsResponse> {
    if (!this.info.capabilities.sessionCapabilities?.list) {
      throw new NotSupportedError(this.info.name, 'Listing sessions (session/list)');
    }
    try {
      return await this.agent.request(methods.agent.session.list, params);
    } catch (error) {
      throw this.failure(error);
    }
  }

  /** `session/close`: ends the session on the agent and stops routing to it. */
  async closeSession(sessionId: string): Promise<void> {
    if (!this.info.capabilities.sessionCapabilities?.close) {
      throw new NotSupportedError(this.info.name, 'Closing a session (session/close)');
    }
    this.sessions.get(sessionId)?.dispose();
    try {
      await this.agent.request(methods.agent.session.close, { sessionId });
    } catch (error) {
      throw this.failure(error);
    }
  }

  /**
   * Like `failure`, but first waits briefly for the exit: when the agent dies, its stdout closes
   * (failing the request) a moment before the exit is reported.
   */
  private async settledFailure(error: unknown): Promise<AgentError> {
    const classified = classifyError(error);
    if (classified.kind === 'timeout') {
      return classified;
    }
    if (classified.code === undefined && !(classified instanceof AgentExitedError)) {
      return (await this.exitReport()) ?? classified;
    }
    return classified;
  }

  /** Classifies a failed request; once the process is gone that is the reason, whatever the SDK said. */
  private failure(error: unknown): AgentError {
    const exit = this.process.exitInfo;
    const classified = classifyError(error);
    if (this.connectionLoss && classified.code === undefined) {
      return this.connectionLoss;
    }
    if (exit && classified.code === undefined && !(classified instanceof AgentExitedError)) {
      return new AgentExitedError(exit, this.process.stderr.lastLines(20));
    }
    return classified;
  }

  session(sessionId: string): AgentSession | undefined {
    return this.sessions.get(sessionId);
  }

  private register(
    sessionId: string,
    cwd: string,
    thread = new Thread(this.options.threadLimits),
  ): AgentSession {
    this.sessions.get(sessionId)?.dispose();
    const host: SessionHost = {
      agentId: this.options.agentId ?? this.options.command.command,
      agentName: this.info.name,
      agent: this.agent,
      capabilities: this.info.capabilities,
      permissions: this.options.ports.permissions,
      logger: this.logger,
      exitReport: () => this.exitReport(),
      releaseTerminals: () => this.options.ports.terminals.releaseSession?.(sessionId) ?? Promise.resolve(),
      forget: (id) => {
        if (this.sessions.get(id) === session) {
          this.sessions.delete(id);
        }
      },
    };
    const session = new AgentSession(sessionId, cwd, thread, host, this.options.sessionOptions);
    this.sessions.set(sessionId, session);
    for (const update of this.heldUpdates.take(sessionId)) {
      session.handleUpdate(update);
    }
    return session;
  }

  private applySessionSetup(
    session: AgentSession,
    response: { modes?: acp.SessionModeState | null; configOptions?: acp.SessionConfigOption[] | null },
  ): void {
    if (response.modes) {
      session.thread.setState('modes', modesOf(response.modes));
    }
    if (response.configOptions) {
      session.thread.setConfigOptions(response.configOptions);
    }
  }

  /** The exit as an error, waiting briefly: stdout can close a moment before the exit is reported. */
  /**
   * The exit (or the lost connection) as an error. Waits briefly only when the connection is
   * already closed — stdout closes a moment before the exit is reported — never for a live one.
   */
  private async exitReport(): Promise<AgentError | undefined> {
    if (this.connectionLoss) {
      return this.connectionLoss;
    }
    if (!this.process.exitInfo && !this.connection.signal.aborted) {
      return undefined;
    }
    let timer: NodeJS.Timeout | undefined;
    const exit =
      this.process.exitInfo ??
      (await Promise.race([
        this.process.exited,
        new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 2000))),
      ]));
    clearTimeout(timer);
    return (
      this.connectionLoss ??
      (exit ? new AgentExitedError(exit, this.process.stderr.lastLines(20)) : undefined)
    );
  }

  /** Why the agent is gone (the lost connection, else the exit); undefined while it runs. */
  get endReason(): AgentError | undefined {
    if (this.connectionLoss) {
      return this.connectionLoss;
    }
    const exit = this.process.exitInfo;
    return exit ? new AgentExitedError(exit, this.process.stderr.lastLines(20)) : undefined;
  }

  private handleExit(exit: ExitInfo): void {
    const error = this.connectionLoss ?? new AgentExitedError(exit, this.process.stderr.lastLines(20));
    if (this.connectionLoss) {
      this.logger.info(`Agent stopped (${describeExit(exit)})`);
    } else if (this.disposed) {
      this.logger.info(`Agent stopped (${error.message})`);
    } else {
      const tail = error instanceof AgentExitedError ? error.stderrTail : [];
      this.logger.error(`${error.message}${tail.length ? `\n${tail.join('\n')}` : ''}`);
    }
    for (const session of this.sessions.values()) {
      session.abandon();
    }
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
    for (const session of [...this.sessions.values()]) {
      session.dispose();
    }
    const exit = await this.process.stop();
    this.connection.close();
    return exit;
  }

  dispose(): void {
    void this.stop();
  }
}
