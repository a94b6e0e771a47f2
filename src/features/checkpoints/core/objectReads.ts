/** Runs git in the shadow repository; resolves with its stdout. */
type Git = (args: readonly string[], input?: string) => Promise<string>;

/** How many reads, and how much of them, are kept. */
export interface ObjectReadBounds {
  /** Reads kept at most (enough for the lists of a few checkpoints: a message and a list blob each). */
  readonly entries: number;
  /** A read longer than this (a long list of ignored files) is not kept. */
  readonly entryChars: number;
  /** All kept reads together; the least recently used go first. */
  readonly totalChars: number;
}

const DEFAULT_BOUNDS: ObjectReadBounds = { entries: 64, entryChars: 64 * 1024, totalChars: 1024 * 1024 };

/** A full object id (SHA-1 or SHA-256): a ref or an abbreviated id could name another object later. */
const FULL_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * `git` with its reads of objects by full id (`cat-file commit <id>`, `cat-file blob <id>`) kept. An object's
 * id is the hash of its content, so such a read answers the same for as long as the object exists: a turn's
 * change list reads each checkpoint's commit message once for each of its lists (five), each read a git
 * process. A read that failed is not kept, nor one by a ref or an abbreviated id; every other command runs.
 */
export function keepingObjectReads(git: Git, bounds: ObjectReadBounds = DEFAULT_BOUNDS): Git {
  const kept = new Map<string, string>();
  let totalChars = 0;
  return async (args, input) => {
    const key = input === undefined ? objectKey(args) : undefined;
    if (key === undefined) {
      return git(args, input);
    }
    const known = kept.get(key);
    if (known !== undefined) {
      kept.delete(key); // the most recently used go last
      kept.set(key, known);
      return known;
    }
    const text = await git(args);
    if (text.length <= bounds.entryChars && !kept.has(key)) {
      kept.set(key, text);
      totalChars += text.length;
      for (const [oldest, value] of kept) {
        if (kept.size <= bounds.entries && totalChars <= bounds.totalChars) {
          break;
        }
        kept.delete(oldest);
        totalChars -= value.length;
      }
    }
    return text;
  };
}

/** `kind id` for a read of an object by its full id; undefined for any other command. */
function objectKey(args: readonly string[]): string | undefined {
  const [command, kind, id] = args;
  const object = command === 'cat-file' && (kind === 'commit' || kind === 'blob');
  return object && args.length === 3 && id !== undefined && FULL_ID.test(id) ? `${kind} ${id}` : undefined;
}
