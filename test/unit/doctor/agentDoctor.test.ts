import { strict as assert } from 'node:assert';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { diagnoseAgent, diagnoseAgents } from '../../../src/features/doctor/chat/agentDoctor';
import type { AgentDiagnosis } from '../../../src/features/doctor/chat/diagnosis';
import type { AgentDefinition } from '../../../src/chat/agentSettings';
import { renderDoctorReport, verdictOf } from '../../../src/features/doctor/chat/doctorReport';
import { TEST_AGENT_JS } from '../support/testAgent';
import { AGENT_PRESETS } from '../../../src/chat/agentPresets';

/** The test agent (the shipped demo agent) started the way the extension starts it. */
function testAgent(id: string, env: Record<string, string> = {}, label = id): AgentDefinition {
  return { id, label, command: process.execPath, args: [TEST_AGENT_JS], env };
}

/** An agent that is the Node.js `script` given inline (`node -e`). */
function inlineAgent(id: string, label: string, script: string): AgentDefinition {
  return { id, label, command: process.execPath, args: ['-e', script], env: {} };
}

const REPORT_CONTEXT = {
  generatedAt: new Date('2026-11-26T07:00:00.000Z'),
  platform: 'linux-x64',
  hostNode: 'v20.0.0',
  trusted: true,
};

