import { strict as assert } from 'node:assert';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { AGENT_PRESETS, detectPresets } from '../../src/chat/agentPresets';
import { parseAgentSettings, type AgentDefinition } from '../../src/chat/agentSettings';

const demo: AgentDefinition = {
  id: 'demo',
  label: 'Demo agent (offline)',
  command: 'node',
  args: ['demo.js'],
  env: {},
};

describe('acpAgents.agents settings', () => {
  it('offers the demo agent when nothing is configured', () => {
    assert.deepEqual(parseAgentSettings(undefined, demo), { agents: [demo], errors: [] });
    assert.deepEqual(parseAgentSettings([], demo), { agents: [demo], errors: [] });
  });

  it('turns valid entries into agents with unique ids, and keeps the demo agent last', () => {
    const parsed = parseAgentSettings(
      [
        { name: 'Copilot', command: 'copilot', args: ['--acp', '--stdio'] },
        { name: 'Copilot', command: 'copilot', env: { GH_TOKEN: 'x' } },
      ],
      demo,
    );
    assert.deepEqual(parsed, {
      agents: [
        {
          id: 'agent:copilot',
          label: 'Copilot',
          description: 'copilot --acp --stdio',
          command: 'copilot',
          args: ['--acp', '--stdio'],
          env: {},
        },
        {
          id: 'agent:copilot-2',
          label: 'Copilot',
          description: 'copilot',
          command: 'copilot',
          args: [],
          env: { GH_TOKEN: 'x' },
        },
        demo,
      ],
      errors: [],
    });
  });

  it('reports each invalid entry and keeps the valid ones', () => {
    const parsed = parseAgentSettings(
      [
        { name: 'Gemini', command: 'gemini', args: ['--acp'] },
        { name: '', command: 'x' },
        { name: 'Bad', command: 'x', args: 'nope' },
        42,
      ],
      demo,
    );
    assert.deepEqual(
      parsed.agents.map((agent) => agent.id),
      ['agent:gemini', 'demo'],
    );
    assert.deepEqual(parsed.errors, [
      'acpAgents.agents[1]: name needs a name',
      'acpAgents.agents[2]: args Invalid input: expected array, received string',
      'acpAgents.agents[3]: entry Invalid input: expected object, received number',
    ]);
  });

  it("says what is wrong in zod's English words when bundled without full zod (as in dist/chat.js)", async () => {
    // Full zod sets English messages when it loads; zod/mini does not, and the chat's bundle has only zod/mini.
    const dir = mkdtempSync(path.join(tmpdir(), 'acp-settings-bundle-'));
    try {
      const outfile = path.join(dir, 'agentSettings.js');
      const build = await esbuild.build({
        entryPoints: ['src/chat/agentSettings.ts'],
        bundle: true,
        format: 'cjs',
        platform: 'node',
        outfile,
        metafile: true,
        logLevel: 'silent',
      });
      const inputs = Object.keys(build.metafile.inputs);
      assert.ok(!inputs.some((input) => /zod[\\/]v4[\\/]classic[\\/]/.test(input)), 'no full zod in it');
      const bundled = createRequire(__filename)(outfile) as { parseAgentSettings: typeof parseAgentSettings };
      assert.deepEqual(bundled.parseAgentSettings([{ name: 'Bad', args: 'nope' }], demo).errors, [
        'acpAgents.agents[0]: command Invalid input: expected string, received undefined; args Invalid input: expected array, received string',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects a setting that is not a list and falls back to the demo agent', () => {
    assert.deepEqual(parseAgentSettings({ name: 'x' }, demo), {
      agents: [demo],
      errors: ['acpAgents.agents must be a list of agents.'],
    });
  });
});

describe('agent presets', () => {
  const presetOf = (id: string): AgentDefinition => AGENT_PRESETS.find((preset) => preset.id === id)!;
  const copilot = presetOf('copilot');
  const gemini = presetOf('gemini');

  it('adds installed presets after the configured agents, unless configured with the same command', () => {
    const parsed = parseAgentSettings(
      [{ name: 'My Gemini', command: 'gemini', args: ['--acp', '--debug'] }],
      demo,
      [copilot, gemini],
    );
    assert.deepEqual(
      parsed.agents.map((agent) => agent.id),
      ['agent:my-gemini', 'copilot', 'demo'],
    );
  });

  it('does not offer a preset the user configured through a package runner or a path', () => {
    const claude: AgentDefinition = {
      id: 'claude',
      label: 'Claude Code',
      command: 'claude-agent-acp',
      args: [],
      env: {},
    };
    const parsed = parseAgentSettings(
      [
        { name: 'Claude', command: 'npx', args: ['-y', '@zed-industries/claude-agent-acp@0.23.1'] },
        { name: 'My Copilot', command: 'npx', args: ['@github/copilot', '--acp'] },
        { name: 'Local Gemini', command: '/opt/tools/gemini' },
      ],
      demo,
      [copilot, claude, gemini],
    );
    assert.deepEqual(
      parsed.agents.map((agent) => agent.id),
      ['agent:claude', 'agent:my-copilot', 'agent:local-gemini', 'demo'],
    );
  });

  it('is one agent when added from the registry: Add Agent’s entry stands for the preset on PATH', () => {
    // The registry's Claude Code runs another package than the preset's program (claude-code-acp vs
    // claude-agent-acp), and its GitHub Copilot the language server: the registry id says they are one agent.
    const claude = presetOf('claude');
    const parsed = parseAgentSettings(
      [
        {
          name: 'Claude Code',
          command: 'npx',
          args: ['-y', '@zed-industries/claude-code-acp@0.16.0'],
          registry: { id: 'claude-code-acp', version: '0.16.0' },
        },
        {
          name: 'GitHub Copilot',
          command: 'npx',
          args: ['-y', '@github/copilot-language-server@1.425.0', '--acp'],
          registry: { id: 'github-copilot', version: '1.425.0' },
        },
      ],
      demo,
      [copilot, claude, gemini],
    );
    assert.deepEqual(
      parsed.agents.map((agent) => [agent.id, agent.registryId]),
      [
        ['agent:claude-code', 'claude-code-acp'],
        ['agent:github-copilot', 'github-copilot'],
        ['gemini', 'gemini'],
        ['demo', undefined],
      ],
    );
  });

  it('keeps the demo agent, after an installed preset (which comes first, so it is the default)', () => {
    assert.deepEqual(parseAgentSettings([], demo, [copilot]).agents, [copilot, demo]);
  });

  it('detects presets on PATH', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'acp-presets-'));
    const install = (folder: string, name: string): void => {
      mkdirSync(path.join(root, folder), { recursive: true });
      writeFileSync(path.join(root, folder, name), '#!/bin/sh\n');
      chmodSync(path.join(root, folder, name), 0o755);
    };
    install('usr/local/bin', 'copilot');
    install('opt/bin', 'opencode');
    mkdirSync(path.join(root, 'usr/bin'), { recursive: true });
    let found;
    try {
      found = detectPresets({
        PATH: ['usr/bin', 'usr/local/bin', 'opt/bin'].map((d) => path.join(root, d)).join(':'),
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    assert.deepEqual(
      found.map((agent) => [agent.id, agent.description]),
      [
        ['copilot', 'copilot --acp --stdio'],
        ['opencode', 'opencode acp'],
      ],
    );
  });
});

describe('agent ids', () => {
  it('are slugs of the names without stray hyphens', () => {
    const parsed = parseAgentSettings(
      [
        { name: 'Claude Code (test)', command: 'x' },
        { name: '!!!', command: 'y' },
      ],
      demo,
    );
    assert.deepEqual(
      parsed.agents.map((agent) => agent.id),
      ['agent:claude-code-test', 'agent:agent', 'demo'],
    );
  });
});
