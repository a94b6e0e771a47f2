/** How a file differs between two trees. Renames show as a deletion plus a creation. */
export type FileChangeKind = 'created' | 'modified' | 'deleted';

/** One file that differs between two trees. */
export interface TreeFileChange {
  /** `/`-separated, relative to the work tree. */
  readonly rel: string;
  readonly kind: FileChangeKind;
  readonly added: number;
  readonly removed: number;
  readonly binary: boolean;
}

/** A nested repository's entry: a commit of another repository, not a file. */
const GITLINK_MODE = '160000';

/** The arguments of `git diff-tree` that `parseRawAndNumstat` reads: every file, no rename pairing. */
export function diffTreeArgs(from: string, to: string): string[] {
  return [
    'diff-tree',
    '-r',
    '-z',
    '--no-renames',
    '--no-ext-diff',
    '--no-textconv',
    '--raw',
    '--numstat',
    from,
    to,
  ];
}

/**
 * Reads `diff-tree -z --raw --numstat`: first a raw record per file (`:mode mode sha sha STATUS`, then
 * the path), then a numstat record per file (`added<TAB>removed<TAB>path`, `-` for binary).
 */
export function parseRawAndNumstat(fields: readonly string[]): TreeFileChange[] {
  const kinds = new Map<string, FileChangeKind>();
  const counts = new Map<string, { added: number; removed: number; binary: boolean }>();
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    const raw = /^:(\d{6}) (\d{6}) [0-9a-f]+ [0-9a-f]+ ([A-Z])\d*$/.exec(field);
    if (raw) {
      const rel = fields[++i];
      const [, oldMode, newMode, status] = raw;
      if (rel === undefined || oldMode === GITLINK_MODE || newMode === GITLINK_MODE) {
        continue;
      }
      kinds.set(rel, status === 'A' ? 'created' : status === 'D' ? 'deleted' : 'modified');
      continue;
    }
    const numstat = /^(\d+|-)\t(\d+|-)\t([\s\S]*)$/.exec(field);
    if (numstat) {
      const [, added, removed, rel] = numstat;
      const binary = added === '-' || removed === '-';
      counts.set(rel!, { added: binary ? 0 : Number(added), removed: binary ? 0 : Number(removed), binary });
    }
  }
  return [...kinds].map(([rel, kind]) => ({
    rel,
    kind,
    ...(counts.get(rel) ?? { added: 0, removed: 0, binary: false }),
  }));
}
