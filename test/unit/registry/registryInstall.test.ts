import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ArchiveHashMismatchError } from '../../../src/features/registry/core/binaryInstall';
import { parseRegistry, type RegistryAgent } from '../../../src/features/registry/core/registryFormat';
import { installAgent, MissingToolError } from '../../../src/features/registry/chat/installAgent';
import { agentFolder, answerOf, archive, RegistryServer, sha256 } from './registryServer';

const PLATFORM = 'linux-x86_64' as const;

function binaryAgent(
  server: RegistryServer,
  file: string,
  extra: Record<string, unknown> = {},
): RegistryAgent {
  return parseRegistry({
    agents: [
      {
        id: 'tiny',
        name: 'Tiny agent',
        version: '1.2.0',
        description: 'A node script',
        distribution: { binary: { [PLATFORM]: { archive: server.url(file), cmd: './bin/agent', ...extra } } },
      },
    ],
  }).agents[0] as RegistryAgent;
}

describe('registry: installing agents for real', function () {
  this.timeout(60_000);
  let dir: string;
  let server: RegistryServer;
  let agentsDir: string;
  const progress: string[] = [];
  const context = () => ({
    agentsDir,
    env: process.env,
    progress: (message: string) => progress.push(message),
    // The test server speaks plain http: allowed by name, as a mirror on the user's network would be.
    allowHttpFrom: [server.host],
  });

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-registry-'));
    agentsDir = path.join(dir, 'storage', 'agents');
    server = await RegistryServer.start();
    progress.length = 0;
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const name of ['tiny.tar.gz', 'tiny.zip', 'tiny.tar.bz2']) {
    it(`downloads ${name}, checks its hash, unpacks it, makes it executable, and the agent answers`, async () => {
      const bytes = archive(agentFolder(dir), dir, name);
      server.files.set(`/${name}`, bytes);
      const agent = binaryAgent(server, `/${name}`, { sha256: sha256(bytes).toUpperCase() });
      const spec = agent.distribution.binary?.[PLATFORM];
      assert.ok(spec);
      const installed = await installAgent(agent, { kind: 'binary', spec, platform: PLATFORM }, context());
      assert.equal(installed.command, path.join(agentsDir, 'tiny', '1.2.0', 'bin', 'agent'));
      assert.deepEqual(installed.registry, { id: 'tiny', version: '1.2.0' });
      assert.equal(statSync(installed.command).mode & 0o111, 0o111);
      assert.ok(progress.some((line) => line.startsWith('Downloading…')));
      // Only the installed version is left: no download, no staging folder.
      assert.deepEqual(readdirSync(path.join(agentsDir, 'tiny')), ['1.2.0']);
      assert.equal(await answerOf(installed.command, installed.args, dir), 'chunk 1 chunk 2 ');
    });
  }

  it('refuses a download whose hash is not the registry’s, and leaves nothing installed', async () => {
    const bytes = archive(agentFolder(dir), dir, 'tiny.tar.gz');
    server.files.set('/tiny.tar.gz', bytes);
    const agent = binaryAgent(server, '/tiny.tar.gz', { sha256: sha256(Buffer.from('something else')) });
    const spec = agent.distribution.binary?.[PLATFORM];
    assert.ok(spec);
    await assert.rejects(
      installAgent(agent, { kind: 'binary', spec, platform: PLATFORM }, context()),
      (error: unknown) => error instanceof ArchiveHashMismatchError && error.actual === sha256(bytes),
    );
    assert.deepEqual(readdirSync(path.join(agentsDir, 'tiny')), []);
  });

  it('refuses a program that is a link out of the install folder, and writes nothing outside it', async () => {
    const outside = path.join(dir, 'outside');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'victim'), 'untouched');
    const folder = path.join(dir, 'evil');
    mkdirSync(path.join(folder, 'bin'), { recursive: true });
    symlinkSync(path.join(outside, 'victim'), path.join(folder, 'bin', 'agent'));
    server.files.set('/evil.tar.gz', archive(folder, dir, 'evil.tar.gz'));
    const agent = binaryAgent(server, '/evil.tar.gz');
    const spec = agent.distribution.binary?.[PLATFORM];
    assert.ok(spec);
    await assert.rejects(
      installAgent(agent, { kind: 'binary', spec, platform: PLATFORM }, context()),
      /the link "bin\/agent" points outside the folder/,
    );
    assert.equal(readFileSync(path.join(outside, 'victim'), 'utf8'), 'untouched');
    assert.equal(statSync(path.join(outside, 'victim')).mode & 0o111, 0);
    assert.deepEqual(readdirSync(path.join(agentsDir, 'tiny')), []);
  });

  it('does not unpack entries that climb out of the folder', async () => {
    // Unpacked in <agentsDir>/tiny/.staging-*/files, ../../../escaped would land in <agentsDir>/escaped.
    const folder = path.join(dir, 'x', 'y', 'z');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(dir, 'escaped'), 'from the archive');
    const file = path.join(dir, 'climb.tar.gz');
    // -P keeps the ../ in the entry's name, as a hostile archive would carry it.
    execFileSync('tar', ['-czPf', file, '-C', folder, '../../../escaped']);
    assert.match(execFileSync('tar', ['-tzPf', file], { encoding: 'utf8' }), /^\.\.\/\.\.\/\.\.\/escaped$/m);
    server.files.set('/climb.tar.gz', readFileSync(file));
    const agent = binaryAgent(server, '/climb.tar.gz');
    const spec = agent.distribution.binary?.[PLATFORM];
    assert.ok(spec);
    await assert.rejects(installAgent(agent, { kind: 'binary', spec, platform: PLATFORM }, context()));
    assert.equal(existsSync(path.join(agentsDir, 'escaped')), false);
    assert.deepEqual(readdirSync(path.join(agentsDir, 'tiny')), []);
  });

  it('stops a cancelled download and leaves nothing behind', async () => {
    server.files.set('/tiny.tar.gz', archive(agentFolder(dir), dir, 'tiny.tar.gz'));
    const agent = binaryAgent(server, '/tiny.tar.gz');
    const spec = agent.distribution.binary?.[PLATFORM];
    assert.ok(spec);
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(
      installAgent(
        agent,
        { kind: 'binary', spec, platform: PLATFORM },
        { ...context(), signal: abort.signal },
      ),
      (error: unknown) => error instanceof Error && error.name === 'AbortError',
    );
    assert.deepEqual(readdirSync(path.join(agentsDir, 'tiny')), []);
  });

  it('runs an npx agent pinned, from an npm package (a local tarball here), and it answers', async () => {
    const pkg = agentFolder(dir);
    writeFileSync(
      path.join(pkg, 'package.json'),
      JSON.stringify({ name: 'acp-tiny-agent', version: '1.2.0', bin: { 'acp-tiny-agent': 'bin/agent' } }),
    );
    execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: pkg });
    const tarball = path.join(dir, 'acp-tiny-agent-1.2.0.tgz');
    const agent = parseRegistry({
      agents: [
        {
          id: 'tiny-npx',
          name: 'Tiny npx agent',
          version: '1.2.0',
          distribution: { npx: { package: tarball, cmd: 'acp-tiny-agent', args: ['--acp'] } },
        },
      ],
    }).agents[0] as RegistryAgent;
    const spec = agent.distribution.npx;
    assert.ok(spec);
    const installed = await installAgent(agent, { kind: 'npx', spec }, context());
    assert.equal(installed.command, 'npx');
    assert.deepEqual(installed.args, ['-y', '--package', tarball, 'acp-tiny-agent', '--acp']);
    // Nothing installed globally: npx unpacks into its own cache (a fresh one here, offline).
    const answer = await answerOf(installed.command, installed.args, dir, {
      npm_config_cache: path.join(dir, 'npm-cache'),
      npm_config_offline: 'true',
    });
    assert.equal(answer, 'chunk 1 chunk 2 ');
  });

  it('says how to get uv when a uvx agent is added without it', async () => {
    const agent = parseRegistry({
      agents: [
        { id: 'py', name: 'Py agent', version: '0.1.0', distribution: { uvx: { package: 'py-agent' } } },
      ],
    }).agents[0] as RegistryAgent;
    const spec = agent.distribution.uvx;
    assert.ok(spec);
    await assert.rejects(
      installAgent(agent, { kind: 'uvx', spec }, { ...context(), env: { PATH: path.join(dir, 'empty') } }),
      (error: unknown) => error instanceof MissingToolError && /docs\.astral\.sh\/uv/.test(error.message),
    );
  });
});
