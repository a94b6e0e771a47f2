/**
 * Driving the real claude-code-acp adapter from the extension host (test/integration/realAdapter.test.ts):
 * where its script is, which model requests its agent loop made, and which processes run it.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AnthropicStub, MessagesRequest } from '../../fixtures/llm/anthropicStub';
import { childPids } from './agentProcesses';
import { EXTENSION_ID } from './extensionApi';

/** The adapter's entry point inside the extension's own node_modules. */
export function adapterScript(): string {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed`);
  const script = path.join(
    extension.extensionPath,
    'node_modules',
    '@zed-industries',
    'claude-code-acp',
    'dist',
    'index.js',
  );
  assert.ok(existsSync(script), `the claude-code-acp devDependency is not installed (${script})`);
  return script;
}

/**
 * What the stub answered to the model requests of the agent loop since request number `from`: the tool it
 * called, or 'text'. Claude Code's helper requests (streamed too, but without tools: in a git checkout it
 * summarizes the recently modified files at the first prompt) are left out.
 */
export function modelTurns(stub: AnthropicStub, from: number): string[] {
  return stub.requests
    .slice(from)
    .filter(
      (request) =>
        request.path === '/v1/messages' && request.body?.stream && (request.body.tools?.length ?? 0) > 0,
    )
    .map((request) => request.answer);
}

/** The text blocks of the request's last user message (the prompt as the model reads it), joined. */
export function lastUserText(request: MessagesRequest): string {
  const last = request.messages?.filter((message) => message.role === 'user').at(-1);
  if (last === undefined) {
    return '';
  }
  return typeof last.content === 'string'
    ? last.content
    : last.content.map((block) => block.text ?? '').join('');
}

/** Pids of the adapter processes this extension host started (its direct children running `script`). */
export function adapterPids(script: string): number[] {
  return childPids((args) => args.includes(script));
}
