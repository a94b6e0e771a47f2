import { strict as assert } from 'node:assert';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { agentChoices, programOf } from '../../../src/features/registry/chat/agentChoices';
import { pinVersion } from '../../../src/features/registry/chat/installAgent';
import { splitCommandLine, withAgent, withoutAgent } from '../../../src/features/registry/chat/userAgents';
import {
  distributionFor,
  isNewerVersion,
  parseRegistry,
  platformKey,
} from '../../../src/features/registry/core/registryFormat';

const registry = parseRegistry({
  agents: [
    {
      id: 'gemini',
      name: 'Gemini CLI',
      version: '0.27.3',
      description: "Google's CLI",
      distribution: { npx: { package: '@google/gemini-cli@0.27.3', args: ['--experimental-acp'] } },
    },
    {
      id: 'codex-acp',
      name: 'Codex CLI',
      version: '0.9.2',
      distribution: {
        binary: { 'linux-x86_64': { archive: 'https://example.com/codex.tar.gz', cmd: './codex-acp' } },
      },
    },
    {
      id: 'vibe',
      name: 'Vibe',
      version: '1.0.0',
      distribution: {
        uvx: { package: 'mistral-vibe', cmd: 'vibe-acp' },
        binary: { 'darwin-aarch64': { archive: 'https://example.com/vibe.zip', cmd: './vibe-acp' } },
      },
    },
  ],
});

describe('registry: the Add Agent list', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-choices-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lists name, version, how it installs, and whether it is on PATH or already added (with an update)', () => {
    const program = path.join(dir, 'codex-acp');
    writeFileSync(program, '#!/bin/sh\n');
    chmodSync(program, 0o755);
    const choices = agentChoices(
      registry.agents,
      [{ registry: { id: 'gemini', version: '0.20.0' } }],
      'linux-x86_64',
      { PATH: dir },
    );
    assert.deepEqual(
      choices.map((choice) => [choice.label, choice.description]),
      [
        ['Gemini CLI', '0.27.3 · npx · added (0.20.0, update available)'],
        ['Codex CLI', '0.9.2 · download, no checksum · codex-acp on PATH'],
        ['Vibe', '1.0.0 · uvx (needs uv)'],
      ],
    );
    assert.equal(choices[1]?.onPath, program);
  });

  it('prefers npx, then this platform’s download, then uvx; says when there is none', () => {
    const [gemini, codex, vibe] = registry.agents;
    assert.ok(gemini && codex && vibe);
    assert.equal(distributionFor(gemini, 'linux-x86_64')?.kind, 'npx');
    assert.equal(distributionFor(codex, 'linux-x86_64')?.kind, 'binary');
    assert.equal(distributionFor(codex, 'windows-x86_64'), undefined);
    assert.equal(distributionFor(vibe, 'darwin-aarch64')?.kind, 'binary');
    assert.equal(distributionFor(vibe, 'linux-x86_64')?.kind, 'uvx');
    assert.equal(programOf(gemini, 'linux-x86_64'), 'gemini-cli');
    assert.equal(programOf(vibe, 'linux-x86_64'), 'vibe-acp');
  });

  it('names platforms as the registry does', () => {
    assert.equal(platformKey('darwin', 'arm64'), 'darwin-aarch64');
    assert.equal(platformKey('win32', 'x64'), 'windows-x86_64');
    assert.equal(platformKey('linux', 'arm64'), 'linux-aarch64');
    assert.equal(platformKey('freebsd', 'x64'), undefined);
    assert.equal(platformKey('linux', 'ia32'), undefined);
  });

  it('compares versions by number', () => {
    assert.equal(isNewerVersion('1.10.0', '1.9.3'), true);
    assert.equal(isNewerVersion('1.9.3', '1.10.0'), false);
    assert.equal(isNewerVersion('1.2.0', '1.2'), false);
    assert.equal(isNewerVersion('0.27.3', '0.27.3'), false);
  });

  it('pins a package to the registry version unless it is pinned or local', () => {
    for (const [spec, pinned] of [
      ['@scope/tool', '@scope/tool@1.2.3'],
      ['@scope/tool@1.0.0', '@scope/tool@1.0.0'],
      ['tool', 'tool@1.2.3'],
      ['/tmp/tool-1.0.0.tgz', '/tmp/tool-1.0.0.tgz'],
      ['tool==1.0', 'tool==1.0'],
    ] as const) {
      assert.equal(pinVersion(spec, '1.2.3'), pinned, spec);
    }
  });
});

describe('registry: the user’s agent list', () => {
  it('adds an agent, replaces the one from the same registry entry, and keeps entries it cannot read', () => {
    const odd = { name: 42 };
    const first = withAgent([odd], {
      name: 'Gemini CLI',
      command: 'npx',
      args: ['-y', '@google/gemini-cli@0.20.0'],
      env: {},
      registry: { id: 'gemini', version: '0.20.0' },
    });
    const second = withAgent(first, {
      name: 'Gemini',
      command: 'npx',
      args: ['-y', '@google/gemini-cli@0.27.3'],
      env: {},
      registry: { id: 'gemini', version: '0.27.3' },
    });
    assert.deepEqual(second, [
      odd,
      {
        name: 'Gemini',
        command: 'npx',
        args: ['-y', '@google/gemini-cli@0.27.3'],
        env: {},
        registry: { id: 'gemini', version: '0.27.3' },
      },
    ]);
    assert.deepEqual(withoutAgent(second, 'Gemini'), [odd]);
    assert.deepEqual(withAgent(undefined, { name: 'A', command: 'a', args: [], env: {} }), [
      { name: 'A', command: 'a', args: [], env: {} },
    ]);
  });

  it('splits a typed command line without a shell: quotes, escapes, Windows paths', () => {
    assert.deepEqual(splitCommandLine('  npx -y @zed-industries/claude-code-acp  '), [
      'npx',
      '-y',
      '@zed-industries/claude-code-acp',
    ]);
    assert.deepEqual(splitCommandLine(`"C:\\Program Files\\agent.exe" --acp 'two words' a\\ b ""`), [
      'C:\\Program Files\\agent.exe',
      '--acp',
      'two words',
      'a b',
      '',
    ]);
    assert.deepEqual(splitCommandLine('agent $HOME *.ts'), ['agent', '$HOME', '*.ts']);
    assert.throws(() => splitCommandLine('agent "open'), /unclosed " quote/);
  });
});
