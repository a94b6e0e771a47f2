import type * as acp from '@agentclientprotocol/sdk';
import * as z from 'zod/mini';
import '../../../core/util/zodEnglish';
import { measuredJson } from '../../../core/util/boundedJson';
import { PortRequestError } from '../../../core/ports';
import { secretValues } from '../../../core/secrets/secrets';
import type { Elicitation, ElicitationField } from '../../../protocol/elicitation';
import { ELICITATION_FORMATS } from '../../../protocol/elicitation';
import type { CompiledPattern, PatternTest } from './agentPattern';

/** What a request may cost before it is refused: a form is for a person, not a database. */
export const ELICITATION_LIMITS = {
  /** The whole request as JSON. */
  maxChars: 64_000,
  /** Nesting of the request (a form's property sits at depth 4; its choices at 6). */
  maxDepth: 12,
  maxFields: 40,
  maxChoices: 100,
  /** Of the message and descriptions. */
  maxTextChars: 4_000,
  /** Of names, labels and choice values. */
  maxLabelChars: 200,
  /** Of a `pattern` (run against what the user types). */
  maxPatternChars: 200,
  maxUrlChars: 4_000,
} as const;

const label = z.string().check(z.maxLength(ELICITATION_LIMITS.maxLabelChars));
const text = z.string().check(z.maxLength(ELICITATION_LIMITS.maxTextChars));
const optionalText = z.nullish(text);
const count = z.nullish(z.number().check(z.int(), z.nonnegative()));
// zod's numbers are finite: Infinity and NaN are refused.
const bound = z.nullish(z.number());
const choices = <T extends z.ZodMiniType>(item: T) =>
  z.array(item).check(z.minLength(1), z.maxLength(ELICITATION_LIMITS.maxChoices));

const common = { title: z.nullish(label), description: optionalText };

const EnumOptionSchema = z.object({ const: label, title: label });

const StringProperty = z.object({
  ...common,
  type: z.literal('string'),
  minLength: count,
  maxLength: count,
  // Compiled for RE2 after parsing (see `compilePatterns`): only the length is bounded here.
  pattern: z.nullish(z.string().check(z.maxLength(ELICITATION_LIMITS.maxPatternChars))),
  format: z.nullish(z.enum(ELICITATION_FORMATS)),
  default: z.nullish(text),
  enum: z.nullish(choices(label)),
  oneOf: z.nullish(choices(EnumOptionSchema)),
});

const NumberProperty = z.object({
  ...common,
  type: z.enum(['number', 'integer']),
  minimum: bound,
  maximum: bound,
  default: bound,
});

const BooleanProperty = z.object({ ...common, type: z.literal('boolean'), default: z.nullish(z.boolean()) });

const MultiProperty = z.object({
  ...common,
  type: z.literal('array'),
  minItems: count,
  maxItems: count,
  items: z.union([
    z.object({ type: z.literal('string'), enum: choices(label) }),
    z.object({ anyOf: choices(EnumOptionSchema) }),
  ]),
  default: z.nullish(z.array(label).check(z.maxLength(ELICITATION_LIMITS.maxChoices))),
});

const PropertySchema = z.discriminatedUnion('type', [
  StringProperty,
  NumberProperty,
  BooleanProperty,
  MultiProperty,
]);

const FormSchema = z.object({
  type: z.optional(z.literal('object')),
  title: z.nullish(label),
  description: optionalText,
  properties: z.optional(
    z.record(label, PropertySchema).check(
      z.refine((p) => Object.keys(p).length <= ELICITATION_LIMITS.maxFields, {
        message: `more than ${ELICITATION_LIMITS.maxFields} fields`,
      }),
    ),
  ),
  required: z.nullish(z.array(label).check(z.maxLength(ELICITATION_LIMITS.maxFields))),
});

type Property = z.infer<typeof PropertySchema>;

/**
 * The agent's elicitation as the chat shows it, under our `key`, or a JSON-RPC "invalid params"
 * error saying why it cannot be shown: too big or too deep, a field type ACP does not allow, a
 * URL that is not http(s) or carries a secret. The SDK has checked the request's shape; this bounds
 * and narrows it. Secret values quoted in its texts (message, title, labels, defaults, choices) are
 * scrubbed as in every other text an agent sends us.
 */
export function parseElicitation(key: string, params: acp.CreateElicitationRequest): Elicitation {
  const parsed = boundedElicitation(key, params);
  if (parsed.mode === 'url' && secretValues.scrub(parsed.url) !== parsed.url) {
    throw refuse('the URL carries a secret value (it would be sent to that page)');
  }
  return secretValues.scrubDeep(parsed);
}

/**
 * Each text field's `pattern`, compiled for a linear-time engine, or the JSON-RPC error saying which
 * pattern cannot be run and why (a backreference, a lookaround, not a regular expression).
 */
