import type * as acp from '@agentclientprotocol/sdk';
import { methods } from '@agentclientprotocol/sdk';
import { AgentSession, type SessionHost, type SessionOptions } from '../session/agentSession';
import { withinDeadline, type DeadlineHost, type TimedMethod } from './deadlines';
import type { AgentError } from './errors';
import { NotSupportedError } from './errors';
import { selectMcpServers } from './mcpSelection';
import { modesOf } from '../thread/normalize';
import type { Logger, PermissionPort } from '../ports';
import { Thread, type ThreadLimits } from '../thread/thread';
import type { SessionRouter } from './updateRouting';

export interface SessionParams {
  readonly cwd: string;
  /** Replaces the client's `mcpServers` option for this session. */
  readonly mcpServers?: readonly acp.McpServer[];
  /**
   * The other workspace roots (multi-root), absolute. Sent only to an agent that advertises
   * `sessionCapabilities.additionalDirectories`; others get `cwd` alone.
   */
  readonly additionalDirectories?: readonly string[];
  /**
   * Aborted when the opening is abandoned (Stop, the chat deleted): the agent is told with
   * `$/cancel_request` and the call rejects at once with kind `cancelled`. Past its deadline
   * (`deadlines.sessionMs`) it is told the same, and the call rejects with kind `timeout`.
   */
  readonly signal?: AbortSignal;
}

/** What opening sessions needs from the connection. */
export interface OpenerHost {
  readonly agentId: string;
  /** The requests' deadlines. */
  readonly deadline: DeadlineHost;
  readonly agent: acp.ClientContext;
  readonly logger: Logger;
  readonly permissions: PermissionPort;
  readonly router: SessionRouter;
  readonly threadLimits?: Partial<ThreadLimits>;
  readonly sessionOptions?: SessionOptions;
  /** The MCP servers for a session not given its own (read at session time). */
  readonly mcpServers?: () => Promise<readonly acp.McpServer[]>;
  /** Aborted when the agent is stopped: openings still waiting are cancelled too. */
  readonly stopping?: AbortSignal;
  /** The agent's name and capabilities from `initialize`. */
  info(): { readonly name: string; readonly capabilities: acp.AgentCapabilities };
  /** Classifies a failed request (the exit or lost connection wins over what the SDK said). */
  failure(error: unknown): AgentError;
  exitReport(): Promise<AgentError | undefined>;
  /** Releases every terminal the session created (and kills its process tree). */
  releaseTerminals(sessionId: string): Promise<void>;
}

/**
 * Opens, lists and closes the agent's sessions (`session/new`, `load`, `resume`, `list`, `close`):
 * each opened session is registered with the router and gets the modes and options the agent answered.
 */
export class SessionOpener {
  private directoriesIgnoredLogged = false;

  constructor(private readonly host: OpenerHost) {}

