import * as z from 'zod/mini';

/** How an agent wants the user to sign in, in our terms. */
export type SignInMethod =
  | { readonly kind: 'agent'; readonly id: string; readonly name: string; readonly description?: string }
  /** Run a command in a terminal (the agent's own command with `args`, or the one `_meta` names), then retry. */
  | {
      readonly kind: 'terminal';
      readonly id: string;
      readonly name: string;
      readonly description?: string;
      readonly command?: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
    }
  /** Put a key in an environment variable of the agent. */
  | {
      readonly kind: 'env_var';
      readonly id: string;
      readonly name: string;
      readonly description?: string;
      readonly variables: readonly { readonly name: string; readonly label?: string }[];
    };

const nonEmpty = z.string().check(z.minLength(1));
const base = { id: nonEmpty, name: nonEmpty, description: z.nullish(z.string()) };
const Env = z.record(z.string(), z.string());
const TerminalMeta = z.object({
  command: z.optional(z.string()),
  args: z.optional(z.array(z.string())),
  env: z.optional(Env),
});
const RawMethod = z.object({
  ...base,
  type: z.optional(z.string()),
  args: z.optional(z.array(z.string())),
  env: z.optional(Env),
  vars: z.optional(z.array(z.object({ name: nonEmpty, label: z.nullish(z.string()) }))),
  _meta: z.nullish(z.record(z.string(), z.unknown())),
});

/**
 * Reads the agent's `authMethods` (agent-provided data we act on: parsed, never trusted). Seen in
 * the wild: agent-handled methods, `type: "terminal"`, terminal login described in `_meta`
 * (`terminal-auth`), and `type: "env_var"` with the variables to set. Unreadable entries are skipped.
 */
export function signInMethodsOf(raw: readonly unknown[]): SignInMethod[] {
  return raw.flatMap((item): SignInMethod[] => {
    const parsed = RawMethod.safeParse(item);
    if (!parsed.success) {
      return [];
    }
    const method = parsed.data;
    const common = {
      id: method.id,
      name: method.name,
      ...(method.description ? { description: method.description } : {}),
    };
    const meta = TerminalMeta.safeParse(method._meta?.['terminal-auth']);
    if (method.type === 'terminal' || (meta.success && method._meta?.['terminal-auth'] !== undefined)) {
      const fromMeta = meta.success ? meta.data : {};
      return [
        {
          kind: 'terminal',
          ...common,
          ...(fromMeta.command ? { command: fromMeta.command } : {}),
          args: fromMeta.args ?? method.args ?? [],
          env: { ...method.env, ...fromMeta.env },
        },
      ];
    }
    if (method.type === 'env_var') {
      const variables = (method.vars ?? []).map((v) => ({
        name: v.name,
        ...(v.label ? { label: v.label } : {}),
      }));
      return variables.length > 0 ? [{ kind: 'env_var', ...common, variables }] : [];
    }
    return [{ kind: 'agent', ...common }];
  });
}
