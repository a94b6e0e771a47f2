import type { GitPlace, RepoGit, RepoRunOptions } from './repoGit';

/** What one read of blobs may return in all: a change larger than this is refused, not read. */
export const MAX_BLOB_BYTES = 512 * 1024 * 1024;

/**
 * The contents of blobs `ids`, read by one `git cat-file --batch` (one process for any number of files).
 * A missing id is absent from the map.
 */
export async function readBlobs(
  git: RepoGit,
  place: GitPlace,
  ids: readonly string[],
  options: RepoRunOptions,
): Promise<Map<string, Buffer>> {
  const unique = [...new Set(ids)];
  const blobs = new Map<string, Buffer>();
  if (unique.length === 0) {
    return blobs;
  }
  const { stdout } = await git.run(place, ['cat-file', '--batch'], {
    ...options,
    input: unique.map((id) => `${id}\n`).join(''),
    maxStdoutBytes: MAX_BLOB_BYTES,
  });
  let offset = 0;
  while (offset < stdout.length) {
    const newline = stdout.indexOf(0x0a, offset);
    if (newline < 0) {
      break;
    }
    const header = stdout.subarray(offset, newline).toString('utf8');
    offset = newline + 1;
    const found = /^([0-9a-f]+) (\w+) (\d+)$/.exec(header);
    if (!found) {
      continue; // `<id> missing`
    }
    const size = Number(found[3]);
    if (found[2] === 'blob') {
      blobs.set(found[1]!, Buffer.from(stdout.subarray(offset, offset + size)));
    }
    offset += size + 1;
  }
  return blobs;
}

/** The contents of `rels` in commit `commit` (a file it does not hold is absent), by one `ls-tree` and one read. */
export async function readCommitFiles(
  git: RepoGit,
  place: GitPlace,
  commit: string,
  rels: readonly string[],
): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  if (rels.length === 0) {
    return files;
  }
  // Few paths are named; many would pass the command line's limit, so the whole tree is listed instead.
  const named = rels.length <= 500 ? ['--', ...rels] : [];
  const { stdout } = await git.run(place, ['ls-tree', '-r', '-z', '--full-tree', commit, ...named], {
    maxStdoutBytes: MAX_BLOB_BYTES,
  });
  const wanted = new Set(rels);
  const ids = new Map<string, string>();
  for (const line of stdout.toString('utf8').split('\0')) {
    const found = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(line);
    if (found && wanted.has(found[2]!)) {
      ids.set(found[2]!, found[1]!);
    }
  }
  const blobs = await readBlobs(git, place, [...ids.values()], {});
  for (const [rel, id] of ids) {
    const bytes = blobs.get(id);
    if (bytes) {
      files.set(rel, bytes);
    }
  }
  return files;
}
