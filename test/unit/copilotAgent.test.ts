import { strict as assert } from 'node:assert';
import type { AgentDefinition } from '../../src/chat/agentSettings';
import { findCopilotAgent, isCopilotAgent, programsOf } from '../../src/chat/copilotAgent';

function agent(id: string, command: string, args: string[] = [], label = id): AgentDefinition {
  return { id, label, command, args, env: {} };
}

describe('recognising a Copilot agent', () => {
  it('recognises copilot by its program, on PATH, by path, or as a Windows shim', () => {
    for (const command of [
      'copilot',
      '/home/me/.local/bin/copilot',
      'C:\\tools\\COPILOT.CMD',
      'copilot.exe',
    ]) {
      assert.equal(isCopilotAgent(agent('x', command, ['--acp'])), true, command);
    }
  });

  it('recognises @github/copilot run through a package runner', () => {
    assert.equal(isCopilotAgent(agent('x', 'npx', ['-y', '@github/copilot', '--acp'])), true);
    assert.equal(isCopilotAgent(agent('x', 'npx.cmd', ['@github/copilot@1.2.3', '--acp'])), true);
  });

  it('does not take other agents for Copilot', () => {
    for (const candidate of [
      agent('x', 'copilot-helper'),
      agent('x', 'npx', ['@zed-industries/claude-agent-acp']),
      agent('x', 'npx', ['@github/copilot-language-server']),
      agent('x', 'node', ['@github/copilot']),
      agent('x', '/opt/copilot/gemini', ['--acp']),
    ]) {
      assert.equal(isCopilotAgent(candidate), false, `${candidate.command} ${candidate.args.join(' ')}`);
    }
  });

  it('names the programs a package runner starts', () => {
    assert.deepEqual(programsOf(agent('x', 'npx', ['-y', '@zed-industries/claude-agent-acp@0.23.1'])), [
      'npx',
      'claude-agent-acp',
    ]);
    assert.deepEqual(programsOf(agent('x', '/usr/bin/gemini', ['--acp'])), ['gemini']);
  });
});

describe('the agent "Send to Copilot" goes to', () => {
  const demo = agent('demo', 'node', ['demo-agent.js'], 'Demo agent (offline)');
  const configured = agent('agent:work-copilot', '/opt/bin/copilot', ['--acp', '--stdio'], 'Work Copilot');
  const preset = agent('copilot', 'copilot', ['--acp', '--stdio'], 'GitHub Copilot CLI');
  const other = agent('agent:gemini', 'gemini', ['--acp'], 'Gemini');

  it('is the first agent that runs Copilot CLI: a configured one before the preset', () => {
    assert.deepEqual(findCopilotAgent([other, configured, preset], undefined), {
      kind: 'found',
      agent: configured,
    });
    assert.deepEqual(findCopilotAgent([other, preset], ''), { kind: 'found', agent: preset });
  });

  it('is the agent named in acpAgents.copilotAgent, by name or id, even when it is not recognised', () => {
    assert.deepEqual(findCopilotAgent([other, preset], 'Gemini'), { kind: 'found', agent: other });
    assert.deepEqual(findCopilotAgent([other, preset], 'agent:gemini'), { kind: 'found', agent: other });
  });

  it('is none when no agent runs Copilot: never the current agent in its place', () => {
    assert.deepEqual(findCopilotAgent([demo, other], undefined), { kind: 'none' });
  });

  it('reports a setting that names no offered agent instead of picking another', () => {
    assert.deepEqual(findCopilotAgent([other, preset], 'Old Copilot'), {
      kind: 'unknown_setting',
      name: 'Old Copilot',
    });
  });
});
