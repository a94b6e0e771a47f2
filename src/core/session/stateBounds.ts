/**
 * Bounds on what an agent may make the session hold: every list and text of the session-wide
 * state, and the tool calls of one turn. Past a bound the rest is dropped and the chat says so
 * (a cut title ends in "…", a cut plan ends with a "… more steps" line, the others get a notice),
 * so a flooding agent costs a fixed amount of memory, journal and rendering.
 */
export const STATE_BOUNDS = {
  /** Characters of the chat's title. */
  titleChars: 200,
  /** Characters of one plan step, command description, option or choice name. */
  textChars: 2_000,
  planEntries: 200,
  commands: 500,
  configOptions: 100,
  /** Choices of one select option. */
  choices: 1_000,
  modes: 100,
  /** Distinct tool calls one turn may add to the transcript. */
  toolCallsPerTurn: 2_000,
} as const;

/** `text` cut to `max` characters, ending in "…" when it was cut. */
export function cutText(text: string, max: number = STATE_BOUNDS.textChars): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The first `max` items (no copy of the rest is ever made). */
export function firstOf<T>(items: readonly T[], max: number): T[] {
  return items.length > max ? items.slice(0, max) : [...items];
}

/** What was cut from the session state, named for a notice ("The agent sent 100,000 commands; …"). */
export type CutKind = 'commands' | 'configOptions' | 'choices' | 'modes' | 'toolCalls';

export function cutNoticeTitle(kind: CutKind, sent: number, kept: number): string {
  const what: Record<CutKind, string> = {
    commands: 'commands',
    configOptions: 'settings',
    choices: 'setting choices',
    modes: 'modes',
    toolCalls: 'tool calls in this turn',
  };
  return kind === 'toolCalls'
    ? `The agent started more than ${kept.toLocaleString('en')} tool calls in this turn; later ones are not shown.`
    : `The agent sent ${sent.toLocaleString('en')} ${what[kind]}; only the first ${kept.toLocaleString('en')} are kept.`;
}
