import { RE2JS } from 're2js';

/**
 * An agent's `pattern` (a form field's JSON Schema regex) compiled for RE2's linear-time engine
 * (re2js): matching costs time in proportion to the text times the pattern, whatever the pattern, so
 * `^((a)+)+$` cannot stall the host as it does on JavaScript's backtracking engine. What RE2 cannot
 * run — backreferences, lookahead, lookbehind — is refused with the reason, never handed to a
 * backtracking engine instead.
 *
 * A bundle of its own (`dist/patterns.js`, ~150 KiB of RE2 and its Unicode tables), loaded with the
 * first form that has a pattern.
 */

/** Whether the value has the form the pattern asks for (JSON Schema: a match anywhere in it). */
export type PatternTest = (value: string) => boolean;

/** A compiled pattern, or why it is refused (for the agent). A value, not a throw: it crosses bundles. */
export type CompiledPattern = { readonly test: PatternTest } | { readonly refused: string };

/** Compiles `pattern` (ECMAScript syntax, as JSON Schema writes it) for RE2, or says why it cannot. */
export function compileAgentPattern(pattern: string): CompiledPattern {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(toRe2Syntax(pattern));
  } catch (error) {
    return { refused: whyRefused(pattern, error) };
  }
  return { test: (value) => compiled.test(value) };
}

/**
 * ECMAScript's `\uXXXX` and `\u{X…}` escapes in RE2's spelling (`\x{…}`); everything else is the same
 * in both or is refused by RE2 itself.
 */
export function toRe2Syntax(pattern: string): string {
  return pattern.replace(/\\(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|([\s\S]))/g, (whole, braced, four) => {
    const hex = (braced ?? four) as string | undefined;
    return hex === undefined ? whole : `\\x{${hex}}`;
  });
}

function whyRefused(pattern: string, error: unknown): string {
  if (/\(\?<?[=!]/.test(pattern)) {
    return 'pattern uses lookahead or lookbehind, which this client does not run (it can take exponential time)';
  }
  if (/\\[1-9]|\\k</.test(pattern)) {
    return 'pattern uses a backreference, which this client does not run (it can take exponential time)';
  }
  const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
  return `pattern is not a regular expression this client can run (${detail.slice(0, 200)})`;
}
