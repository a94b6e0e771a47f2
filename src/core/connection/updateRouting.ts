import type * as acp from '@agentclientprotocol/sdk';
import { methods, RequestError } from '@agentclientprotocol/sdk';
import type { AgentSession } from '../session/agentSession';
import { registerPortHandlers } from './clientRequests';
import { HeldUpdates } from './heldUpdates';
import { PortRequestError, type ClientPorts, type ElicitationPort, type Logger } from '../ports';

/**
 * Routes what the agent sends about a session to that session: `session/update`s (held, bounded, for
 * a session whose `session/new` answer is not read yet) and `session/request_permission`. Owns the
 * map of live sessions on one connection.
 */
export class SessionRouter {
  private readonly sessions = new Map<string, AgentSession>();
  private readonly heldUpdates: HeldUpdates;

  constructor(logger: Logger) {
    this.heldUpdates = new HeldUpdates(logger);
  }

  /**
   * Registers the agent-to-client handlers on `app` (before it connects: the SDK snapshots them):
   * session updates and permission requests come here, file-system and terminal requests go to the ports.
   */
  registerHandlers(app: acp.ClientApp, ports: ClientPorts, logger: Logger, agentId: string): void {
    app
      .onNotification(methods.client.session.update, ({ params }) =>
        this.route(params.sessionId, params.update),
      )
      .onRequest(methods.client.session.requestPermission, ({ params, signal }) => {
        const session = this.sessions.get(params.sessionId);
        if (!session) {
          throw RequestError.invalidParams(undefined, `Unknown session ${params.sessionId}`);
        }
        return session.requestPermission(params, signal);
      });
    registerPortHandlers(app, ports, logger, (sessionId) => this.sessions.get(sessionId)?.cwd);
    const elicitation = ports.elicitation;
    if (elicitation) {
      app
        .onRequest(methods.client.elicitation.create, ({ params, signal }) =>
          this.elicit(elicitation, agentId, params, signal),
        )
        .onNotification(methods.client.elicitation.complete, ({ params }) =>
          elicitation.complete?.(params.elicitationId),
        );
    }
  }

  /**
   * An elicitation tied to a session lives as long as the session's turn: Stop, closing the session
   * or losing the agent aborts it (the port settles it as `cancel`), as does the agent's own
   * `$/cancel_request` (the SDK's `signal`).
   */
  private async elicit(
    port: ElicitationPort,
    agentId: string,
    params: acp.CreateElicitationRequest,
    signal: AbortSignal,
  ): Promise<acp.CreateElicitationResponse> {
    const sessionId =
      'sessionId' in params && typeof params.sessionId === 'string' ? params.sessionId : undefined;
    if (sessionId === undefined) {
      return asked(() => port.request({ agentId, params }, signal));
    }
    const session = this.sessions.get(sessionId);
    if (!session) {
      throw RequestError.invalidParams(undefined, `Unknown session ${sessionId}`);
    }
    const scope = session.elicitationScope(signal);
    try {
      return await asked(() => port.request({ agentId, sessionId, params }, scope.signal));
    } finally {
      scope.dispose();
    }
  }

  private route(sessionId: string, update: acp.SessionUpdate): void {
    const session = this.sessions.get(sessionId);
    if (session) {
      session.handleUpdate(update);
      return;
    }
    // Agents may send updates (commands, modes) before their session/new response is read.
    this.heldUpdates.hold(sessionId, update);
  }

  get(sessionId: string): AgentSession | undefined {
    return this.sessions.get(sessionId);
  }

  /** Starts routing to `session` (replacing an older one with its id) and hands it what was held for it. */
  add(session: AgentSession): void {
    const previous = this.sessions.get(session.id);
    if (previous && previous !== session) {
      previous.dispose();
    }
    this.sessions.set(session.id, session);
    for (const update of this.heldUpdates.take(session.id)) {
      session.handleUpdate(update);
    }
  }

  /** Stops routing to `session` (when it is still the one registered under its id). */
  remove(session: AgentSession): void {
    if (this.sessions.get(session.id) === session) {
      this.sessions.delete(session.id);
    }
  }

  /** The connection is gone: every session ends its turn with the reason its host reports. */
  abandonAll(): void {
    for (const session of this.sessions.values()) {
      session.abandon();
    }
  }

  disposeAll(): void {
    for (const session of [...this.sessions.values()]) {
      session.dispose();
    }
  }
}

/** A port's answer; its JSON-RPC error as the SDK sends one (anything else it answers as "Internal error"). */
async function asked<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw error instanceof PortRequestError ? new RequestError(error.code, error.message, error.data) : error;
  }
}
