import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';

/**
 * What the ACP Registry and its downloads are fetched over. The real registry gives no checksums today,
 * so https is what keeps a binary from being swapped on the way: plain http is refused unless the user
 * named the host (`acpAgents.registry.allowHttpFrom`, a mirror on their own network). The check is made
 * on the URL asked for and again on the URL answered from, so a redirect cannot lead to http.
 */
export interface TransportPolicy {
  /** Hosts (`name` or `name:port`, as in a URL) that may be reached over plain http. */
  readonly allowHttpFrom?: readonly string[];
}

export class CleartextRefusedError extends Error {
  constructor(readonly url: string) {
    super(
      `${shorten(url)} is not https: a download over plain http could be replaced on the way. ` +
        `To use a mirror on your own network, name its host in the setting acpAgents.registry.allowHttpFrom.`,
    );
    this.name = 'CleartextRefusedError';
  }
}

/** `url` parsed, when it may be fetched under `policy`; throws saying why not. */
export function checkTransport(url: string, policy: TransportPolicy): URL {
  const parsed = new URL(url);
  if (parsed.protocol === 'https:') {
    return parsed;
  }
  if (parsed.protocol !== 'http:') {
    throw new Error(`${shorten(url)}: only https URLs are read (and http from the hosts you allow).`);
  }
  const allowed = (policy.allowHttpFrom ?? []).map((host) => host.trim().toLowerCase());
  if (allowed.includes(parsed.host.toLowerCase()) || allowed.includes(parsed.hostname.toLowerCase())) {
    return parsed;
  }
  throw new CleartextRefusedError(url);
}

/**
 * Fetches `url` under `policy`: refused before any request when the URL is not allowed, and before
 * its body is read when a redirect ended somewhere that is not; a status other than 2xx throws.
 */
export async function fetchChecked(
  url: string,
  policy: TransportPolicy,
  signal?: AbortSignal,
): Promise<Response> {
  const response = await fetch(checkTransport(url, policy), signal ? { signal } : {});
  try {
    if (response.url) {
      checkTransport(response.url, policy);
    }
    if (!response.ok || !response.body) {
      throw new Error(`${shorten(url)} answered ${response.status} ${response.statusText}`);
    }
  } catch (error) {
    await response.body?.cancel().catch(() => undefined);
    throw error;
  }
  return response;
}

/**
 * The body of `response`, read as it streams and given up (the connection closed) as soon as it
 * passes `maxBytes` — or before reading when its declared length already does.
 */
export async function readBounded(response: Response, maxBytes: number, what: string): Promise<Buffer> {
  const tooBig = (): Error => new Error(`${what} is larger than ${maxBytes} bytes`);
  if (declaredLength(response) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooBig();
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of bodyOf(response)) {
    received += chunk.byteLength;
    if (received > maxBytes) {
      throw tooBig(); // leaving the loop cancels the body: the rest is never read
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Streams `response` into `file`, hashing it (SHA-256, hex) and stopping past `maxBytes`; reports the
 * bytes received (and the total when the server said it).
 */
export async function downloadTo(
  response: Response,
  file: string,
  maxBytes: number,
  progress: (received: number, total: number | undefined) => void,
): Promise<string> {
  const total = declaredLength(response) || undefined;
  const tooBig = (): Error => new Error(`${shorten(response.url)} is larger than ${maxBytes} bytes.`);
  if (total !== undefined && total > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooBig();
  }
  const hash = createHash('sha256');
  const out = createWriteStream(file, { flags: 'wx' });
  let received = 0;
  try {
    for await (const chunk of bodyOf(response)) {
      received += chunk.byteLength;
      if (received > maxBytes) {
        throw tooBig();
      }
      hash.update(chunk);
      if (!out.write(chunk)) {
        await new Promise<void>((resolve) => out.once('drain', resolve));
      }
      progress(received, total);
    }
  } finally {
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
  return hash.digest('hex');
}

function declaredLength(response: Response): number {
  return Number(response.headers.get('content-length')) || 0;
}

function bodyOf(response: Response): AsyncIterable<Uint8Array> {
  return (response.body ?? []) as unknown as AsyncIterable<Uint8Array>;
}

function shorten(url: string): string {
  return url.length > 200 ? `${url.slice(0, 200)}…` : url;
}
