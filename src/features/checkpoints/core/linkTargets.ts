import { readlink } from 'node:fs/promises';
import * as path from 'node:path';
import * as z from 'zod/mini';
import type { TreeChange } from './treeDiff';

/** Runs git in the shadow repository; resolves with its stdout. */
type Git = (args: readonly string[], input?: string) => Promise<string>;

/** Names, in a checkpoint's commit message, the blob of the folder's symbolic links and their targets. */
const LINKS_TRAILER = 'acp-links:';
/** Links recorded per checkpoint; past it the rest are not (a folder of links is not a workspace). */
export const MAX_LINKS = 2000;
/** Targets longer than this are cut (the OS allows 4 KiB; a card shows a line). */
const MAX_TARGET_CHARS = 1024;
/** Links read at once. */
const READ_BATCH = 64;

const LinksSchema = z.record(z.string(), z.string());

/**
 * The symbolic links of a folder at each checkpoint, with their targets as written: links are not
 * snapshotted (restoring a link's target as a file would be wrong), so without this a file the agent
 * replaced by a link looks deleted, and a link it made is not seen at all. Kept as a JSON blob named by a
 * trailer of the checkpoint's commit; an unchanged map is not written again.
 */
export class LinkList {
  private newest: { list: string; blob: string } | undefined;

  constructor(private readonly git: Git) {}

  /** The trailer line for `links` (`/`-separated path → target); '' when there are none. */
  async line(links: ReadonlyMap<string, string>): Promise<string> {
    if (links.size === 0) {
      return '';
    }
    const list = JSON.stringify(
      Object.fromEntries([...links].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    );
    if (this.newest?.list !== list) {
      this.newest = { list, blob: (await this.git(['hash-object', '-w', '--stdin'], list)).trim() };
    }
    return `${LINKS_TRAILER} ${this.newest.blob}`;
  }

  /** The links at checkpoint `commit` (none without the trailer); `unknown` when they cannot be read. */
  async at(commit: string): Promise<ReadonlyMap<string, string> | 'unknown'> {
    try {
      const message = await this.git(['cat-file', 'commit', commit]);
      const blob = new RegExp(`^${LINKS_TRAILER} ([0-9a-f]+)$`, 'm').exec(message)?.[1];
      if (blob === undefined) {
        return new Map();
      }
      const parsed = LinksSchema.safeParse(JSON.parse(await this.git(['cat-file', 'blob', blob])));
      return parsed.success ? new Map(Object.entries(parsed.data)) : 'unknown';
    } catch {
      return 'unknown';
    }
  }
}

/** The targets of the links `rels` of `folder` (at most `MAX_LINKS`; one that is no longer a link is left out). */
export async function readLinks(folder: string, rels: readonly string[]): Promise<Map<string, string>> {
  const links = new Map<string, string>();
  const chosen = [...new Set(rels)].sort().slice(0, MAX_LINKS);
  for (let start = 0; start < chosen.length; start += READ_BATCH) {
    const batch = chosen.slice(start, start + READ_BATCH);
    const targets = await Promise.all(batch.map((rel) => readLinkTarget(path.join(folder, rel))));
    batch.forEach((rel, index) => {
      const target = targets[index];
      if (target !== undefined) {
        links.set(rel, target);
      }
    });
  }
  return links;
}

/** What the link `file` names, as written (cut to a bound); `undefined` when it is not a link. */
export async function readLinkTarget(file: string): Promise<string | undefined> {
  try {
    return (await readlink(file)).slice(0, MAX_TARGET_CHARS);
  } catch {
    return undefined;
  }
}

/**
 * A diff's changes with what happened to links between its two ends: a file replaced by a link (git sees
 * it deleted) is modified, now a link; a new link is created; a link pointed elsewhere, or one in place of a
 * folder, is modified; a link removed is deleted. A link's or a folder's earlier state is never put back
 * (its row is unrecorded): Undo leaves it, and the files of such a folder are left while the link is there.
 */
export function withLinkChanges(
  changes: readonly TreeChange[],
  before: ReadonlyMap<string, string> | 'unknown',
  after: ReadonlyMap<string, string> | 'unknown',
): TreeChange[] {
  if (after === 'unknown') {
    return [...changes];
  }
  const rows = new Map(changes.map((change) => [change.rel, change]));
  const earlier = before === 'unknown' ? new Map<string, string>() : before;
  const none = { added: 0, removed: 0, binary: false };
  for (const [rel, target] of after) {
    const was = earlier.get(rel);
    const row = rows.get(rel);
    if (was === target) {
      continue;
    }
    // A folder whose files are gone from the snapshot (they are under the link now): replaced by it.
    const replacedFolder = changes.some((change) => change.rel.startsWith(`${rel}/`));
    if (row?.kind === 'deleted') {
      rows.set(rel, { ...row, kind: 'modified', link: { target } });
    } else if (was !== undefined || before === 'unknown' || replacedFolder) {
      rows.set(rel, { rel, kind: 'modified', ...none, link: { target }, unrecorded: true });
    } else {
      rows.set(rel, { rel, kind: 'created', ...none, link: { target } });
    }
  }
  for (const [rel, target] of earlier) {
    if (!after.has(rel) && !rows.has(rel)) {
      rows.set(rel, { rel, kind: 'deleted', ...none, link: { target }, unrecorded: true });
    }
  }
  return [...rows.values()];
}
