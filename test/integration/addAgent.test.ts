/**
 * ACP: Add Agent in the real extension host: the registry is served from 127.0.0.1 (a fixture index and a
 * tar.gz built here holding a tiny node-script agent), the agent is picked, downloaded, hash-checked,
 * unpacked, added to the **user** settings, selected and started, and it answers. Offline, the cached list.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentChoice } from '../../src/features/registry/chat/agentChoices';
import type { AddAgentPrompts } from '../../src/features/registry/vscode/addAgentPicker';
import type { LoadedRegistry } from '../../src/features/registry/core/registryStore';
import { ask, eventually, EXTENSION_ID, getApi, Settings } from './support/harness';
import { packDemoAgent } from '../support/demoAgentArchive';

describe('ACP: Add Agent from the ACP Registry', () => {
  const settings = new Settings();
  let dir: string;
  let server: Server;
  let origin: string;
  let failing = false;
  const files = new Map<string, Buffer | string>();

  before(async () => {
    await getApi();
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-it-registry-'));
    // The tiny agent: the bundled demo agent behind a node shebang, not executable until installed.
    const extensionPath = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    const archive = packDemoAgent(dir, path.join(extensionPath, 'dist', 'demo-agent.js'));
    server = createServer((request, response) => {
      const body = files.get(request.url ?? '');
      if (failing || body === undefined) {
        response.writeHead(failing ? 503 : 404).end();
        return;
      }
      response.writeHead(200).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    files.set('/tiny.tar.gz', archive);
    const target = (sha256: string) => ({ archive: `${origin}/tiny.tar.gz`, cmd: './bin/agent', sha256 });
    const platform = `${process.platform === 'darwin' ? 'darwin' : 'linux'}-${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}`;
    files.set(
      '/registry.json',
      JSON.stringify({
        version: '1.0.0',
        agents: [
          {
            id: 'tiny-it',
            name: 'Tiny IT agent',
            version: '1.0.0',
            description: 'A node script that answers',
            distribution: {
              binary: { [platform]: target(createHash('sha256').update(archive).digest('hex')) },
            },
          },
        ],
      }),
    );
    await settings.set('registry.url', `${origin}/registry.json`);
    // The test server speaks plain http: named as the user would name a mirror on their network.
    await settings.set('registry.allowHttpFrom', [new URL(origin).host]);
  });

  after(async () => {
    await settings.restore();
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('picks, installs and starts an agent, which answers — written to the user settings', async () => {
    const api = await getApi();
    await settings.set('agents', []);
    const seen: LoadedRegistry[] = [];
    const scripted: AddAgentPrompts = {
      async pickAgent(loading): Promise<AgentChoice | undefined> {
        const { registry, choices } = await loading;
        seen.push(registry);
        // The second time (offline) only looks at the list.
        return seen.length === 1 ? choices.find((choice) => choice.agent.id === 'tiny-it') : undefined;
      },
      commandLine: async () => undefined,
      agentName: async () => undefined,
      agentToRemove: async () => undefined,
    };
    const original = api.registry.prompts.current;
    api.registry.prompts.current = scripted;
    try {
      const added = await vscode.commands.executeCommand<unknown>('acpAgents.addAgent');
      assert.equal(added, 'Tiny IT agent');
      assert.equal(seen[0]?.source.kind, 'network');
      const inspected = vscode.workspace.getConfiguration('acpAgents').inspect<unknown[]>('agents');
      assert.equal(inspected?.workspaceValue, undefined, 'nothing written to the workspace settings');
      const entry = inspected?.globalValue?.[0] as { name: string; command: string; registry: unknown };
      assert.equal(entry.name, 'Tiny IT agent');
      assert.deepEqual(entry.registry, { id: 'tiny-it', version: '1.0.0' });
      assert.match(entry.command, /agents[\\/]tiny-it[\\/]1\.0\.0[\\/]bin[\\/]agent$/);
      await eventually('the added agent selected', () => api.chat.agent.label === 'Tiny IT agent');
      assert.equal((await ask(api, 'stream 2')).reply, 'chunk 1 chunk 2 ');
      // The demo agent is still offered beside it.
      assert.ok(api.chat.agentsOffered.some((agent) => agent.id === 'demo'));

      // Offline: the list read a moment ago, from the cache.
      failing = true;
      await vscode.commands.executeCommand('acpAgents.addAgent');
      assert.equal(seen[1]?.source.kind, 'cache');
      assert.deepEqual(
        seen[1]?.agents.map((agent) => agent.id),
        ['tiny-it'],
      );
    } finally {
      failing = false;
      api.registry.prompts.current = original;
    }
  });

  it('refuses the list and downloads over plain http from a host the user did not name', async () => {
    const api = await getApi();
    await settings.set('registry.allowHttpFrom', []);
    const seen: LoadedRegistry[] = [];
    const original = api.registry.prompts.current;
    api.registry.prompts.current = {
      async pickAgent(loading): Promise<AgentChoice | undefined> {
        seen.push((await loading).registry);
        return undefined;
      },
      commandLine: async () => undefined,
      agentName: async () => undefined,
      agentToRemove: async () => undefined,
    };
    try {
      await vscode.commands.executeCommand('acpAgents.addAgent');
      assert.notEqual(seen[0]?.source.kind, 'network');
      const source = seen[0]?.source;
      assert.match(source && 'error' in source ? source.error : '', /is not https/);
    } finally {
      api.registry.prompts.current = original;
      await settings.set('registry.allowHttpFrom', [new URL(origin).host]);
    }
  });
});
