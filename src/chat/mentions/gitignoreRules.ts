import ignore, { type Ignore } from 'ignore';

/** The text of one ignore file and the folder its patterns are relative to. */
export interface IgnoreFile {
  /** The folder, relative to the workspace folder, with `/` separators; '' for the folder itself. */
  readonly dir: string;
  readonly content: string;
}

export interface GitignoreRulesOptions {
  /** Match without regard to case, as git does where `core.ignorecase` is on (Windows, macOS). */
  readonly ignoreCase: boolean;
}

/**
 * The ignore rules of one workspace folder as git applies them: `.git/info/exclude`, the folder's
 * `.gitignore` and every nested `.gitignore` for its own folder, a deeper file overriding a
 * shallower one, negations (`!keep.log`) re-including, and nothing re-included below an excluded
 * folder. Matching is the `ignore` package's (the gitignore implementation eslint and prettier
 * use): each nested file's patterns are rebased onto its folder so that one matcher holds them
 * all, in git's order of precedence, and answers (with its own cache) for 20,000 paths quickly.
 */
export class GitignoreRules {
  private readonly matcher: Ignore;
  /** Globs of what the patterns exclude (see `folderGlobs`). */
  private readonly globs: string[] = [];
  private negations = false;

  /**
   * @param infoExclude the text of `.git/info/exclude` (lowest precedence), if any
   * @param gitignores every `.gitignore` found in the folder, in any order
   */
  constructor(
    infoExclude: string | undefined,
    gitignores: readonly IgnoreFile[],
    options: GitignoreRulesOptions,
  ) {
    this.matcher = ignore({ ignorecase: options.ignoreCase });
    if (infoExclude !== undefined) {
      this.add({ dir: '', content: infoExclude });
    }
    // Shallower first: the matcher lets the last matching pattern win, as git lets the deeper file.
    const byDepth = [...gitignores].sort(
      (a, b) => depthOf(a.dir) - depthOf(b.dir) || a.dir.localeCompare(b.dir),
    );
    for (const file of byDepth) {
      // Git never reads an ignore file inside an excluded folder.
      if (file.dir === '' || !this.matcher.ignores(`${file.dir}/`)) {
        this.add(file);
      }
    }
  }

  /** Whether git ignores the file at `relativePath` (`/` separators, relative to the workspace folder). */
  ignores(relativePath: string): boolean {
    return this.matcher.ignores(relativePath);
  }

  /**
   * Globs (relative to the workspace folder) of the contents of folders these rules exclude, for a
   * file search to skip them instead of listing them and dropping every file afterwards. Only
   * given when no pattern is a negation (a negation could re-include a folder a glob would skip),
   * and only for patterns whose glob reading is the same as their gitignore reading.
   */
  folderGlobs(): string[] {
    if (this.negations) {
      return [];
    }
    return this.globs.filter((glob) => !/[\\[\]{}]/.test(glob)).map((glob) => `${glob}/**`);
  }

  private add(file: IgnoreFile): void {
    const rules = file.content
      .split(/\r?\n/)
      .map((line) => rebase(line, file.dir))
      .filter((rule) => rule !== undefined);
    this.matcher.add(rules.map((rule) => rule.pattern));
    for (const rule of rules) {
      if (rule.negated) {
        this.negations = true;
      } else if (rule.glob !== undefined) {
        this.globs.push(rule.glob);
      }
    }
  }
}

/** One pattern of an ignore file, made relative to the workspace folder. */
export interface RebasedPattern {
  /** For the matcher, in gitignore syntax. */
  readonly pattern: string;
  /** The paths it names as a glob (no trailing slash); undefined when a glob cannot say it. */
  readonly glob: string | undefined;
  readonly negated: boolean;
}

/**
 * One line of an ignore file in `dir`, relative to the workspace folder; undefined for a blank
 * line or a comment. A pattern with a slash before its end is anchored to its file's folder; one
 * without matches at any depth below it (gitignore(5)).
 */
export function rebase(line: string, dir: string): RebasedPattern | undefined {
  // Trailing spaces go unless escaped with a backslash.
  const trimmed = line.replace(/(?<!\\)\s+$/, '');
  if (trimmed === '' || trimmed.startsWith('#')) {
    return undefined;
  }
  const negated = trimmed.startsWith('!');
  const body = negated ? trimmed.slice(1) : trimmed;
  const name = body.replace(/\/+$/, '');
  if (name === '') {
    return undefined;
  }
  const anchored = name.includes('/');
  const relative = name.replace(/^\/+/, '');
  const tail = anchored ? relative : `**/${relative}`;
  return {
    // The folder's own file needs no rebasing: its patterns already mean what they say.
    pattern:
      dir === ''
        ? trimmed
        : `${negated ? '!' : ''}${escapeLiteral(dir)}/${tail}${body.endsWith('/') ? '/' : ''}`,
    // A folder name with glob syntax in it would read differently as a glob: no glob then.
    glob: /[*?[\]{}\\!]/.test(dir) ? undefined : dir === '' ? tail : `${dir}/${tail}`,
    negated,
  };
}

/** A folder name as a gitignore pattern that matches it literally. */
function escapeLiteral(dir: string): string {
  return dir.replace(/[*?[\]\\]/g, '\\$&').replace(/^[#!]/, '\\$&');
}

function depthOf(dir: string): number {
  return dir === '' ? 0 : dir.split('/').length;
}
