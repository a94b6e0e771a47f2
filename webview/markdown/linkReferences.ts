import type { Env } from 'markdown-it';
import { referenceLabel } from './renderer';

/**
 * Link reference definitions across a message's blocks. markdown-it resolves `[text][label]`, `[label][]` and
 * `[label]` against every definition in the text, before or after the use (the first definition of a label
 * wins). A streamed message is rendered block by block (blockSplitter.ts): a block alone showed a reference
 * defined in another as bracketed text, and the definition renders as nothing — the address was lost. Here
 * each finished block is rendered with the definitions known so far (those before it), and a block that may
 * use a label is rendered again when a later block, or the tail still being written, defines it.
 */

/** markdown-it's `env.references`: normalised label → the link's address and title. */
type Definitions = NonNullable<Env['references']>;

/** A block rendered again: its index among the message's finished blocks and its new HTML. */
export interface BlockAgain {
  readonly index: number;
  readonly html: string;
}

/** Renders a block's markdown with an `env` whose `references` markdown-it reads and adds to. */
type RenderWith = (markdown: string, env: { references: Definitions }) => string;

/** The references' whole state as plain data (a stream moves to the markdown worker with it). */
export interface ReferencesState {
  readonly known: Definitions;
  readonly uses: readonly (readonly [number, string])[];
  readonly fromTail: Definitions;
  readonly crowdedShown: readonly string[];
}

/**
 * Any `]`: the block may use a label. `[1]: …` inside a paragraph is a use followed by a colon, and
 * `[docs](not a link` an inline link that fails and falls back to the label `docs`; a definition line and a
 * whole inline link match too, and cost only a look at their labels when one is defined.
 */
const MAY_USE = /\]/;
/** A line that may start a definition, at the block's start or inside a quote or list item. */
const MAY_DEFINE = /\]:/;
/**
 * The blocks of a message that may use a label and are rendered again when it is defined: a message of more
 * such blocks shows the later ones' labels as text, as before (an agent's brackets cost bounded work).
 */
const MAX_USES = 2000;
/**
 * Bracketed spans remembered of a block that may use a label; a block with more is rendered again whenever any
 * label changes (correct, only slower).
 */
const MAX_LABELS = 200;
/**
 * Finished blocks a definition still being written (in the tail) may render again as it grows, for one label: its
 * address changes with every frame that adds to it, and each change renders every user again (an answer citing one
 * label in 2,000 paragraphs, its definition streamed in 47 chunks, rendered 88,000 blocks). A label with more users
 * shows in them as text until its definition is finished, the stream ends (its turn did) or the text is shown
 * whole (`linkEveryUse`), then once as a link in all of them; the tail itself shows it as a render once does.
 */
const TAIL_USERS_MAX = 100;
/** A bracketed span: no unescaped bracket inside (a label has none), escapes kept as markdown-it keeps them. */
const BRACKETED = /\[((?:[^[\]\\]|\\[^])*)\]/g;

/** A finished block that may use a label: its index, its markdown, and the labels it may use (all, if undefined). */
type Use = readonly [index: number, markdown: string, labels: ReadonlySet<string> | undefined];

export class LinkReferences {
  /** Defined by the finished blocks, in order (no prototype: a label is only ever one of these). */
  private readonly known: Definitions;
  /** The finished blocks that may use a label (at most MAX_USES). */
  private readonly uses: Use[];
  /** Defined by the tail and by no finished block (the blocks show them, or not: `tailShown`). */
  private fromTail: Definitions;
  /** Crowded labels whose users show the tail's definition all the same: the text was shown whole, or ended, since. */
  private readonly crowdedShown: Set<string>;
  /** How many of the uses may use each label, and how many may use any (more bracketed spans than MAX_LABELS). */
  private readonly users = new Map<string, number>();
  private anyLabelUsers = 0;

  constructor(
    private readonly render: RenderWith,
    state?: ReferencesState,
  ) {
    this.known = definitions(state?.known);
    this.uses = [];
    for (const [index, markdown] of state?.uses ?? []) {
      const user = use(index, markdown);
      this.count(user);
      this.uses.push(user);
    }
    this.fromTail = definitions(state?.fromTail);
    this.crowdedShown = new Set(state?.crowdedShown);
  }

  /** Whether a block may use or define a label: else it needs no references, nor they it. */
  static mayMatter(markdown: string): boolean {
    return MAY_USE.test(markdown) || MAY_DEFINE.test(markdown);
  }

  state(): ReferencesState {
    const uses = this.uses.map(([index, markdown]) => [index, markdown] as const);
    return {
      known: { ...this.known },
      uses,
      fromTail: { ...this.fromTail },
      crowdedShown: [...this.crowdedShown],
    };
  }

  /** A finished block rendered as block `index`, and the blocks before it that its definitions change. */
  block(markdown: string, index: number): { html: string; again: BlockAgain[] } {
    const mayUse = MAY_USE.test(markdown);
    const user = mayUse && this.uses.length < MAX_USES ? use(index, markdown) : undefined;
    const tailLabels = Object.keys(this.fromTail);
    const before = this.shownOf(tailLabels);
    if (user) {
      this.count(user);
    }
    // Rendered over the labels known (its prototype), the block's own definitions are its own properties:
    // no copy of every label for each block.
    const own: Definitions = Object.create(this.known) as Definitions;
    let html = this.render(markdown, { references: MAY_DEFINE.test(markdown) ? own : this.known });
    const defined = Object.entries(own);
    for (const [label, definition] of defined) {
      this.known[label] = definition;
      delete this.fromTail[label];
      this.crowdedShown.delete(label);
    }
    if (mayUse && Object.keys(this.fromTail).length > 0) {
      // The tail after this block defines labels it may use.
      html = this.render(markdown, { references: this.withTail() });
    }
    // The blocks before this one that show a label otherwise now: one the block defines (a label the tail
    // defined is the same definition now finished, unless the block defines it otherwise), or one of the
    // tail's this block crowds (they lose it, once a label). Not itself: rendered with them above.
    const labels =
      defined.length === 0 ? tailLabels : [...new Set([...tailLabels, ...defined.map(([label]) => label)])];
    const again = this.renderAgain(this.changedSince(labels, before));
    if (user) {
      this.uses.push(user);
    }
    return { html, again };
  }

