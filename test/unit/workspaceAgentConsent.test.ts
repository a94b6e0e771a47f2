import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentPool } from '../../src/chat/agentPool';
import { parseAgentSettings, type AgentDefinition } from '../../src/chat/agentSettings';
import {
  WorkspaceConsent,
  type ConsentAnswer,
  type WorkspaceDefinition,
} from '../../src/chat/workspaceConsent';
import { AgentClient, type AgentClientOptions } from '../../src/core/connection/agentClient';
import { NodeFileSystem } from '../../src/core/node/nodeFileSystem';
import { PolicyPermissions } from '../../src/features/permissions/core/policyPermissions';
import { NodeTerminals } from '../../src/features/terminals/core/nodeTerminals';
import { askAgentConsent } from '../../src/vscode/agentConsentPrompt';
import type { UserPrompts } from '../../src/vscode/userPrompts';
import { testAgent } from './support/chatHarness';
import { RecordingLogger, TEST_AGENT_JS } from './support/testAgent';
import { MemoryState } from './support/memoryState';

const SOURCE = 'the workspace settings ("acpAgents.agents")';

describe("an agent the workspace's own settings define runs only once the user allowed its command line", () => {
  let dir: string;
  let marker: string;
  let memory: MemoryState;
  let answer: ConsentAnswer;
  let asked: { agent: AgentDefinition; origin: WorkspaceDefinition }[];
  let starts: number;
  let pool: AgentPool | undefined;

  /** The workspace's `acpAgents.agents` as the catalog reads it: the test agent, writing `marker` as it starts. */
  function workspaceAgents(extraArgs: string[] = []): AgentDefinition[] {
    const script = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); require(${JSON.stringify(TEST_AGENT_JS)});`;
    const entry = { name: 'Repo agent', command: process.execPath, args: ['-e', script, ...extraArgs] };
    return parseAgentSettings([entry], testAgent('demo'), [], SOURCE).agents.filter((a) => a.origin);
  }

  function poolOf(agents: () => AgentDefinition[]): AgentPool {
    const consent = new WorkspaceConsent(memory);
    return (pool = new AgentPool({
      agents: () => ({ agents: agents(), errors: [] }),
      cwd: () => dir,
      startClient: (options: AgentClientOptions) => {
        starts++;
        return AgentClient.start(options);
      },
      ports: {
        fileSystem: new NodeFileSystem(),
        permissions: new PolicyPermissions(() => undefined),
        terminals: new NodeTerminals(dir),
        logger: new RecordingLogger(),
      },
      allowProgram: (agent, origin) =>
        consent.allowed(origin, async () => {
          asked.push({ agent, origin });
          assert.equal(existsSync(marker), false, 'asked before anything of it ran');
          return answer;
        }),
    }));
  }

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-workspace-agent-'));
    marker = path.join(dir, 'ran');
    memory = new MemoryState();
    answer = 'allow';
    asked = [];
    starts = 0;
  });
  afterEach(async () => {
    await pool?.stopAll();
    pool?.dispose();
    pool = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('marks the workspace’s agents with where they come from, and only those', () => {
    const [agent] = workspaceAgents();
    assert.deepEqual(agent?.origin, {
      name: 'Repo agent',
      source: SOURCE,
      definition: { name: 'Repo agent', command: process.execPath, args: agent?.args },
    });
    assert.equal(
      parseAgentSettings([{ name: 'Mine', command: 'x' }], testAgent('demo')).agents[0]?.origin,
      undefined,
    );
  });

  it('refused: nothing starts, the chat says why; the answer is kept', async () => {
    answer = 'deny';
    const agents = workspaceAgents();
    const refused = poolOf(() => agents);
    const id = agents[0]?.id ?? '';
    await assert.rejects(refused.client(id), { kind: 'not_allowed', message: /did not allow it to run/ });
    assert.equal(starts, 0);
    assert.equal(existsSync(marker), false);
    assert.equal(refused.status(id).state, 'error');
    assert.equal(refused.status(id).error?.kind, 'not_allowed');
    await assert.rejects(refused.client(id), { kind: 'not_allowed' });
    assert.equal(asked.length, 1, 'kept, not asked again');
    assert.equal(starts, 0);
  });

  it('allowed: asked once with the command line, then it runs; a changed definition asks again', async () => {
    let agents = workspaceAgents();
    const allowed = poolOf(() => agents);
    const id = agents[0]?.id ?? '';
    await allowed.client(id);
    assert.equal(starts, 1);
    assert.equal(existsSync(marker), true, 'it ran once allowed');
    await allowed.restart(id);
    assert.equal(asked.length, 1, 'the answer is kept');
    agents = workspaceAgents(['--changed']);
    answer = 'deny';
    await allowed.stop(id);
    rmSync(marker);
    await assert.rejects(allowed.client(id), { kind: 'not_allowed' });
    assert.equal(asked.length, 2, 'a changed definition asks again');
    assert.equal(existsSync(marker), false);
  });

  it("never asks about the user's own agents", async () => {
    const mine = testAgent('mine');
    const own = poolOf(() => [mine]);
    await own.client(mine.id);
    assert.equal(asked.length, 0);
  });

  it('names the command line and the environment it sets in the question', async () => {
    const shown: string[] = [];
    const prompts = {
      modal: async (message: string, detail: string) => {
        shown.push(message, detail);
        return 'Don’t Allow';
      },
    } as unknown as UserPrompts;
    const agent: AgentDefinition = {
      id: 'agent:repo',
      label: 'Repo agent',
      command: '/usr/bin/node',
      args: ['-e', "require('fs').writeFileSync('x', 'ran')"],
      env: { NODE_OPTIONS: '--require ./evil.js' },
    };
    const origin = { name: 'Repo agent', source: SOURCE, definition: {} };
    assert.equal(await askAgentConsent(prompts, agent, origin), 'deny');
    assert.equal(shown[0], 'Run the agent "Repo agent" that this workspace\'s settings define?');
    assert.match(shown[1] ?? '', /^The workspace settings \("acpAgents\.agents"\) define it\. It runs:/);
    assert.match(
      shown[1] ?? '',
      /\/usr\/bin\/node -e 'require\('\\''fs'\\''\)\.writeFileSync\('\\''x'\\'', '\\''ran'\\''\)'/,
    );
    assert.match(shown[1] ?? '', /with the environment NODE_OPTIONS='--require \.\/evil\.js'/);
  });
});
