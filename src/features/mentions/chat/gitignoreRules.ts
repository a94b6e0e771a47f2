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
 * use). Each nested file's patterns are rebased onto its folder; a folder with an ignore file gets
 * one matcher holding its own and its ancestors' patterns in git's order of precedence, so a path
 * is tested only against the rules that can apply to it (a monorepo's 200 ignore files do not
 * make every path pay for 800 patterns).
 */
export class GitignoreRules {
  /** For each folder that has an ignore file ('' always), the rebased patterns that apply below it. */
  private readonly chains = new Map<string, readonly string[]>();
  private readonly matchers = new Map<string, Ignore>();
  /** For each folder asked about, the matcher of its nearest folder with an ignore file. */
  private readonly matcherOfFolder = new Map<string, Ignore>();
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
    private readonly options: GitignoreRulesOptions,
  ) {
    this.chains.set('', infoExclude === undefined ? [] : this.patternsOf({ dir: '', content: infoExclude }));
    // Shallower first, so that each file's ancestors are in place before it.
    const byDepth = [...gitignores].sort(
      (a, b) => depthOf(a.dir) - depthOf(b.dir) || a.dir.localeCompare(b.dir),
    );
    for (const file of byDepth) {
      const parent = file.dir === '' ? '' : this.nearestChain(parentOf(file.dir));
      // Git never reads an ignore file inside an excluded folder.
      if (file.dir !== '' && this.matcher(parent).ignores(`${file.dir}/`)) {
        continue;
      }
      // Later patterns win in a matcher, as the deeper file wins in git.
      this.chains.set(file.dir, [...(this.chains.get(parent) ?? []), ...this.patternsOf(file)]);
      this.matchers.delete(file.dir);
    }
  }

  /** Whether git ignores the file at `relativePath` (`/` separators, relative to the workspace folder). */
  ignores(relativePath: string): boolean {
    const folder = parentOf(relativePath);
    let matcher = this.matcherOfFolder.get(folder);
    if (matcher === undefined) {
      matcher = this.matcher(this.nearestChain(folder));
      this.matcherOfFolder.set(folder, matcher);
    }
    return matcher.ignores(relativePath);
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

  /** The folder itself or its nearest ancestor that has an ignore file ('' at the top). */
  private nearestChain(folder: string): string {
    let candidate = folder;
    while (candidate !== '' && !this.chains.has(candidate)) {
      candidate = parentOf(candidate);
    }
    return candidate;
  }

  private matcher(chain: string): Ignore {
    let matcher = this.matchers.get(chain);
    if (matcher === undefined) {
      matcher = ignore({ ignorecase: this.options.ignoreCase }).add(this.chains.get(chain) ?? []);
      this.matchers.set(chain, matcher);
    }
    return matcher;
  }

  private patternsOf(file: IgnoreFile): string[] {
    const rules = file.content
      .split(/\r?\n/)
      .map((line) => rebase(line, file.dir))
      .filter((rule) => rule !== undefined);
    for (const rule of rules) {
      if (rule.negated) {
        this.negations = true;
      } else if (rule.glob !== undefined) {
        this.globs.push(rule.glob);
      }
    }
    return rules.map((rule) => rule.pattern);
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

/** The folder a path is in ('' at the top). */
function parentOf(relativePath: string): string {
  const slash = relativePath.lastIndexOf('/');
  return slash === -1 ? '' : relativePath.slice(0, slash);
}

function depthOf(dir: string): number {
  return dir === '' ? 0 : dir.split('/').length;
}