describe('agent doctor', () => {
  let scratch: string;
  const cwd = process.cwd();

  before(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'acp-doctor-'));
  });

  after(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  it('reports a working agent: where it is, initialize time, protocol version, capabilities, a session', async () => {
    const diagnosis = await diagnoseAgent(testAgent('demo'), 'built-in', { cwd });
    assert.equal(diagnosis.foundAt, process.execPath);
    assert.deepEqual(diagnosis.problems, []);
    assert.equal(diagnosis.nodeVersion, process.version);
    const init = diagnosis.initialize;
    assert.ok(init, 'initialize findings');
    assert.equal(init.protocolVersion, 1);
    assert.equal(init.agentName, 'Demo agent (offline)');
    assert.equal(init.agentVersion, '1.0.0');
    assert.ok(init.ms >= 0 && init.ms < 20_000, `initialize took ${init.ms} ms`);
    assert.equal(init.capabilities.loadSession, true);
    assert.deepEqual(init.signInMethods, []);
    assert.ok(diagnosis.session?.ok, `session: ${JSON.stringify(diagnosis.session)}`);
    assert.equal(verdictOf(diagnosis), 'ready');
  });

  it('explains a missing command and how to install a known agent', async () => {
    const emptyBin = mkdtempSync(path.join(scratch, 'bin-'));
    const copilot = AGENT_PRESETS.find((preset) => preset.id === 'copilot')!;
    const diagnosis = await diagnoseAgent(copilot, 'preset', {
      cwd,
      env: { PATH: emptyBin },
      knownAgents: [
        { registryId: 'github-copilot', name: 'GitHub Copilot', version: '1.425.0', distribution: 'npx' },
      ],
    });
    assert.equal(diagnosis.foundAt, undefined);
    assert.equal(diagnosis.initialize, undefined);
    assert.equal(verdictOf(diagnosis), 'not installed');
    assert.equal(diagnosis.problems.length, 1);
    assert.match(diagnosis.problems[0]!.problem, /`copilot` was not found on PATH/);
    assert.equal(
      diagnosis.problems[0]!.fix,
      'Run _ACP: Add Agent…_ and pick **GitHub Copilot** (1.425.0, npx): it is installed and added for you.',
    );

    const unknown = await diagnoseAgent(
      { id: 'x', label: 'X', command: 'acp-no-such-agent', args: [], env: {} },
      'configured',
      { cwd, env: { PATH: emptyBin } },
    );
    assert.match(
      unknown.problems[0]!.fix,
      /^Run _ACP: Add Agent…_ to install an agent from the ACP Registry, or set the full path of the program in `acpAgents\.agents`/,
    );
  });

  it('says an agent that needs a sign-in is not signed in, and how to sign in', async () => {
    const diagnosis = await diagnoseAgent(testAgent('auth', { TEST_AGENT_REQUIRE_AUTH: '1' }), 'configured', {
      cwd,
    });
    assert.ok(diagnosis.initialize);
    assert.deepEqual(
      diagnosis.initialize.signInMethods.map((m) => [m.kind, m.name]),
      [['agent', 'Test login']],
    );
    assert.ok(diagnosis.session && !diagnosis.session.ok && diagnosis.session.signedIn === false);
    assert.equal(verdictOf(diagnosis), 'not signed in');
    assert.equal(diagnosis.problems.length, 1);
    assert.match(
      diagnosis.problems[0]!.problem,
      /Not signed in: the agent answered "Authentication required/,
    );
    assert.match(diagnosis.problems[0]!.fix, /Sign in: \*\*Test login\*\* \(the chat’s _Sign in_ button\)/);
  });

  it('shows the output of an agent that exits before initialize', async () => {
    const crashing = inlineAgent(
      'crash',
      'Crashing agent',
      'process.stderr.write("fatal: no config file\\n"); process.exit(3)',
    );
    const diagnosis = await diagnoseAgent(crashing, 'configured', { cwd });
    assert.equal(verdictOf(diagnosis), 'problem');
    assert.equal(diagnosis.initialize, undefined);
    assert.match(diagnosis.problems[0]!.problem, /exited with code 3 before it answered `initialize`/);
    assert.ok(diagnosis.stderrTail?.includes('fatal: no config file'), JSON.stringify(diagnosis.stderrTail));
    // Its own reason, quoted in the fix rather than a pointer elsewhere.
    assert.match(
      diagnosis.problems[0]!.fix,
      /^The agent said: “fatal: no config file”\. Run the same command/,
    );
  });

  it('does not point at output an exiting agent never wrote', async () => {
    const silent = inlineAgent('quiet-crash', 'Quiet crash', 'process.exit(3)');
    const diagnosis = await diagnoseAgent(silent, 'configured', { cwd });
    assert.match(diagnosis.problems[0]!.problem, /exited with code 3 before it answered `initialize`/);
    assert.doesNotMatch(diagnosis.problems[0]!.fix, /output below/);
    assert.match(diagnosis.problems[0]!.fix, /^It wrote no output: run the same command in a terminal/);
  });

  it('quotes what the agent printed on stderr when it hangs on session/new (scrubbed, bounded, one line)', async () => {
    const fatal =
      'Error: --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons';
    const hanging = testAgent('hang', { TEST_AGENT_HANG_SESSION_NEW: fatal });
    const diagnosis = await diagnoseAgent(hanging, 'configured', { cwd, sessionTimeoutMs: 1500 });
    assert.equal(verdictOf(diagnosis), 'problem');
    assert.match(diagnosis.problems[0]!.problem, /could not create a session: .*session\/new/);
    assert.equal(
      diagnosis.problems[0]!.fix,
      `The agent said: “${fatal.replace(/_/g, '\\_')}”. Fix what it names (run \`${process.execPath} ${TEST_AGENT_JS}\` in a terminal to see it there too), then check again.`,
    );
    assert.ok(diagnosis.stderrTail?.includes(fatal), 'its output is in the report too');
    assert.doesNotMatch(diagnosis.problems[0]!.fix, /Show Agent Log/);
  });

  it('quotes only a line that gives a reason, bounded, never the agent’s chatter', async () => {
    const long = `Error: ${'x'.repeat(5_000)}`;
    const chatty = testAgent('chatty', { TEST_AGENT_HANG_SESSION_NEW: long });
    const diagnosis = await diagnoseAgent(chatty, 'configured', { cwd, sessionTimeoutMs: 1000 });
    const fix = diagnosis.problems[0]!.fix;
    assert.match(fix, /^The agent said: “Error: x+… \\\[cut: 4,707 more characters\\\]”/);
    assert.ok(fix.length < 600, `bounded: ${fix.length} characters`);
    const calm = testAgent('calm', { TEST_AGENT_HANG_SESSION_NEW: 'still warming up the model' });
    const quiet = await diagnoseAgent(calm, 'configured', { cwd, sessionTimeoutMs: 1000 });
    assert.doesNotMatch(quiet.problems[0]!.fix, /The agent said/);
    assert.match(quiet.problems[0]!.fix, /^Read its output below/);
  });

  it('gives up on an agent that never answers initialize, within the step timeout', async () => {
    const silent = inlineAgent('silent', 'Silent', 'setInterval(() => {}, 1000)');
    const diagnosis = await diagnoseAgent(silent, 'configured', { cwd, stepTimeoutMs: 500 });
    assert.equal(verdictOf(diagnosis), 'problem');
    assert.match(diagnosis.problems[0]!.problem, /did not answer `initialize`.*0\.5 s/);
    assert.match(diagnosis.problems[0]!.fix, /speak ACP on stdio/);
  });

  it('flags an agent that runs on a Node.js older than 20', async () => {
    // A `node` on PATH that reports v18 but runs the real Node, and an agent script started through it.
    const bin = mkdtempSync(path.join(scratch, 'oldnode-'));
    const fakeNode = path.join(bin, 'node');
    writeFileSync(
      fakeNode,
      `#!/bin/sh\nif [ "$1" = "--version" ]; then echo v18.19.0; exit 0; fi\nexec "${process.execPath}" "$@"\n`,
    );
    const agentScript = path.join(bin, 'old-node-agent');
    writeFileSync(agentScript, `#!/usr/bin/env node\nrequire(${JSON.stringify(TEST_AGENT_JS)});\n`);
    chmodSync(fakeNode, 0o755);
    chmodSync(agentScript, 0o755);
    // The agent's own `env` (as in acpAgents.agents) puts the old Node first, for the lookup and the start.
    const agent: AgentDefinition = {
      id: 'old',
      label: 'Old',
      command: 'old-node-agent',
      args: [],
      env: { PATH: `${bin}:${process.env.PATH ?? ''}` },
    };
    const diagnosis = await diagnoseAgent(agent, 'configured', { cwd });
    assert.equal(diagnosis.foundAt, agentScript);
    assert.equal(diagnosis.nodeVersion, 'v18.19.0');
    assert.ok(diagnosis.session?.ok, `the agent itself still starts: ${JSON.stringify(diagnosis)}`);
    assert.equal(verdictOf(diagnosis), 'problem');
    assert.match(diagnosis.problems[0]!.fix, /needs Node ≥ 20/);
  });

  it('checks several agents in one call and keeps their order', async () => {
    const results = await diagnoseAgents(
      [
        { agent: testAgent('a', { TEST_AGENT_INIT_DELAY_MS: '300' }), origin: 'configured' },
        {
          agent: { id: 'b', label: 'B', command: 'acp-no-such-agent', args: [], env: {} },
          origin: 'configured',
        },
        { agent: testAgent('c'), origin: 'built-in' },
      ],
      { cwd },
    );
    assert.deepEqual(
      results.map((r) => [r.agent.id, verdictOf(r)]),
      [
        ['a', 'ready'],
        ['b', 'not installed'],
        ['c', 'ready'],
      ],
    );
  });

  describe('report', () => {
    let diagnoses: AgentDiagnosis[];

    before(async () => {
      diagnoses = await diagnoseAgents(
        [
          { agent: testAgent('demo', {}, 'Demo | *agent*'), origin: 'built-in' },
          { agent: testAgent('auth', { TEST_AGENT_REQUIRE_AUTH: '1' }, 'Needs login'), origin: 'configured' },
          {
            agent: { id: 'gemini', label: 'Gemini CLI', command: 'gemini', args: ['--acp'], env: {} },
            origin: 'preset',
          },
        ],
        {
          cwd,
          env: { ...process.env, PATH: mkdtempSync(path.join(scratch, 'none-')) },
          knownAgents: [{ registryId: 'gemini', name: 'Gemini CLI', version: '0.27.3', distribution: 'npx' }],
        },
      );
    });

    it('starts with one summary row per agent', () => {
      const report = renderDoctorReport(diagnoses, REPORT_CONTEXT);
      const rows = report
        .split('\n')
        .filter((line) => line.startsWith('| ') && !line.startsWith('| Agent') && !line.startsWith('| ---'));
      assert.equal(rows.length, 3, rows.join('\n'));
      assert.match(
        report,
        /^# ACP agents check\n\n2026-11-26 07:00:00 UTC · linux-x64 · extension host Node v20\.0\.0/,
      );
      assert.match(report, /\| Demo \\\| \\\*agent\\\* \| ✓ ready \| yes \| \d+ ms \| yes \|/);
      assert.match(report, /\| Needs login \| ! not signed in \| yes \| \d+ ms \| no \|/);
      assert.match(report, /\| Gemini CLI \| – not installed \| no \| — \| — \|/);
    });

    it("shows the agent's error data as sent, fenced so the data cannot end the block", () => {
      const failed: AgentDiagnosis = {
        ...(diagnoses[1] as AgentDiagnosis),
        session: {
          ok: false,
          signedIn: undefined,
          message: 'Internal error: quota',
          details: {
            kind: 'internal',
            message: 'Internal error: quota',
            code: -32603,
            data: '{\n  "status": 429,\n  "hint": "```<b>not html</b>"\n}',
          },
        },
      };
      const report = section(renderDoctorReport([failed], REPORT_CONTEXT), 'Needs login');
      assert.match(report, /- \*\*The agent's error:\*\* code -32603\n/);
      assert.ok(
        report.includes('\n  ````\n  {\n    "status": 429,\n    "hint": "```<b>not html</b>"\n  }\n  ````\n'),
        report,
      );
    });

    it('gives each agent its findings and each problem its fix', () => {
      const report = renderDoctorReport(diagnoses, REPORT_CONTEXT);
      const demo = section(report, 'Demo');
      assert.match(
        demo,
        /- \*\*initialize:\*\* answered in \d+ ms by Demo agent \(offline\) 1\.0\.0, ACP protocol version 1/,
      );
      assert.match(
        demo,
        /- \*\*Capabilities:\*\* images, embedded context, load session, resume session, list sessions, MCP over HTTP; not: audio, MCP over SSE/,
      );
      assert.match(demo, /- \*\*Session:\*\* created in \d+ ms — signed in and ready/);
      assert.doesNotMatch(demo, /Problems/);

      const login = section(report, 'Needs login');
      assert.match(login, /^\n## Needs login — not signed in\n/);
      // What the agent sent with its refusal: ACP's "auth required" code.
      assert.match(
        login,
        /- \*\*Session:\*\* could not be created — .*\n- \*\*The agent's error:\*\* code -32000\n/,
      );
      assert.match(login, /- \*\*Sign-in methods:\*\* Test login \(agent\)/);
      assert.match(
        login,
        /\*\*Problems\*\*\n\n- Not signed in: .*\n {2}- \*\*Fix:\*\* Sign in: \*\*Test login\*\*/,
      );

      const gemini = section(report, 'Gemini CLI');
      assert.match(gemini, /- \*\*Found:\*\* no/);
      assert.match(
        gemini,
        /- \*\*Fix:\*\* Run _ACP: Add Agent…_ and pick \*\*Gemini CLI\*\* \(0\.27\.3, npx\)/,
      );
    });
  });
});

/** The report's section of the agent whose heading starts with `label`. */
function section(report: string, label: string): string {
  const start = report.indexOf(`\n## ${label}`);
  assert.ok(start >= 0, `no section for ${label}`);
  const end = report.indexOf('\n## ', start + 1);
  return report.slice(start, end < 0 ? undefined : end);
}