  /** The `env` to render the tail with: over the labels known, its own definitions are its own properties. */
  tailEnv(): { references: Definitions } {
    return { references: Object.create(this.known) as Definitions };
  }

  /** After the tail was rendered with `env` (from tailEnv): the blocks its definitions change. */
  tailRendered(env: Env): BlockAgain[] {
    const next = definitions(env.references);
    const labels = [...new Set([...Object.keys(next), ...Object.keys(this.fromTail)])];
    const before = this.shownOf(labels);
    for (const label of labels) {
      // A definition that changes is no longer the one a text shown whole showed: its users show text again.
      if (!sameDefinition(next[label], this.fromTail[label])) {
        this.crowdedShown.delete(label);
      }
    }
    this.fromTail = next;
    // A crowded label's users show it as text whatever the tail defines: nothing to render again for it.
    return this.renderAgain(this.changedSince(labels, before));
  }

  /** The tail became a fence, which defines nothing: the blocks its definitions changed, rendered again. */
  tailCleared(): BlockAgain[] {
    const labels = Object.keys(this.fromTail);
    if (labels.length === 0) {
      return [];
    }
    const shown = labels.filter((label) => this.tailShown(label) !== undefined);
    this.fromTail = definitions();
    this.crowdedShown.clear();
    return this.renderAgain(shown);
  }

  /**
   * The text is shown whole (a render once shows every link): the users of a crowded label show the tail's
   * definition too, rendered again once; the next change to it in a stream takes it from them again, once.
   */
  linkEveryUse(): BlockAgain[] {
    const labels = Object.keys(this.fromTail).filter(
      (label) => this.crowded(label) && !this.crowdedShown.has(label),
    );
    for (const label of labels) {
      this.crowdedShown.add(label);
    }
    return this.renderAgain(labels);
  }

  /** The labels known and, after them, the tail's the finished blocks show. */
  private withTail(): Definitions {
    const references = Object.create(this.known) as Definitions;
    for (const label of Object.keys(this.fromTail)) {
      const definition = this.tailShown(label);
      if (definition) {
        references[label] = definition;
      }
    }
    return references;
  }

  /** The tail's definition of `label` as the finished blocks show it: none when crowded, unless shown all the same. */
  private tailShown(label: string): Definitions[string] | undefined {
    return !this.crowded(label) || this.crowdedShown.has(label) ? this.fromTail[label] : undefined;
  }

  /** The definition of `label` the finished blocks show: a finished block's, else the tail's as `tailShown`. */
  private shown(label: string): Definitions[string] | undefined {
    return this.known[label] ?? this.tailShown(label);
  }

  /** What the finished blocks show of each of `labels`, to tell after a change which it changed. */
  private shownOf(labels: readonly string[]): Array<Definitions[string] | undefined> {
    return labels.map((label) => this.shown(label));
  }

  /**
   * The labels the finished blocks show otherwise than `before` (from `shownOf` on the first of them; a label
   * past those showed nothing).
   */
  private changedSince(
    labels: readonly string[],
    before: ReadonlyArray<Definitions[string] | undefined>,
  ): string[] {
    return labels.filter((label, at) => !sameDefinition(before[at], this.shown(label)));
  }

  /** Whether the tail's definition of `label` has more users than it may render again as it grows. */
  private crowded(label: string): boolean {
    return (this.users.get(label) ?? 0) + this.anyLabelUsers > TAIL_USERS_MAX;
  }

  /** Counts a block that may use labels among its labels' users. */
  private count(user: Use): void {
    const [, , labels] = user;
    if (labels === undefined) {
      this.anyLabelUsers++;
      return;
    }
    for (const label of labels) {
      this.users.set(label, (this.users.get(label) ?? 0) + 1);
    }
  }

  /** Every block that may use one of `labels`, rendered again with the definitions now known. */
  private renderAgain(labels: readonly string[]): BlockAgain[] {
    if (labels.length === 0) {
      return [];
    }
    const again: BlockAgain[] = [];
    for (const [index, markdown, used] of this.uses) {
      if (!used || labels.some((label) => used.has(label))) {
        again.push({ index, html: this.render(markdown, { references: this.withTail() }) });
      }
    }
    return again;
  }
}

/** A label → definition record with no prototype, holding `from`'s own entries. */
function definitions(from: Definitions = {}): Definitions {
  return Object.assign(Object.create(null) as Definitions, from);
}

/** A block that may use labels, with the labels it may use: each bracketed span, as markdown-it keys it. */
function use(index: number, markdown: string): Use {
  const labels = new Set<string>();
  for (const [, label] of markdown.matchAll(BRACKETED)) {
    labels.add(referenceLabel(label ?? ''));
    if (labels.size > MAX_LABELS) {
      return [index, markdown, undefined];
    }
  }
  return [index, markdown, labels];
}

function sameDefinition(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
