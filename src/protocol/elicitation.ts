import * as z from 'zod/mini';
import type { DeepReadonly } from './deepReadonly';

/*
 * An agent's question to the user (ACP elicitation) as the chat shows it: a form of plain fields
 * or a URL to open. The core builds these from the agent's schema (bounded, see
 * src/features/elicitation/core/elicitationSchema.ts); the webview renders them and checks the
 * answers with `checkElicitationValues`, and the host checks them again before they go out.
 */

export const ELICITATION_FORMATS = ['email', 'uri', 'date', 'date-time'] as const;

export const ElicitationChoiceSchema = z.object({ value: z.string(), label: z.string() });

const fieldBase = {
  /** The property name: the key of the answer. */
  name: z.string(),
  label: z.string(),
  description: z.optional(z.string()),
  required: z.boolean(),
};

export const ElicitationFieldSchema = z.discriminatedUnion('kind', [
  z.object({
    ...fieldBase,
    kind: z.literal('text'),
    format: z.optional(z.enum(ELICITATION_FORMATS)),
    minLength: z.optional(z.int()),
    maxLength: z.optional(z.int()),
    pattern: z.optional(z.string()),
    default: z.optional(z.string()),
  }),
  z.object({
    ...fieldBase,
    kind: z.literal('number'),
    integer: z.boolean(),
    minimum: z.optional(z.number()),
    maximum: z.optional(z.number()),
    default: z.optional(z.number()),
  }),
  z.object({ ...fieldBase, kind: z.literal('boolean'), default: z.optional(z.boolean()) }),
  z.object({
    ...fieldBase,
    kind: z.literal('choice'),
    choices: z.array(ElicitationChoiceSchema),
    default: z.optional(z.string()),
  }),
  z.object({
    ...fieldBase,
    kind: z.literal('multi'),
    choices: z.array(ElicitationChoiceSchema),
    minItems: z.optional(z.int()),
    maxItems: z.optional(z.int()),
    default: z.optional(z.array(z.string())),
  }),
]);

/** One pending question of the agent, by our key. */
export const ElicitationSchema = z.discriminatedUnion('mode', [
  z.object({
    key: z.string(),
    mode: z.literal('form'),
    message: z.string(),
    title: z.optional(z.string()),
    fields: z.array(ElicitationFieldSchema),
  }),
  z.object({
    key: z.string(),
    mode: z.literal('url'),
    message: z.string(),
    /** Always http: or https: (anything else is refused before it gets here). */
    url: z.string(),
    host: z.string(),
  }),
]);

const valueText = z.string().check(z.maxLength(100_000));
export const ElicitationValueSchema = z.union([
  valueText,
  z.number(),
  z.boolean(),
  z.array(valueText).check(z.maxLength(1_000)),
]);

/** The user's answer: accept (with the form's values, or none for a URL), decline or cancel. */
export const ElicitationAnswerSchema = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('accept'),
    values: z.optional(z.record(z.string(), ElicitationValueSchema)),
  }),
  z.object({ action: z.literal('decline') }),
  z.object({ action: z.literal('cancel') }),
]);

export type ElicitationField = DeepReadonly<z.infer<typeof ElicitationFieldSchema>>;
export type Elicitation = DeepReadonly<z.infer<typeof ElicitationSchema>>;
export type FormElicitation = Extract<Elicitation, { mode: 'form' }>;
export type ElicitationValue = DeepReadonly<z.infer<typeof ElicitationValueSchema>>;
export type ElicitationAnswer = DeepReadonly<z.infer<typeof ElicitationAnswerSchema>>;

/**
 * The longest answer checked against a field's `pattern`: RE2 takes time in proportion to the text
 * times the pattern, and a pattern is for names and ids, not pages.
 */
export const MAX_PATTERN_INPUT_CHARS = 10_000;

/**
 * Runs a field's agent-chosen `pattern` against an answer, in linear time (the host's RE2, see
 * src/features/elicitation/core/agentPattern.ts). Absent in the webview, which never runs an agent's
 * pattern: the host checks it when the answer arrives and sends back what is wrong.
 */
export type PatternCheck = (pattern: string, value: string) => boolean;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

