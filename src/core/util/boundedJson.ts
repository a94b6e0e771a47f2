/** Limits for `boundedJson`. */
export interface JsonBounds {
  /** Nesting deeper than this is written as "…". */
  readonly maxDepth: number;
  /** The output is cut at this many characters (plus a marker saying so). */
  readonly maxChars: number;
  /** Spaces per nesting level, as `JSON.stringify`'s third argument; 0 writes one line. */
  readonly indent: number;
}

const DEFAULT_BOUNDS: JsonBounds = { maxDepth: 32, maxChars: 4096, indent: 0 };

/**
 * JSON-like text of any value an agent sent, for logs, traces and error messages: depth-limited
 * (a 10,000-level message cannot overflow the stack as `JSON.stringify` does) and length-limited
 * (the work stops once `maxChars` are written, so a 30 MB value costs no more than a small one).
 * Cycles, functions, bigints and symbols are described rather than thrown on.
 */
export function boundedJson(value: unknown, bounds: Partial<JsonBounds> = {}): string {
  return measuredJson(value, bounds).text;
}

/** `boundedJson`, and whether the value fit within the bounds (nothing was cut or elided). */
export function measuredJson(
  value: unknown,
  bounds: Partial<JsonBounds> = {},
): { text: string; fits: boolean } {
  const writer = new BoundedJsonWriter({ ...DEFAULT_BOUNDS, ...bounds });
  const complete = writer.visit(value, 0) && writer.length <= writer.bounds.maxChars;
  const text = writer.text();
  return {
    text: complete ? text : `${text}… (cut at ${writer.bounds.maxChars} characters)`,
    fits: complete && !writer.elided,
  };
}

/** Writes JSON-like text within the bounds; every step returns false once `maxChars` are written. */
class BoundedJsonWriter {
  private readonly out: string[] = [];
  length = 0;
  /** Something was left out for its depth. */
  elided = false;
  private readonly seen = new Set<object>();
  private readonly colon: string;

  constructor(readonly bounds: JsonBounds) {
    this.colon = bounds.indent > 0 ? ': ' : ':';
  }

  text(): string {
    return this.out.join('');
  }

  private write(text: string): boolean {
    const { maxChars } = this.bounds;
    if (this.length >= maxChars) {
      return false;
    }
    this.out.push(this.length + text.length > maxChars ? text.slice(0, maxChars - this.length) : text);
    this.length += text.length;
    return this.length < maxChars;
  }

  /** Before an item (and before a closing bracket) when pretty-printing: a new line, indented. */
  private newline(depth: number): boolean {
    const { indent } = this.bounds;
    return indent <= 0 || this.write(`\n${' '.repeat(indent * depth)}`);
  }

  visit(item: unknown, depth: number): boolean {
    if (item === null || typeof item !== 'object') {
      return this.scalar(item);
    }
    if (depth >= this.bounds.maxDepth) {
      this.elided = true;
      return this.write('"…"');
    }
    if (this.seen.has(item)) {
      return this.write('"[cycle]"');
    }
    this.seen.add(item);
    try {
      if (Array.isArray(item)) {
        return this.array(item, depth);
      }
      if (item instanceof Error) {
        return this.write(JSON.stringify(`${item.name}: ${item.message.slice(0, this.bounds.maxChars)}`));
      }
      return this.object(item as Record<string, unknown>, depth);
    } finally {
      this.seen.delete(item);
    }
  }

  private scalar(item: unknown): boolean {
    switch (typeof item) {
      case 'string':
        // Only the part that can still be shown is quoted: a huge string is not copied whole.
        return this.write(
          JSON.stringify(item.length > this.bounds.maxChars ? item.slice(0, this.bounds.maxChars) : item),
        );
      case 'number':
      case 'boolean':
        return this.write(String(item));
      case 'bigint':
        return this.write(`${item.toString()}n`);
      case 'undefined':
        return this.write('undefined');
      case 'function':
      case 'symbol':
        return this.write(`"[${typeof item}]"`);
      default:
        return this.write('null');
    }
  }

  private array(items: readonly unknown[], depth: number): boolean {
    if (!this.write('[')) {
      return false;
    }
    for (let i = 0; i < items.length; i++) {
      if ((i > 0 && !this.write(',')) || !this.newline(depth + 1) || !this.visit(items[i], depth + 1)) {
        return false;
      }
    }
    return (items.length === 0 || this.newline(depth)) && this.write(']');
  }

  private object(object: Record<string, unknown>, depth: number): boolean {
    if (!this.write('{')) {
      return false;
    }
    let first = true;
    for (const key in object) {
      const field = Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
      if (field === undefined) {
        continue;
      }
      const keyText = `${JSON.stringify(key.slice(0, this.bounds.maxChars))}${this.colon}`;
      if ((!first && !this.write(',')) || !this.newline(depth + 1) || !this.write(keyText)) {
        return false;
      }
      first = false;
      if (!this.visit(field, depth + 1)) {
        return false;
      }
    }
    return (first || this.newline(depth)) && this.write('}');
  }
}

/** Shortens text for a message: at most `max` characters, with a marker when cut. */
export function shorten(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
