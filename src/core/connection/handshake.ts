import type * as acp from '@agentclientprotocol/sdk';
import { methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import * as path from 'node:path';
import type { AgentCommand, AgentProcess } from './agentProcess';
import { withinDeadline, type DeadlineHost } from './deadlines';
import { AgentError, AgentExitedError } from './errors';

/** What the agent said about itself in `initialize`. */
export interface AgentDescription {
  /** For messages: the agent's title or name, else the command. */
  readonly name: string;
  readonly protocolVersion: number;
  readonly agentInfo?: acp.Implementation;
  readonly capabilities: acp.AgentCapabilities;
  readonly authMethods: readonly acp.AuthMethod[];
}

/** What the handshake needs to know about us. */
export interface HandshakeOptions {
  readonly command: AgentCommand;
  readonly clientInfo?: { readonly name: string; readonly version: string; readonly title?: string };
  /** Advertise elicitation (the client has an elicitation port). */
  readonly elicitation?: boolean;
  /** Advertise `auth.terminal` (the host can run sign-in commands in a terminal). */
  readonly terminalAuth?: boolean;
}

/** What this client can do for an agent, advertised in `initialize` (v1's shape). */
export const CLIENT_CAPABILITIES: acp.ClientCapabilities = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
  // Notices are shown in the transcript (agents must not send them unless this is advertised).
  session: { notices: {} },
};

/**
 * Elicitation is advertised (form and URL modes) only by a client that can show it; terminal sign-in only
 * by one that can run the agent's own command in a terminal the user types in.
 */
export function clientCapabilities(options: {
  readonly elicitation: boolean;
  readonly terminalAuth?: boolean;
}): acp.ClientCapabilities {
  return {
    ...CLIENT_CAPABILITIES,
    ...(options.elicitation ? { elicitation: { form: {}, url: {} } } : {}),
    // `auth.terminal` is v1's field; Claude Code's adapter (the registry's 0.16 reads only this one) and
    // other Zed-era agents still look for `_meta["terminal-auth"]`, and offer a login we cannot run without it.
    ...(options.terminalAuth ? { auth: { terminal: true }, _meta: { 'terminal-auth': true } } : {}),
  };
}

/**
 * `initialize`: our version and capabilities, the agent's description back. Rejects with a timeout
 * (its deadline is `deadlines.startMs`), the agent's exit (with its stderr), or `not_supported` for
 * another protocol version.
 */
export async function handshake(
  agent: acp.ClientContext,
  agentProcess: AgentProcess,
  deadline: DeadlineHost,
  options: HandshakeOptions,
): Promise<AgentDescription> {
  const command = options.command.command;
  const exited = agentProcess.exited.then((exit): never => {
    throw new AgentExitedError(exit, agentProcess.stderr.lastLines(20));
  });
  const clientInfo = options.clientInfo ?? {
    name: 'acp-agents',
    title: 'ACP Agents for VS Code',
    version: '0.0.1',
  };
  const params: acp.InitializeRequest = {
    protocolVersion: PROTOCOL_VERSION,
    clientInfo,
    clientCapabilities: clientCapabilities({
      elicitation: options.elicitation === true,
      terminalAuth: options.terminalAuth === true,
    }),
  };
  try {
    const response = await withinDeadline(deadline, 'initialize', (cancellationSignal) =>
      Promise.race([agent.request(methods.agent.initialize, params, { cancellationSignal }), exited]),
    );
    if (response.protocolVersion !== PROTOCOL_VERSION) {
      throw new AgentError(
        'not_supported',
        `${deadline.agentName()} speaks ACP protocol version ${response.protocolVersion}; this extension speaks version ${PROTOCOL_VERSION}.`,
      );
    }
    const agentInfo = response.agentInfo ?? undefined;
    return {
      name: agentInfo?.title || agentInfo?.name || path.basename(command),
      protocolVersion: response.protocolVersion,
      ...(agentInfo ? { agentInfo } : {}),
      capabilities: response.agentCapabilities ?? {},
      authMethods: response.authMethods ?? [],
    };
  } finally {
    exited.catch(() => {});
  }
}
