/**
 * An ACP Registry served on 127.0.0.1 for the real VS Code: a fixture index whose agents are the demo agent
 * packed in a tar.gz (a node script, built here), each with its own environment, and the picking of one
 * from the empty chat's **Add Agent…**.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { repoRoot } from '../../../scripts/tools.mjs';
import { packDemoAgent } from '../../support/demoAgentArchive';
import { UI_TIMEOUT } from './chat';
import { screenshot } from './workbench';

/** One agent of the fixture index: the demo agent run with `env`. */
export interface FixtureAgent {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly env?: Record<string, string>;
}

export interface FixtureRegistry {
  /** The VS Code settings that make Add Agent… read this registry. */
  readonly settings: Record<string, unknown>;
  close(): void;
}

/** Serves the index of `agents` and their archive on 127.0.0.1 until `close`. */
export async function serveFixtureRegistry(agents: readonly FixtureAgent[]): Promise<FixtureRegistry> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-e2e-registry-'));
  const archive = packDemoAgent(dir, path.join(repoRoot, 'dist', 'demo-agent.js'));
  const files = new Map<string, Buffer | string>([['/tiny.tar.gz', archive]]);
  const server: Server = createServer((request, response) => {
    const body = files.get(request.url ?? '');
    response.writeHead(body === undefined ? 404 : 200).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const platform = `${process.platform === 'darwin' ? 'darwin' : 'linux'}-${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}`;
  const sha256 = createHash('sha256').update(archive).digest('hex');
  const entry = ({ id, name, description, env = {} }: FixtureAgent): unknown => ({
    id,
    name,
    version: '1.0.0',
    description,
    distribution: {
      binary: { [platform]: { archive: `${origin}/tiny.tar.gz`, cmd: './bin/agent', env, sha256 } },
    },
  });
  files.set('/registry.json', JSON.stringify({ version: '1.0.0', agents: agents.map(entry) }));
  return {
    settings: {
      'acpAgents.registry.url': `${origin}/registry.json`,
      // The test server speaks plain http: named as a mirror on the user's network would be.
      'acpAgents.registry.allowHttpFrom': [new URL(origin).host],
    },
    close: () => {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Clicks the empty chat's Add Agent…, picks `name` in the QuickPick (typed, as a user searches). */
export async function addFromEmptyState(
  page: Page,
  frame: Frame,
  name: string,
  shot?: string,
): Promise<void> {
  const button = frame.locator('.empty-state .empty-add-agent');
  await button.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  if (shot) {
    await screenshot(page, `${shot}-empty-state`);
  }
  await button.click();
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  // Loaded (its title names where the list came from): the items no longer change under the typing.
  await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Add Agent —' }).waitFor({
    timeout: UI_TIMEOUT,
  });
  await page
    .locator('.quick-input-widget .monaco-list-row', { hasText: name })
    .first()
    .waitFor({ timeout: UI_TIMEOUT });
  await input.fill(name);
  if (shot) {
    await screenshot(page, `${shot}-picker`);
  }
  const row = page.locator('.quick-input-widget .monaco-list-row.focused');
  assert.match(await row.innerText(), new RegExp(name));
  await input.press('Enter');
}

/** Waits until the empty chat names `label`: added, selected and started. */
export async function waitForEmptyChatWith(frame: Frame, label: string): Promise<void> {
  await frame.waitForFunction(
    (title) => document.querySelector('.empty-state .empty-title')?.textContent === title,
    `Chat with ${label}`,
    { timeout: 60_000 },
  );
}