  /**
   * `session/new`. An agent that needs a sign-in rejects with kind `auth_required`. Pass `thread` to
   * continue an existing transcript in the new session (after a restart, the user keeps what they saw).
   */
  async newSession(params: SessionParams & { readonly thread?: Thread }): Promise<AgentSession> {
    try {
      const request = await this.setupRequest(params);
      const response = await this.timed<acp.NewSessionResponse>(
        'session/new',
        params,
        (options) => this.host.agent.request(methods.agent.session.new, request, options),
        // Answered after we gave up: a session nobody uses is not left open on the agent.
        (late) => void this.discard(late.sessionId),
      );
      const session = this.register(response.sessionId, params.cwd, params.thread);
      applySessionSetup(session, response);
      return session;
    } catch (error) {
      throw this.host.failure(error);
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
    const info = this.host.info();
    if (!info.capabilities.loadSession) {
      throw new NotSupportedError(info.name, 'Loading a session (session/load)');
    }
    const session = this.register(sessionId, params.cwd, params.thread);
    const hasTranscript = session.thread.snapshot().entries.length > 0;
    session.thread.setReplaying(true);
    session.ignoreReplayedTranscript(hasTranscript);
    try {
      const request = { sessionId, ...(await this.setupRequest(params)) };
      const response = await this.timed<acp.LoadSessionResponse>('session/load', params, (options) =>
        this.host.agent.request(methods.agent.session.load, request, options),
      );
      // The last replayed update can reach its handler after the response: let it drain first.
      await new Promise<void>((resolve) => setImmediate(resolve));
      applySessionSetup(session, response ?? {});
      return session;
    } catch (error) {
      session.dispose();
      throw this.host.failure(error);
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
    const info = this.host.info();
    if (!info.capabilities.sessionCapabilities?.resume) {
      throw new NotSupportedError(info.name, 'Resuming a session (session/resume)');
    }
    const session = this.register(sessionId, params.cwd, params.thread);
    try {
      const request = { sessionId, ...(await this.setupRequest(params)) };
      const response = await this.timed<acp.ResumeSessionResponse>('session/resume', params, (options) =>
        this.host.agent.request(methods.agent.session.resume, request, options),
      );
      applySessionSetup(session, response);
      return session;
    } catch (error) {
      session.dispose();
      throw this.host.failure(error);
    }
  }

  /** `session/list`: the agent's sessions, newest pages first as the agent orders them. */
  async listSessions(params: { cwd?: string; cursor?: string } = {}): Promise<acp.ListSessionsResponse> {
    const info = this.host.info();
    if (!info.capabilities.sessionCapabilities?.list) {
      throw new NotSupportedError(info.name, 'Listing sessions (session/list)');
    }
    try {
      return await this.timed<acp.ListSessionsResponse>('session/list', {}, (options) =>
        this.host.agent.request(methods.agent.session.list, params, options),
      );
    } catch (error) {
      throw this.host.failure(error);
    }
  }

  /** `session/close`: ends the session on the agent and stops routing to it. */
  async closeSession(sessionId: string): Promise<void> {
    const info = this.host.info();
    if (!info.capabilities.sessionCapabilities?.close) {
      throw new NotSupportedError(info.name, 'Closing a session (session/close)');
    }
    this.host.router.get(sessionId)?.dispose();
    try {
      await this.timed('session/close', {}, (options) =>
        this.host.agent.request(methods.agent.session.close, { sessionId }, options),
      );
    } catch (error) {
      throw this.host.failure(error);
    }
  }

  /** What `session/new`, `load` and `resume` carry besides the id: the folder, the MCP servers, the other roots. */
  private async setupRequest(
    params: SessionParams,
  ): Promise<{ cwd: string; mcpServers: acp.McpServer[]; additionalDirectories?: string[] }> {
    return { cwd: params.cwd, mcpServers: await this.mcpServersFor(params), ...this.directoriesFor(params) };
  }

  /** `additionalDirectories` for the request: the other roots, when the agent takes them (else said once in the log). */
  private directoriesFor(params: SessionParams): { additionalDirectories?: string[] } {
    const directories = (params.additionalDirectories ?? []).filter((directory) => directory !== params.cwd);
    if (directories.length === 0) {
      return {};
    }
    const info = this.host.info();
    if (!info.capabilities.sessionCapabilities?.additionalDirectories) {
      if (!this.directoriesIgnoredLogged) {
        this.directoriesIgnoredLogged = true;
        this.host.logger.info(
          `${info.name} works in one folder only (no additionalDirectories): ${directories.length} other workspace folder(s) not given to it.`,
        );
      }
      return {};
    }
    return { additionalDirectories: [...directories] };
  }

  /** `session/delete`: removes the session on the agent's side for good (it stops being routed here). */
  async deleteSession(sessionId: string): Promise<void> {
    const info = this.host.info();
    if (!info.capabilities.sessionCapabilities?.delete) {
      throw new NotSupportedError(info.name, 'Deleting a session (session/delete)');
    }
    this.host.router.get(sessionId)?.dispose();
    try {
      await this.timed('session/delete', {}, (options) =>
        this.host.agent.request(methods.agent.session.delete, { sessionId }, options),
      );
    } catch (error) {
      throw this.host.failure(error);
    }
  }

  /**
   * Sends a request with its deadline; abandoning the opening (`params.signal`) or stopping the agent
   * cancels it on the agent (`$/cancel_request`) and stops waiting for it.
   */
  private timed<T>(
    method: TimedMethod,
    params: Pick<SessionParams, 'signal'>,
    send: (options: acp.SendRequestOptions) => Promise<T>,
    late?: (value: T) => void,
  ): Promise<T> {
    const signals = [params.signal, this.host.stopping].filter((signal) => signal !== undefined);
    return withinDeadline(this.host.deadline, method, (cancellationSignal) => send({ cancellationSignal }), {
      ...(signals.length > 0 ? { abandon: AbortSignal.any(signals) } : {}),
      ...(late ? { late } : {}),
    });
  }

  /**
   * Ends a session nobody will use (answered after we gave up on it, or a check's): deleted where the
   * agent can, else closed where it can, else left to the agent. Never throws.
   */
  async discard(sessionId: string): Promise<void> {
    const sessions = this.host.info().capabilities.sessionCapabilities;
    const end = sessions?.delete ? 'delete' : sessions?.close ? 'close' : undefined;
    if (!end) {
      return;
    }
    try {
      await (end === 'delete' ? this.deleteSession(sessionId) : this.closeSession(sessionId));
      this.host.logger.info(`Ended the unused session ${sessionId} (session/${end}).`);
    } catch (error) {
      this.host.logger.warn(
        `Could not end the unused session ${sessionId}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** The session's MCP servers, less those the agent cannot take (each skipped one is logged). */
  private async mcpServersFor(params: SessionParams): Promise<acp.McpServer[]> {
    const logger = this.host.logger;
    let servers = params.mcpServers;
    if (!servers) {
      try {
        servers = (await this.host.mcpServers?.()) ?? [];
      } catch (error) {
        logger.warn(
          `No MCP servers for this session: ${error instanceof Error ? error.message : String(error)}`,
        );
        servers = [];
      }
    }
    const info = this.host.info();
    const { accepted, skipped } = selectMcpServers(servers, info.capabilities.mcpCapabilities, info.name);
    for (const { name, reason } of skipped) {
      logger.warn(`MCP server "${name}" skipped: ${reason}.`);
    }
    if (accepted.length > 0) {
      logger.info(`MCP servers for the session: ${accepted.map((server) => server.name).join(', ')}`);
    }
    return accepted;
  }

  private register(
    sessionId: string,
    cwd: string,
    thread = new Thread(this.host.threadLimits),
  ): AgentSession {
    const { router } = this.host;
    const info = this.host.info();
    const sessionHost: SessionHost = {
      agentId: this.host.agentId,
      agentName: info.name,
      agent: this.host.agent,
      capabilities: info.capabilities,
      permissions: this.host.permissions,
      logger: this.host.logger,
      deadline: this.host.deadline,
      exitReport: () => this.host.exitReport(),
      releaseTerminals: () => this.host.releaseTerminals(sessionId),
      forget: () => router.remove(session),
    };
    const session = new AgentSession(sessionId, cwd, thread, sessionHost, this.host.sessionOptions);
    router.add(session);
    return session;
  }
}

function applySessionSetup(
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
