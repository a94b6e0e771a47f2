import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { AgentClient } from '../../../src/core/connection/agentClient';
import { NodeFileSystem } from '../../../src/core/node/nodeFileSystem';
import { NodeTerminals } from '../../../src/features/terminals/core/nodeTerminals';
import { chooseKind, PolicyPermissions } from '../../../src/features/permissions/core/policyPermissions';
import { RecordingLogger, TEST_AGENT_JS, text } from '../support/testAgent';

/** A body served chunk by chunk as the client reads it: `bytes` of JSON-ish filler, its length declared or not. */
export interface StreamedBody {
  readonly bytes: number;
  readonly declareLength: boolean;
}

/**
 * An HTTP server on 127.0.0.1 serving fixed bodies by path; a missing path is a 404, `failing` makes every
 * answer a 500. `redirects` answers a path with a 302 to another URL; `streams` serves a large body
 * lazily and counts in `sent` the bytes written before the client hung up.
 */
export class RegistryServer {
  readonly files = new Map<string, Buffer | string>();
  readonly redirects = new Map<string, string>();
  readonly streams = new Map<string, StreamedBody>();
  /** Bytes of each streamed body handed to the socket. */
  readonly sent = new Map<string, number>();
  failing = false;
  requests: string[] = [];
  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  /** `127.0.0.1:<port>`: what `allowHttpFrom` names to allow this server over plain http. */
  get host(): string {
    return new URL(this.origin).host;
  }

  static async start(): Promise<RegistryServer> {
    const ref: { self?: RegistryServer } = {};
    const server = createServer((request, response) => ref.self?.answer(request.url ?? '/', response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    ref.self = new RegistryServer(server, `http://127.0.0.1:${port}`);
    return ref.self;
  }

  private answer(url: string, response: ServerResponse): void {
    this.requests.push(url);
    const redirect = this.redirects.get(url);
    const streamed = this.streams.get(url);
    const body = this.files.get(url);
    if (this.failing) {
      response.writeHead(500).end();
    } else if (redirect !== undefined) {
      response.writeHead(302, { location: redirect }).end();
    } else if (streamed !== undefined) {
      this.stream(url, streamed, response);
    } else if (body === undefined) {
      response.writeHead(404).end();
    } else {
      response.writeHead(200, { 'content-length': Buffer.byteLength(body) }).end(body);
    }
  }

  /** Writes `body.bytes` in 64 KiB chunks, each only once the socket took the last (backpressure). */
  private stream(url: string, body: StreamedBody, response: ServerResponse): void {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    response.writeHead(200, body.declareLength ? { 'content-length': body.bytes } : {});
    this.sent.set(url, 0);
    const more = (): void => {
      while (!response.destroyed) {
        const sent = this.sent.get(url) ?? 0;
        if (sent >= body.bytes) {
          response.end();
          return;
        }
        const piece = chunk.subarray(0, Math.min(chunk.length, body.bytes - sent));
        this.sent.set(url, sent + piece.length);
        if (!response.write(piece)) {
          response.once('drain', more);
          return;
        }
      }
    };
    more();
  }

  url(file: string): string {
    return `${this.origin}${file}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * A tiny node-script agent in a folder: `bin/agent`, the bundled test agent behind a `#!/usr/bin/env node`
 * line, left **not** executable (mode 0644) so the installer has to make it so.
 */
export function agentFolder(dir: string): string {
  const folder = path.join(dir, 'agent-files');
  mkdirSync(path.join(folder, 'bin'), { recursive: true });
  const script = path.join(folder, 'bin', 'agent');
  writeFileSync(script, `#!/usr/bin/env node\n${readFileSync(TEST_AGENT_JS, 'utf8')}`);
  chmodSync(script, 0o644);
  return folder;
}

/** Packs `folder` as `<dir>/<name>` with the system's tar or zip; returns the archive's bytes. */
export function archive(folder: string, dir: string, name: string): Buffer {
  const file = path.join(dir, name);
  if (name.endsWith('.zip')) {
    execFileSync('zip', ['-q', '-r', file, '.'], { cwd: folder });
  } else {
    execFileSync('tar', [name.endsWith('.bz2') ? '-cjf' : '-czf', file, '-C', folder, '.']);
  }
  return readFileSync(file);
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Starts `command args` as an ACP agent, sends one prompt and returns the agent's answer text. */
export async function answerOf(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<string> {
  const client = await AgentClient.start({
    command: { command, args: [...args], cwd, env },
    ports: {
      fileSystem: new NodeFileSystem(),
      permissions: new PolicyPermissions(chooseKind('allow_once')),
      terminals: new NodeTerminals(cwd),
      logger: new RecordingLogger(),
    },
  });
  try {
    const session = await client.newSession({ cwd });
    await session.prompt([text('stream 2')]);
    return session.thread
      .snapshot()
      .entries.flatMap((entry) => (entry.kind === 'agent' ? [entry.text] : []))
      .join('');
  } finally {
    await client.stop();
  }
}
