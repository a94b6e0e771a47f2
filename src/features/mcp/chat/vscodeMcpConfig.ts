// The ESM build: esbuild cannot follow the UMD build's runtime require('./impl/…') calls.
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import * as z from 'zod';
import type { McpServerSetting } from './mcpSettings';

/*
 * VS Code's own MCP configuration (`.vscode/mcp.json`, or `"mcp": { "servers": … }` in settings), turned
 * into our server settings. The VS Code 1.95 API has no way to list the MCP servers VS Code itself knows,
 * so we read the same files. Variables: `${workspaceFolder}` and `${env:NAME}` are filled in;
 * `${input:ID}` becomes `${secret:ID}` (set with "ACP: Set MCP Secret"); a server using any other
 * variable is skipped, with a reason, rather than started with a literal `${…}` in it.
 */

const RecordSchema = z.record(z.string(), z.string().nullable()).default({});

const VsCodeServerSchema = z.union([
  z.object({
    type: z.literal('stdio').optional(),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: RecordSchema,
  }),
  z.object({
    type: z.enum(['http', 'sse']),
    url: z.string().min(1),
    headers: RecordSchema,
  }),
]);

const VsCodeMcpConfigSchema = z.object({ servers: z.record(z.string(), z.unknown()).default({}) });

export interface VsCodeMcpServers {
  readonly servers: readonly McpServerSetting[];
  /** Servers left out, with why. */
  readonly skipped: readonly string[];
}

/** Reads the `servers` of a VS Code MCP configuration object (already parsed JSON). */
export function vscodeMcpServers(
  raw: unknown,
  source: string,
  variables: {
    readonly workspaceFolder?: string;
    readonly env: Readonly<Record<string, string | undefined>>;
  },
): VsCodeMcpServers {
  const config = VsCodeMcpConfigSchema.safeParse(raw ?? {});
  if (!config.success) {
    return { servers: [], skipped: [`${source}: not an MCP configuration (no "servers" object).`] };
  }
  const servers: McpServerSetting[] = [];
  const skipped: string[] = [];
  for (const [name, value] of Object.entries(config.data.servers)) {
    const parsed = VsCodeServerSchema.safeParse(value);
    if (!parsed.success) {
      skipped.push(
        `${source}: MCP server "${name}" skipped: ${parsed.error.issues[0]?.message ?? 'invalid'}.`,
      );
      continue;
    }
    const unknown = new Set<string>();
    const fill = (text: string): string =>
      text.replace(/\$\{([^}]+)\}/g, (whole, variable: string) => {
        const [kind, argument] = variable.includes(':')
          ? [variable.slice(0, variable.indexOf(':')), variable.slice(variable.indexOf(':') + 1)]
          : [variable, ''];
        if (kind === 'workspaceFolder' && variables.workspaceFolder !== undefined) {
          return variables.workspaceFolder;
        }
        if (kind === 'env' && variables.env[argument] !== undefined) {
          return variables.env[argument] as string;
        }
        if (kind === 'input' || kind === 'secret') {
          return `\${secret:${argument}}`;
        }
        unknown.add(whole);
        return whole;
      });
    const pairs = (record: Record<string, string | null>): { name: string; value: string }[] =>
      Object.entries(record)
        .filter((entry): entry is [string, string] => entry[1] !== null)
        .map(([key, text]) => ({ name: key, value: fill(text) }));
    const server = parsed.data;
    const setting: McpServerSetting =
      'url' in server
        ? { type: server.type, name, url: fill(server.url), headers: pairs(server.headers) }
        : { name, command: fill(server.command), args: server.args.map(fill), env: pairs(server.env) };
    if (unknown.size > 0) {
      skipped.push(
        `${source}: MCP server "${name}" skipped: it uses ${[...unknown].join(', ')}, which cannot be filled in here.`,
      );
      continue;
    }
    servers.push(setting);
  }
  return { servers, skipped };
}

/**
 * Parses JSON with comments and trailing commas (the format of VS Code's configuration files) with
 * VS Code's own parser, `jsonc-parser`. Throws on the first syntax error (with its offset): a broken
 * file is reported, never half-read.
 */
export function parseJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first !== undefined) {
    throw new SyntaxError(`${printParseErrorCode(first.error)} at offset ${first.offset}`);
  }
  return value;
}
