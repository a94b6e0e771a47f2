import { toLiteralPathspec } from './pathspecs';

/** Runs git on the shadow repository without the work tree; resolves with its stdout. */
type BareGit = (args: readonly string[], input?: string) => Promise<string>;
/** Paths per command line. */
const CHUNK = 500;

/**
 * Makes git's next stat check see these files as changed: their index entries are written again with the
 * same contents and no stat data (`update-index --index-info` stores none), so the next snapshot lists and
 * reads them whatever their times say. For files staged in the second they were last written (see
 * ./steadyStaging): a rewrite later in that second, its mtime set back, would otherwise go unseen.
 * Run bare: neither command reads the folder.
 */
export async function forgetStatData(git: BareGit, rels: readonly string[]): Promise<void> {
  for (let start = 0; start < rels.length; start += CHUNK) {
    const specs = rels.slice(start, start + CHUNK).map(toLiteralPathspec);
    const entries = await git(['ls-files', '-s', '-z', '--', ...specs]);
    if (entries !== '') {
      await git(['update-index', '-z', '--index-info'], entries);
    }
  }
}