export function compilePatterns(
  elicitation: Elicitation,
  compile: (pattern: string) => CompiledPattern,
): Map<string, PatternTest> {
  const patterns = new Map<string, PatternTest>();
  if (elicitation.mode !== 'form') {
    return patterns;
  }
  for (const field of elicitation.fields) {
    if (field.kind !== 'text' || field.pattern === undefined || patterns.has(field.pattern)) {
      continue;
    }
    const compiled = compile(field.pattern);
    if ('refused' in compiled) {
      throw refuse(`the ${field.name.slice(0, 50)} field's ${compiled.refused}`);
    }
    patterns.set(field.pattern, compiled.test);
  }
  return patterns;
}

function boundedElicitation(key: string, params: acp.CreateElicitationRequest): Elicitation {
  const measured = measuredJson(params, {
    maxChars: ELICITATION_LIMITS.maxChars,
    maxDepth: ELICITATION_LIMITS.maxDepth,
  });
  if (!measured.fits) {
    throw refuse(
      `the request is larger than ${ELICITATION_LIMITS.maxChars} characters of JSON or nested deeper than ${ELICITATION_LIMITS.maxDepth} levels`,
    );
  }
  const message = text.safeParse(params.message);
  if (!message.success) {
    throw refuse(`the message is longer than ${ELICITATION_LIMITS.maxTextChars} characters`);
  }
  if (params.mode === 'url' && 'url' in params && typeof params.url === 'string') {
    const { url, host } = checkUrl(params.url);
    return { key, mode: 'url', message: message.data, url, host };
  }
  if (params.mode === 'form' && 'requestedSchema' in params) {
    const form = FormSchema.safeParse(params.requestedSchema);
    if (!form.success) {
      throw refuse(describeIssue(form.error));
    }
    const required = new Set(form.data.required ?? []);
    const fields = Object.entries(form.data.properties ?? {}).map(([name, property]) =>
      fieldOf(name, property, required.has(name)),
    );
    return {
      key,
      mode: 'form',
      message: message.data,
      ...(form.data.title ? { title: form.data.title } : {}),
      fields,
    };
  }
  throw refuse(`the mode "${String(params.mode).slice(0, 50)}" is not supported (only "form" and "url")`);
}

/** Only a web page may be opened for an agent: http(s), absolute, no credentials in it. */
export function checkUrl(raw: string): { url: string; host: string } {
  if (raw.length > ELICITATION_LIMITS.maxUrlChars) {
    throw refuse(`the URL is longer than ${ELICITATION_LIMITS.maxUrlChars} characters`);
  }
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw refuse('the URL is not a valid absolute URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw refuse(`only http and https URLs are opened, not ${parsed.protocol.slice(0, 20)}`);
  }
  if (parsed.username || parsed.password) {
    throw refuse('the URL carries a user name or password');
  }
  return { url: parsed.href, host: parsed.host };
}

function fieldOf(name: string, property: Property, required: boolean): ElicitationField {
  const base = {
    name,
    label: property.title || name,
    ...(property.description ? { description: property.description } : {}),
    required,
  };
  switch (property.type) {
    case 'string': {
      const choices =
        property.oneOf?.map((o) => ({ value: o.const, label: o.title })) ??
        property.enum?.map((value) => ({ value, label: value }));
      const fallback = property.default ?? undefined;
      if (choices) {
        return { ...base, kind: 'choice', choices, ...(fallback !== undefined ? { default: fallback } : {}) };
      }
      return {
        ...base,
        kind: 'text',
        ...defined('format', property.format),
        ...defined('minLength', property.minLength),
        ...defined('maxLength', property.maxLength),
        ...defined('pattern', property.pattern),
        ...defined('default', fallback),
      };
    }
    case 'number':
    case 'integer':
      return {
        ...base,
        kind: 'number',
        integer: property.type === 'integer',
        ...defined('minimum', property.minimum),
        ...defined('maximum', property.maximum),
        ...defined('default', property.default),
      };
    case 'boolean':
      return { ...base, kind: 'boolean', ...defined('default', property.default) };
    case 'array': {
      const items = property.items;
      const choices =
        'anyOf' in items
          ? items.anyOf.map((o) => ({ value: o.const, label: o.title }))
          : items.enum.map((value) => ({ value, label: value }));
      return {
        ...base,
        kind: 'multi',
        choices,
        ...defined('minItems', property.minItems),
        ...defined('maxItems', property.maxItems),
        ...defined('default', property.default),
      };
    }
  }
}

function defined<K extends string, V>(key: K, value: V | null | undefined): { [P in K]?: V } {
  return (value === null || value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function describeIssue(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.map(String).join('.').slice(0, 200)}` : '';
  return `the form's schema is not one this client can show${where}: ${issue?.message ?? 'invalid'}`;
}

/** JSON-RPC "invalid params", worded as the SDK's `RequestError.invalidParams` words it. */
function refuse(why: string): PortRequestError {
  return new PortRequestError(-32602, `Invalid params: Elicitation refused: ${why}.`, { reason: 'unsupported' });
}
