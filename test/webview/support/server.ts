import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { webviewPage, type Theme } from './webviewPage';

const ROOT = resolve(__dirname, '../../..');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

export type { Theme };

/**
 * Serves the repository over http on 127.0.0.1 (ES modules do not load from file://) and the chat
 * page at /chat.html?theme=…: the extension's own HTML and CSP with a fresh nonce, the server's origin
 * standing in for the webview's cspSource, inside what VS Code adds to a webview (see webviewPage.ts).
 */
export class StaticServer {
  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<StaticServer> {
    let origin = '';
    const server = createServer((request, response) => {
      void handle(request.url ?? '/', origin).then(
        ({ status, type, body }) => {
          response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
          response.end(body);
        },
        (error: unknown) => {
          response.writeHead(500, { 'content-type': 'text/plain' });
          response.end(String(error));
        },
      );
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return new StaticServer(server, origin);
  }

  /** The chat page; without the markdown worker, all markdown is planned on the page's main thread. */
  chatUrl(theme: Theme, { markdownWorker = true } = {}): string {
    return `${this.origin}/chat.html?theme=${theme}${markdownWorker ? '' : '&worker=none'}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((done) => this.server.close(() => done()));
  }
}

async function handle(
  rawUrl: string,
  origin: string,
): Promise<{ status: number; type: string; body: string | Buffer }> {
  const url = new URL(rawUrl, origin);
  if (url.pathname === '/favicon.ico') {
    // Chromium asks for one; a webview never does.
    return { status: 204, type: 'image/x-icon', body: '' };
  }
  if (url.pathname === '/chat.html') {
    const theme = url.searchParams.get('theme') === 'light' ? 'light' : 'dark';
    const markdownWorker = url.searchParams.get('worker') !== 'none';
    return { status: 200, type: TYPES['.html'] as string, body: webviewPage(origin, theme, { markdownWorker }) };
  }
  const path = normalize(join(ROOT, decodeURIComponent(url.pathname)));
  if (!path.startsWith(ROOT + sep)) {
    return { status: 403, type: 'text/plain', body: 'forbidden' };
  }
  try {
    const body = await readFile(path);
    return { status: 200, type: TYPES[extname(path)] ?? 'application/octet-stream', body };
  } catch {
    return { status: 404, type: 'text/plain', body: 'not found' };
  }
}
