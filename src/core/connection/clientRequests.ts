import type * as acp from '@agentclientprotocol/sdk';
import { methods, RequestError } from '@agentclientprotocol/sdk';
import * as path from 'node:path';
import { CLIENT_REFUSED, describeErrorForLog } from './errors';
import { sliceLines } from '../files/lines';
import {
  ClientRefusalError,
  FileNotFoundError,
  type ClientPorts,
  type Logger,
  type RefusalReason,
} from '../ports';

/**
 * Answers the agent's file-system and terminal requests through the ports. Paths must be
 * absolute; port failures become the JSON-RPC errors agents expect: a missing file is ACP's
 * resource-not-found, a refusal has its own code and says what the agent can do, and only a real
 * failure is an "Internal error".
 */
export function registerPortHandlers(
  app: acp.ClientApp,
  ports: ClientPorts,
  logger: Logger,
  /** The cwd a session was created with: where its commands run when the agent names no cwd. */
  sessionCwd: (sessionId: string) => string | undefined,
): void {
  const answer = <T>(work: () => Promise<T>): Promise<T> => answerWith(work, logger);
  app
    .onRequest(methods.client.fs.readTextFile, ({ params }) =>
      answer(async () => {
        requireAbsolute(params.path);
        const text = await ports.fileSystem.readTextFile(params.path, { sessionId: params.sessionId });
        return { content: sliceLines(text, params.line, params.limit) };
      }),
    )
    .onRequest(methods.client.fs.writeTextFile, ({ params }) =>
      answer(async () => {
        requireAbsolute(params.path);
        await ports.fileSystem.writeTextFile(params.path, params.content, { sessionId: params.sessionId });
        return {};
      }),
    )
    .onRequest(methods.client.terminal.create, ({ params }) =>
      answer(async () => {
        const env = Object.fromEntries((params.env ?? []).map((v) => [v.name, v.value]));
        const terminalId = await ports.terminals.create({
          sessionId: params.sessionId,
          command: params.command,
          ...(params.args ? { args: params.args } : {}),
          ...(params.env ? { env } : {}),
          ...((params.cwd ?? sessionCwd(params.sessionId))
            ? { cwd: params.cwd ?? sessionCwd(params.sessionId) }
            : {}),
          ...(typeof params.outputByteLimit === 'number' ? { outputByteLimit: params.outputByteLimit } : {}),
        });
        return { terminalId };
      }),
    )
    .onRequest(methods.client.terminal.output, ({ params }) =>
      answer(async () => {
        const { output, truncated, exitStatus } = await ports.terminals.output(
          params.terminalId,
          params.sessionId,
        );
        return { output, truncated, ...(exitStatus ? { exitStatus } : {}) };
      }),
    )
    .onRequest(methods.client.terminal.waitForExit, ({ params }) =>
      answer(() => ports.terminals.waitForExit(params.terminalId, params.sessionId)),
    )
    .onRequest(methods.client.terminal.kill, ({ params }) =>
      answer(async () => {
        await ports.terminals.kill(params.terminalId, params.sessionId);
        return {};
      }),
    )
    .onRequest(methods.client.terminal.release, ({ params }) =>
      answer(async () => {
        await ports.terminals.release(params.terminalId, params.sessionId);
        return {};
      }),
    );
}

async function answerWith<T>(work: () => Promise<T>, logger: Logger): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RequestError) {
      throw error;
    }
    if (error instanceof FileNotFoundError) {
      throw RequestError.resourceNotFound(error.path);
    }
    if (error instanceof ClientRefusalError) {
      logger.info(`Refused the agent's request (${error.reason}): ${error.message}`);
      throw refusalAnswer(error);
    }
    logger.error(`Answering the agent failed: ${describeErrorForLog(error)}`);
    throw new RequestError(-32603, error instanceof Error ? error.message : String(error));
  }
}

/** What the agent can do about each refusal: said in the message, which agents pass to their model. */
const NEXT_STEP: Readonly<Record<RefusalReason, string>> = {
  user_declined: 'The user declined this; do not retry it as is — ask the user how to proceed.',
  outside_workspace:
    'Only files inside the workspace folders can be used without the user allowing it; use a path inside the workspace.',
  untrusted: 'The workspace is not trusted; nothing can be read, written or run until the user trusts it.',
  unsupported: 'The same request will be refused again; change what is asked.',
  not_available: 'This client does not offer it here; do not retry.',
};

/** A refusal as the agent receives it: its own code, the reason it can act on, and the next step. */
function refusalAnswer(refusal: ClientRefusalError): RequestError {
  return new RequestError(CLIENT_REFUSED, `${refusal.message} ${NEXT_STEP[refusal.reason]}`, {
    reason: refusal.reason,
  });
}

function requireAbsolute(filePath: string): void {
  if (!path.isAbsolute(filePath) && !path.win32.isAbsolute(filePath)) {
    throw RequestError.invalidParams(undefined, `Paths must be absolute: ${filePath}`);
  }
}
