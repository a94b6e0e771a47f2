import { toLiteralPathspec } from './pathspecs';

/** Runs git on the shadow repository without the work tree; resolves with its stdout. */
type BareGit = (args: readonly string[], input?: string) => Promise<string>;
/** Up to this many paths are named on the command line; more, and the whole index is listed and filtered. */
const NAMED_LIMIT = 500;

/**
 * Makes git's next stat check see these files as changed: their index entries are written again with the
 * same contents and no stat data (`update-index --index-info` stores none), so the next snapshot lists and
 * reads them whatever their times say. For files staged in the second they were last written (see
 * ./steadyStaging): a rewrite later in that second, its mtime set back, would otherwise go unseen.
 * Two git commands whatever the count; run bare: neither reads the folder.
 */
export async function forgetStatData(git: BareGit, rels: readonly string[]): Promise<void> {
  if (rels.length === 0) {
    return;
  }
  let entries: string;
  if (rels.length <= NAMED_LIMIT) {
    entries = await git(['ls-files', '-s', '-z', '--', ...rels.map(toLiteralPathspec)]);
  } else {
    const wanted = new Set(rels);
    const all = await git(['ls-files', '-s', '-z']);
    // `<mode> <oid> <stage>\t<path>` each, NUL-terminated.
    entries = all
      .split('\0')
      .filter((entry) => wanted.has(entry.slice(entry.indexOf('\t') + 1)))
      .map((entry) => `${entry}\0`)
      .join('');
  }
  if (entries !== '') {
    await git(['update-index', '-z', '--index-info'], entries);
  }
}
