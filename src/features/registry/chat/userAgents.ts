import { AgentSettingSchema } from '../../../chat/agentSettings';

/** A custom agent from a command line, as it goes into `acpAgents.agents`. */
export interface AgentEntry {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly registry?: { readonly id: string; readonly version: string };
}

/**
 * The user's `acpAgents.agents` with `entry` added, replacing the entry installed from the same
 * registry agent or carrying the same name. Entries we cannot read are kept as they are: the user's
 * JSON is never lost by adding an agent.
 */
export function withAgent(current: unknown, entry: AgentEntry): unknown[] {
  const list = Array.isArray(current) ? [...(current as unknown[])] : [];
  const index = list.findIndex((item) => {
    const parsed = AgentSettingSchema.safeParse(item);
    return (
      parsed.success &&
      ((entry.registry && parsed.data.registry?.id === entry.registry.id) || parsed.data.name === entry.name)
    );
  });
  const value = { ...entry, args: [...entry.args], env: { ...entry.env } };
  if (index >= 0) {
    list[index] = value;
  } else {
    list.push(value);
  }
  return list;
}

/** The user's `acpAgents.agents` without the entry named `name`. */
export function withoutAgent(current: unknown, name: string): unknown[] {
  const list = Array.isArray(current) ? (current as unknown[]) : [];
  return list.filter((item) => {
    const parsed = AgentSettingSchema.safeParse(item);
    return !(parsed.success && parsed.data.name === name);
  });
}

/**
 * Splits a command line the way a user types it into a terminal: words separated by spaces,
 * "double" or 'single' quotes keep spaces, a backslash escapes the next character (outside single
 * quotes, and not before a letter, so Windows paths survive). No shell runs it: no variables, no globs.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let started = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string;
    if (quote) {
      if (char === quote) {
        quote = undefined;
      } else if (char === '\\' && quote === '"' && (line[i + 1] === '"' || line[i + 1] === '\\')) {
        current += line[++i];
      } else {
        current += char;
      }
    } else if (char === '"' || char === "'") {
      quote = char;
      started = true;
    } else if (/\s/.test(char)) {
      if (started) {
        words.push(current);
        current = '';
        started = false;
      }
    } else if (char === '\\' && i + 1 < line.length && /[\s"'\\]/.test(line[i + 1] as string)) {
      current += line[++i];
      started = true;
    } else {
      current += char;
      started = true;
    }
  }
  if (quote) {
    throw new Error(`The command line has an unclosed ${quote} quote.`);
  }
  if (started) {
    words.push(current);
  }
  return words;
}
