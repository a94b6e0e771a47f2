import ignore, { type Ignore } from 'ignore';

/** The text of one ignore file and the folder its patterns are relative to. */
export interface IgnoreFile {
  /** The folder, relative to the workspace folder, with `/` separators; '' for the folder itself. */
  readonly dir: string;
  readonly content: string;
}

export interface IgnoreFileRulesOptions {
  /** Match without regard to case, as git does where `core.ignorecase` is on (Windows, macOS). */
  readonly ignoreCase: boolean;
}

/**
 * What git would ignore, read from the ignore files themselves: the fallback for a folder git cannot
 * list (no git, not a repository, an untrusted workspace). Each `.gitignore` is matched by the `ignore`
 * package relative to its own folder; the deepest file with a verdict on a path wins, `.git/info/exclude`
 * counts below the top `.gitignore`, and nothing below an excluded folder is re-included — git's rules.
 */
export class IgnoreFileRules {
  private readonly matchers = new Map<string, Ignore>();
  /** Verdicts on folders already asked about (every file asks about all of its folders). */
  private readonly folderVerdicts = new Map<string, boolean>();

  constructor(
    infoExclude: string | undefined,
    gitignores: readonly IgnoreFile[],
    options: IgnoreFileRulesOptions,
  ) {
    const top = gitignores.find((file) => file.dir === '');
    const make = (): Ignore => ignore({ ignorecase: options.ignoreCase });
    // Later patterns win in a matcher: info/exclude first, as it has the lower precedence.
    this.matchers.set(
      '',
      make()
        .add(infoExclude ?? '')
        .add(top?.content ?? ''),
    );
    for (const file of gitignores) {
      if (file.dir !== '') {
        this.matchers.set(file.dir, make().add(file.content));
      }
    }
  }

  /** Whether git ignores the file at `relativePath` (`/` separators, relative to the workspace folder). */
  ignores(relativePath: string): boolean {
    const parts = relativePath.split('/');
    for (let depth = 1; depth < parts.length; depth += 1) {
      const folder = parts.slice(0, depth).join('/');
      let verdict = this.folderVerdicts.get(folder);
      if (verdict === undefined) {
        verdict = this.verdict(folder, true);
        this.folderVerdicts.set(folder, verdict);
      }
      if (verdict) {
        return true;
      }
    }
    return this.verdict(relativePath, false);
  }

  /** The deepest ignore file above `target` that names it decides; none means not ignored. */
  private verdict(target: string, isFolder: boolean): boolean {
    let dir = parentOf(target);
    for (;;) {
      const matcher = this.matchers.get(dir);
      if (matcher !== undefined) {
        const relative = dir === '' ? target : target.slice(dir.length + 1);
        const result = matcher.test(isFolder ? `${relative}/` : relative);
        if (result.ignored || result.unignored) {
          return result.ignored;
        }
      }
      if (dir === '') {
        return false;
      }
      dir = parentOf(dir);
    }
  }
}

/** The folder a path is in ('' at the top). */
function parentOf(relativePath: string): string {
  const slash = relativePath.lastIndexOf('/');
  return slash === -1 ? '' : relativePath.slice(0, slash);
}