/** Why `value` is not a valid answer for `field`, or undefined when it is (empty counts as absent). */
export function checkElicitationValue(
  field: ElicitationField,
  value: ElicitationValue | undefined,
  pattern?: PatternCheck,
): string | undefined {
  const empty = value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
  if (empty) {
    return field.required && field.kind !== 'boolean' ? `${field.label} is required.` : undefined;
  }
  switch (field.kind) {
    case 'text':
      return typeof value === 'string' ? checkText(field, value, pattern) : `${field.label} must be text.`;
    case 'number':
      return checkNumber(field, value);
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${field.label} must be yes or no.`;
    case 'choice':
      return typeof value === 'string' && field.choices.some((c) => c.value === value)
        ? undefined
        : `Choose one of the offered values for ${field.label}.`;
    case 'multi':
      return checkMulti(field, value);
  }
}

function checkNumber(
  field: Extract<ElicitationField, { kind: 'number' }>,
  value: ElicitationValue,
): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return `${field.label} must be a number.`;
  }
  if (field.integer && !Number.isInteger(value)) {
    return `${field.label} must be a whole number.`;
  }
  if (field.minimum !== undefined && value < field.minimum) {
    return `${field.label} must be at least ${field.minimum}.`;
  }
  if (field.maximum !== undefined && value > field.maximum) {
    return `${field.label} must be at most ${field.maximum}.`;
  }
  return undefined;
}

function checkMulti(
  field: Extract<ElicitationField, { kind: 'multi' }>,
  value: ElicitationValue,
): string | undefined {
  if (!Array.isArray(value) || !value.every((v) => field.choices.some((c) => c.value === v))) {
    return `Choose among the offered values for ${field.label}.`;
  }
  if (field.minItems !== undefined && value.length < field.minItems) {
    return `Choose at least ${field.minItems} for ${field.label}.`;
  }
  if (field.maxItems !== undefined && value.length > field.maxItems) {
    return `Choose at most ${field.maxItems} for ${field.label}.`;
  }
  return undefined;
}

function checkText(
  field: Extract<ElicitationField, { kind: 'text' }>,
  value: string,
  pattern: PatternCheck | undefined,
): string | undefined {
  if (field.minLength !== undefined && value.length < field.minLength) {
    return `${field.label} needs at least ${field.minLength} characters.`;
  }
  if (field.maxLength !== undefined && value.length > field.maxLength) {
    return `${field.label} takes at most ${field.maxLength} characters.`;
  }
  const format = checkFormat(field, value);
  if (format !== undefined) {
    return format;
  }
  if (field.pattern !== undefined) {
    if (value.length > MAX_PATTERN_INPUT_CHARS) {
      return `${field.label} takes at most ${MAX_PATTERN_INPUT_CHARS} characters.`;
    }
    if (pattern && !pattern(field.pattern, value)) {
      return `${field.label} does not have the expected form.`;
    }
  }
  return undefined;
}

function checkFormat(field: Extract<ElicitationField, { kind: 'text' }>, value: string): string | undefined {
  switch (field.format) {
    case 'email':
      return isEmail(value) ? undefined : `${field.label} must be an email address.`;
    case 'uri':
      return URL.canParse(value) ? undefined : `${field.label} must be a URL.`;
    case 'date':
      return DATE.test(value) ? undefined : `${field.label} must be a date (YYYY-MM-DD).`;
    case 'date-time':
      return DATE_TIME.test(value) ? undefined : `${field.label} must be a date and time.`;
    default:
      return undefined;
  }
}

/**
 * `name@host.tld`: one `@`, no white space, a dot inside the host. Without a regex: `[^@]+@[^@]+\.[^@]+$`
 * backtracks over every dot of a long pasted value.
 */
function isEmail(value: string): boolean {
  const at = value.indexOf('@');
  if (at <= 0 || at !== value.lastIndexOf('@') || /\s/.test(value)) {
    return false;
  }
  const dot = value.indexOf('.', at + 2);
  return dot !== -1 && dot < value.length - 1;
}

/** Every field's problem, by name; empty when the answer may be sent. Unknown names are problems too. */
export function checkElicitationValues(
  form: FormElicitation,
  values: Readonly<Record<string, ElicitationValue>>,
  pattern?: PatternCheck,
): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of form.fields) {
    const problem = checkElicitationValue(
      field,
      Object.hasOwn(values, field.name) ? values[field.name] : undefined,
      pattern,
    );
    if (problem) {
      problems[field.name] = problem;
    }
  }
  for (const name of Object.keys(values)) {
    if (!form.fields.some((field) => field.name === name)) {
      problems[name] = `${name} was not asked for.`;
    }
  }
  return problems;
}
