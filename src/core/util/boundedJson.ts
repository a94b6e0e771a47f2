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
  const { maxDepth, maxChars, indent } = { ...DEFAULT_BOUNDS, ...bounds };
  /** Before an item (and before a closing bracket) when pretty-printing: a new line, indented. */
  const newline = (depth: number): boolean => indent <= 0 || write(`\n${' '.repeat(indent * depth)}`);
  const colon = indent > 0 ? ': ' : ':';
  let elided = false;
  const out: string[] = [];
  let length = 0;
  const seen = new Set<object>();
  const write = (text: string): boolean => {
    if (length >= maxChars) {
      return false;
    }
    out.push(length + text.length > maxChars ? text.slice(0, maxChars - length) : text);
    length += text.length;
    return length < maxChars;
  };
  const visit = (item: unknown, depth: number): boolean => {
    switch (typeof item) {
      case 'string':
        // Only the part that can still be shown is quoted: a huge string is not copied whole.
        return write(JSON.stringify(item.length > maxChars ? item.slice(0, maxChars) : item));
      case 'number':
      case 'boolean':
        return write(String(item));
      case 'bigint':
        return write(`${item.toString()}n`);
      case 'undefined':
        return write('undefined');
      case 'function':
      case 'symbol':
        return write(`"[${typeof item}]"`);
      default:
        break;
    }
    if (item === null) {
      return write('null');
    }
    const object = item as object;
    if (depth >= maxDepth) {
      elided = true;
      return write('"…"');
    }
    if (seen.has(object)) {
      return write('"[cycle]"');
    }
    seen.add(object);
    try {
      if (Array.isArray(object)) {
        if (!write('[')) {
          return false;
        }
        for (let i = 0; i < object.length; i++) {
          if ((i > 0 && !write(',')) || !newline(depth + 1) || !visit(object[i], depth + 1)) {
            return false;
          }
        }
        return (object.length === 0 || newline(depth)) && write(']');
      }
      if (object instanceof Error) {
        return write(JSON.stringify(`${object.name}: ${object.message.slice(0, maxChars)}`));
      }
      if (!write('{')) {
        return false;
      }
      let first = true;
      for (const key in object) {
        if (!Object.prototype.hasOwnProperty.call(object, key)) {
          continue;
        }
        const field = (object as Record<string, unknown>)[key];
        if (field === undefined) {
          continue;
        }
        if (
          (!first && !write(',')) ||
          !newline(depth + 1) ||
          !write(`${JSON.stringify(key.slice(0, maxChars))}${colon}`)
        ) {
          return false;
        }
        first = false;
        if (!visit(field, depth + 1)) {
          return false;
        }
      }
      return (first || newline(depth)) && write('}');
    } finally {
      seen.delete(object);
    }
  };
  const complete = visit(value, 0) && length <= maxChars;
  const text = out.join('');
  return {
    text: complete ? text : `${text}… (cut at ${maxChars} characters)`,
    fits: complete && !elided,
  };
}

/** Shortens text for a message: at most `max` characters, with a marker when cut. */
export function shorten(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
