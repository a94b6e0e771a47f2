/** The extension under test: its id, the built-in demo agent's names, and its API once activated. */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { AcpAgentsApi } from '../../../src/extension';

export const EXTENSION_ID = 'acp-agents.acp-agents';
export const DEMO_AGENT_ID = 'demo';
/** What the demo agent calls itself (`agentInfo.title`). */
export const DEMO_AGENT_NAME = 'Demo agent (offline)';

/** The extension's API (activating it when needed). */
export async function getApi(): Promise<AcpAgentsApi> {
  const extension = vscode.extensions.getExtension<AcpAgentsApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed`);
  const api = await extension.activate();
  assert.ok(api?.chat, 'activate() returned no API');
  await api.chat.restored;
  return api;
}
