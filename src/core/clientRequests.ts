import type * as acp from '@agentclientprotocol/sdk';
import { methods, RequestError } from '@agentclientprotocol/sdk';
import * as path from 'node:path';
import { sliceLines } from './lines';
import { ClientRefusalError, FileNotFoundError, type ClientPorts, type Logger } from './ports';

/**
 * Answers the agent's file-system and terminal requests through the ports. Paths must be
 * absolute; port failures become the JSON-RPC errors agents expect (a missing file is ACP's
 * resource-not-found, a refusal carries its message).
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
        const { output, truncated, exitStatus } = await ports.terminals.output(params.terminalId);
        return { output, truncated, ...(exitStatus ? { exitStatus } : {}) };
      }),
    )
    .onRequest(methods.client.terminal.waitForExit, ({ params }) =>
      answer(() => ports.terminals.waitForExit(params.terminalId)),
    )
    .onRequest(methods.client.terminal.kill, ({ params }) =>
      answer(async () => {
        await ports.terminals.kill(params.terminalId);
        return {};
      }),
    )
    .onRequest(methods.client.terminal.release, ({ params }) =>
      answer(async () => {
        await ports.terminals.release(params.terminalId);
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
    const message = error instanceof Error ? error.message : String(error);
    if (!(error instanceof ClientRefusalError)) {
      logger.error(`Answering the agent failed: ${message}`);
    }
    throw new RequestError(-32603, message);
  }
}

function requireAbsolute(filePath: string): void {
  if (!path.isAbsolute(filePath) && !path.win32.isAbsolute(filePath)) {
    throw RequestError.invalidParams(undefined, `Paths must be absolute: ${filePath}`);
  }
}
