import { strict as assert } from 'node:assert';
import { AGENT_PRESETS, installAdvice } from '../../../src/chat/agentPresets';
import { DEMO_AGENT_ID, parseAgentSettings, type AgentDefinition } from '../../../src/chat/agentSettings';
import { agentsToCheck } from '../../../src/features/doctor/chat/agentsToCheck';

const demo: AgentDefinition = {
  id: DEMO_AGENT_ID,
  label: 'Demo',
  command: 'node',
  args: ['demo.js'],
  env: {},
};
const KNOWN = [
  { registryId: 'claude-code-acp', name: 'Claude Code', version: '0.16.0', distribution: 'npx' },
  { registryId: 'gemini', name: 'Gemini CLI', version: '0.27.3', distribution: 'npx' },
];

/** The agents the chat offers after Add Agent… put Claude Code in the user's settings (npx, the registry's). */
function offeredAfterAddingClaude(): readonly AgentDefinition[] {
  const claudePreset = AGENT_PRESETS.find((preset) => preset.id === 'claude')!;
  return parseAgentSettings(
    [
      {
        name: 'Claude Code',
        command: 'npx',
        args: ['-y', '@zed-industries/claude-code-acp@0.16.0'],
        registry: { id: 'claude-code-acp', version: '0.16.0' },
      },
    ],
    demo,
    [claudePreset],
  ).agents;
}

describe('the agent check’s rows: one agent is one agent', () => {
  it('lists an agent added from the registry once, as added, and no "not installed" row for its preset', () => {
    const rows = agentsToCheck(offeredAfterAddingClaude());
    const claudeRows = rows.filter(({ agent }) => /claude/i.test(`${agent.label} ${agent.registryId ?? ''}`));
    assert.deepEqual(
      claudeRows.map(({ agent, origin }) => [agent.label, origin]),
      [['Claude Code', 'registry']],
    );
    assert.deepEqual(
      rows.filter(({ origin }) => origin === 'preset').map(({ agent }) => agent.id),
      ['copilot', 'gemini', 'codex', 'opencode'],
    );
    assert.equal(rows.find(({ agent }) => agent.id === DEMO_AGENT_ID)?.origin, 'built-in');
  });

  it('a preset configured by hand through npx (no registry entry) is one row too', () => {
    const offered = parseAgentSettings(
      [{ name: 'My Gemini', command: 'npx', args: ['@google/gemini-cli@0.27.3', '--experimental-acp'] }],
      demo,
    ).agents;
    assert.ok(
      !agentsToCheck(offered).some(({ agent, origin }) => origin === 'preset' && agent.id === 'gemini'),
      'no second Gemini row',
    );
  });

  it('never advises adding an agent that is added: its runtime or its download is what is missing', () => {
    const [claude] = offeredAfterAddingClaude();
    const advice = installAdvice(claude!, KNOWN);
    assert.doesNotMatch(advice, /it is installed and added for you/);
    assert.match(
      advice,
      /^Claude Code was added from the ACP Registry and runs through `npx`: install Node\.js/,
    );
    const downloaded = installAdvice(
      { label: 'Codex CLI', command: '/home/me/.acp/agents/codex-acp/codex-acp', registryId: 'codex-acp' },
      KNOWN,
    );
    assert.match(downloaded, /its downloaded program is gone: pick it again in _ACP: Add Agent…_/);
    // Not added: the registry's entry is offered.
    const preset = AGENT_PRESETS.find((p) => p.id === 'claude')!;
    assert.match(
      installAdvice(preset, KNOWN),
      /pick \*\*Claude Code\*\* \(0\.16\.0, npx\): it is installed and added/,
    );
  });
});
