/**
 * The secret values in use in this extension host — MCP secrets from SecretStorage (`${secret:…}`,
 * `${input:…}`), API keys stored for an agent's sign-in — and their scrubbing from every text we log,
 * show, journal or report, replaced by `‹secret NAME›`. The values leave memory only to the agent.
 *
 * One set per process, on purpose: a value read anywhere (the MCP source, the sign-in store) must be
 * scrubbed everywhere (the log, the journal, the doctor report, the chat), and none of those knows who
 * read it. Values shorter than `MIN_SECRET_CHARS` are not kept: scrubbing "1" would garble every text.
 */
export const MIN_SECRET_CHARS = 6;

export class SecretValues {
  /** value → name; the longest values are replaced first (one secret may contain another). */
  private readonly byValue = new Map<string, string>();
  private sorted: string[] = [];
  private longest = 0;

  /** Remembers `value` as the secret `name` (from now on scrubbed wherever it appears). */
  add(name: string, value: string): void {
    if (value.length < MIN_SECRET_CHARS || this.byValue.get(value) === name) {
      return;
    }
    this.byValue.set(value, safeName(name));
    // Also its JSON-escaped form: a journal or a traced message holds the value inside a JSON string.
    const escaped = JSON.stringify(value).slice(1, -1);
    if (escaped !== value) {
      this.byValue.set(escaped, safeName(name));
    }
    this.sorted = [...this.byValue.keys()].sort((a, b) => b.length - a.length);
    this.longest = this.sorted[0]?.length ?? 0;
  }

  /** Forgets every value (tests; a value stays scrubbed for the life of the process otherwise). */
  clear(): void {
    this.byValue.clear();
    this.sorted = [];
    this.longest = 0;
  }

  get size(): number {
    return this.byValue.size;
  }

  /** `text` with every known value replaced by `‹secret NAME›`. */
  scrub(text: string): string {
    if (this.sorted.length === 0 || text.length < MIN_SECRET_CHARS) {
      return text;
    }
    let out = text;
    for (const value of this.sorted) {
      if (out.includes(value)) {
        out = out.split(value).join(`‹secret ${this.byValue.get(value) as string}›`);
      }
    }
    return out;
  }

  /**
   * How many characters at the end of `text` could be the start of a secret whose rest has not
   * arrived yet: a stream holds them back until the next chunk says which.
   */
  heldTail(text: string): number {
    const from = Math.max(0, text.length - (this.longest - 1));
    for (let start = from; start < text.length; start++) {
      const tail = text.slice(start);
      if (this.sorted.some((value) => value.length > tail.length && value.startsWith(tail))) {
        return text.length - start;
      }
    }
    return 0;
  }

  /** A copy of `value` with every string in it scrubbed (objects and arrays walked, depth-bounded). */
  scrubDeep<T>(value: T, depth = 32): T {
    if (this.sorted.length === 0) {
      return value;
    }
    return this.walk(value, depth) as T;
  }

  private walk(value: unknown, depth: number): unknown {
    if (typeof value === 'string') {
      return this.scrub(value);
    }
    if (depth <= 0 || typeof value !== 'object' || value === null) {
      return value;
    }
    if (Array.isArray(value)) {
      return value.map((item) => this.walk(item, depth - 1));
    }
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [
        key,
        this.walk(item, depth - 1),
      ]),
    );
  }
}

/** A name as the marker shows it: the marker must stay plain text in JSON, markdown and the log. */
function safeName(name: string): string {
  return name.replace(/[^\w.:-]/g, '_').slice(0, 64) || 'value';
}

/**
 * The process's secret values (see the module comment for why there is one set). One per process even
 * though this module is in several bundles — the chat and the features it loads on first use (MCP, the
 * doctor, …) each carry a copy of it: the set lives on `globalThis`, so a secret the MCP bundle learns is
 * scrubbed by the chat's views and journal, and the doctor's report scrubs what the chat learnt.
 */
export const secretValues: SecretValues = ((globalThis as Record<symbol, SecretValues | undefined>)[
  Symbol.for('acpAgents.secretValues')
] ??= new SecretValues());

/** `secretValues.scrub(text)`. */
export function scrubSecrets(text: string): string {
  return secretValues.scrub(text);
}
