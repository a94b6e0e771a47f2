import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as z from 'zod';
import { fetchChecked, readBounded, type TransportPolicy } from './download';
import { renameWhenFree } from '../../../core/platform/heldFiles';
import { deadlineSignal } from '../../../core/util/clock';
import { parseRegistry, type Registry } from './registryFormat';

/** Where the list came from, for the picker's title ("offline: cached 3 days ago"). */
export type RegistrySource =
  | { readonly kind: 'network'; readonly fetchedAt: number }
  | { readonly kind: 'cache'; readonly fetchedAt: number; readonly error: string }
  | { readonly kind: 'snapshot'; readonly error: string };

export interface LoadedRegistry extends Registry {
  readonly source: RegistrySource;
}

export interface RegistryStoreOptions extends TransportPolicy {
  readonly url: string;
  /** The cache file (in the extension's global storage): `{ fetchedAt, registry }`. */
  readonly cacheFile: string;
  /** The index shipped in the package, for a first run without network. */
  readonly snapshotFile: string;
  readonly now?: () => number;
  /** Gives up on the network after this long and falls back to the cache. */
  readonly timeoutMs?: number;
}

const CacheFile = z.object({ fetchedAt: z.number(), url: z.string(), registry: z.unknown() });
/** An index bigger than this is not a registry (today's is ~60 KiB): reading stops there. */
export const MAX_INDEX_BYTES = 5 * 1024 * 1024;

/**
 * The ACP Registry: fetched from its URL, kept in a cache file with its fetch time, and read from
 * that cache — or from the snapshot in the package — when the network fails. Never throws for a
 * network problem: the caller always gets a list and where it came from.
 */
export async function loadRegistry(
  options: RegistryStoreOptions,
  signal?: AbortSignal,
): Promise<LoadedRegistry> {
  const now = options.now ?? Date.now;
  let networkError: string;
  try {
    const raw = await fetchJson(options, options.timeoutMs ?? 15_000, signal);
    const registry = parseRegistry(raw);
    const fetchedAt = now();
    await writeCache(options.cacheFile, { fetchedAt, url: options.url, registry: raw });
    return { ...registry, source: { kind: 'network', fetchedAt } };
  } catch (error) {
    if (signal?.aborted) {
      throw error;
    }
    networkError = error instanceof Error ? error.message : String(error);
  }
  const cached = await readCache(options.cacheFile, options.url);
  if (cached) {
    return {
      ...cached.registry,
      source: { kind: 'cache', fetchedAt: cached.fetchedAt, error: networkError },
    };
  }
  const snapshot = parseRegistry(JSON.parse(await readFile(options.snapshotFile, 'utf8')));
  return { ...snapshot, source: { kind: 'snapshot', error: networkError } };
}

async function fetchJson(
  options: RegistryStoreOptions,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<unknown> {
  const deadline = deadlineSignal(timeoutMs, signal);
  try {
    const response = await fetchChecked(options.url, options, deadline.signal);
    const body = await readBounded(response, MAX_INDEX_BYTES, options.url);
    return JSON.parse(body.toString('utf8')) as unknown;
  } finally {
    deadline.dispose();
  }
}

async function readCache(
  file: string,
  url: string,
): Promise<{ fetchedAt: number; registry: Registry } | undefined> {
  try {
    const parsed = CacheFile.safeParse(JSON.parse(await readFile(file, 'utf8')));
    // A cache of another URL (the setting changed) is not this registry.
    if (!parsed.success || parsed.data.url !== url) {
      return undefined;
    }
    return { fetchedAt: parsed.data.fetchedAt, registry: parseRegistry(parsed.data.registry) };
  } catch {
    return undefined;
  }
}

/** Written to a temporary name and renamed, so another window never reads half a cache. */
async function writeCache(file: string, content: z.infer<typeof CacheFile>): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, JSON.stringify(content));
  await renameWhenFree(temporary, file);
}
