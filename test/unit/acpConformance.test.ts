import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { methods } from '@agentclientprotocol/sdk';

const ROOT = path.resolve(__dirname, '../..');
const TABLE = readFileSync(path.join(ROOT, 'docs/acp-conformance.md'), 'utf8');

/** The installed SDK's stable v1 schema types (the file its method table and updates are generated from). */
function schemaTypes(): string {
  const entry = createRequire(__filename).resolve('@agentclientprotocol/sdk');
  return readFileSync(path.join(path.dirname(entry), '../schema/types.gen.d.ts'), 'utf8');
}

/** Every string leaf of the SDK's `methods` table: each ACP method and notification name. */
function methodNames(table: unknown): string[] {
  if (typeof table === 'string') {
    return [table];
  }
  return Object.values(table as Record<string, unknown>).flatMap(methodNames);
}

/** The top-level field names of `export type <name> = { … };` in the schema (without `_meta`). */
function fieldsOf(types: string, name: string): string[] {
  const start = types.indexOf(`export type ${name} = {\n`);
  assert.ok(start >= 0, `the SDK's schema has no ${name}`);
  const body = types.slice(start, types.indexOf('\n};', start));
  return [...body.matchAll(/^ {4}([A-Za-z]\w*)\??:/gm)].map((match) => match[1] as string);
}

/** The rows of the table: first cell (without backticks) → status cell. */
function rows(): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of TABLE.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length >= 4 && cells[1]?.startsWith('`')) {
      found.set(cells[1].replaceAll('`', ''), cells[2] ?? '');
    }
  }
  return found;
}

function assertRows(names: readonly string[], what: string): void {
  const table = rows();
  const missing = names.filter((name) => !table.has(name));
  assert.deepEqual(missing, [], `docs/acp-conformance.md has no row for these ${what}`);
  for (const name of names) {
    assert.match(
      table.get(name) ?? '',
      /^(supported|partial|not supported)$/,
      `the row for ${name} says supported, partial or not supported`,
    );
  }
}

describe('ACP conformance table (docs/acp-conformance.md)', () => {
  const types = schemaTypes();

  it('has a row for every method and notification in the installed SDK', () => {
    const names = methodNames(methods);
    assert.ok(names.includes('session/prompt') && names.length > 20, 'the SDK method table was read');
    assertRows(names, 'methods');
  });

  it('has a row for every session/update kind in the installed SDK', () => {
    const start = types.indexOf('export type SessionUpdate =');
    const end = types.indexOf('\n/**', start);
    const kinds = [
      ...new Set([...types.slice(start, end).matchAll(/sessionUpdate: "(\w+)"/g)].map((m) => m[1] as string)),
    ];
    assert.ok(kinds.includes('agent_message_chunk'), 'the SDK update kinds were read');
    assertRows(kinds, 'update kinds');
  });

  it('has a row for every client and agent capability in the installed SDK', () => {
    const nested: Record<string, string> = {
      'clientCapabilities.fs': 'FileSystemCapabilities',
      'clientCapabilities.session': 'ClientSessionCapabilities',
      'clientCapabilities.auth': 'AuthCapabilities',
      'clientCapabilities.elicitation': 'ElicitationCapabilities',
      'agentCapabilities.promptCapabilities': 'PromptCapabilities',
      'agentCapabilities.mcpCapabilities': 'McpCapabilities',
      'agentCapabilities.sessionCapabilities': 'SessionCapabilities',
      'agentCapabilities.auth': 'AgentAuthCapabilities',
    };
    const names = [
      ...fieldsOf(types, 'ClientCapabilities').map((field) => `clientCapabilities.${field}`),
      ...fieldsOf(types, 'AgentCapabilities').map((field) => `agentCapabilities.${field}`),
      ...Object.entries(nested).flatMap(([prefix, type]) =>
        fieldsOf(types, type).map((field) => `${prefix}.${field}`),
      ),
    ];
    assert.ok(names.includes('agentCapabilities.loadSession'), 'the SDK capabilities were read');
    assertRows(names, 'capabilities');
  });
});
