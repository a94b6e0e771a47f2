import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadRegistry, MAX_INDEX_BYTES } from '../../../src/features/registry/core/registryStore';
import { until } from '../../support/until';
import { RegistryServer } from './registryServer';

const SNAPSHOT = path.resolve(__dirname, '../../../media/acp-registry-snapshot.json');

const INDEX = {
  version: '1.0.0',
  agents: [
    {
      id: 'tiny',
      name: 'Tiny agent',
      version: '2.0.0',
      description: 'Answers in chunks',
      distribution: { npx: { package: 'acp-tiny-agent@2.0.0' } },
    },
    { id: 'broken', name: 'No distribution' },
  ],
};

describe('registry: fetch, cache, offline', () => {
  let dir: string;
  let server: RegistryServer;
  let clock = 1_000;
  const options = () => ({
    url: server.url('/registry.json'),
    allowHttpFrom: [server.host],
    cacheFile: path.join(dir, 'storage', 'acp-registry-cache.json'),
    snapshotFile: SNAPSHOT,
    now: () => clock,
  });

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-registry-store-'));
    server = await RegistryServer.start();
    server.files.set('/registry.json', JSON.stringify(INDEX));
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the registry from its URL, skips an unreadable entry, and caches it with the fetch time', async () => {
    const loaded = await loadRegistry(options());
    assert.deepEqual(loaded.source, { kind: 'network', fetchedAt: 1_000 });
    assert.deepEqual(
      loaded.agents.map((agent) => [agent.id, agent.version]),
      [['tiny', '2.0.0']],
    );
    assert.equal(loaded.skipped.length, 1);
    assert.match(loaded.skipped[0] ?? '', /^agents\[1\]: .*(version|distribution)/);
    const cache = JSON.parse(readFileSync(options().cacheFile, 'utf8')) as { fetchedAt: number; url: string };
    assert.equal(cache.fetchedAt, 1_000);
    assert.equal(cache.url, options().url);
  });

  it('offline, uses the cached list and says when it was fetched', async () => {
    await loadRegistry(options());
    clock = 5_000;
    server.failing = true;
    const loaded = await loadRegistry(options());
    assert.equal(loaded.source.kind, 'cache');
    assert.equal(loaded.source.kind === 'cache' && loaded.source.fetchedAt, 1_000);
    assert.match(loaded.source.kind === 'cache' ? loaded.source.error : '', /500/);
    assert.deepEqual(
      loaded.agents.map((agent) => agent.id),
      ['tiny'],
    );
  });

  it('offline on a first run (or with a cache of another URL), uses the snapshot shipped in the package', async () => {
    writeFileSync(
      path.join(dir, 'other.json'),
      JSON.stringify({ fetchedAt: 1, url: 'https://elsewhere.example/registry.json', registry: INDEX }),
    );
    server.failing = true;
    const loaded = await loadRegistry({ ...options(), cacheFile: path.join(dir, 'other.json') });
    assert.equal(loaded.source.kind, 'snapshot');
    const ids = loaded.agents.map((agent) => agent.id);
    assert.ok(
      ids.includes('gemini') && ids.includes('claude-code-acp') && ids.includes('codex-acp'),
      ids.join(),
    );
    assert.deepEqual(loaded.skipped, []);
  });

  it('treats an answer that is not a registry as offline, keeping the good cache', async () => {
    await loadRegistry(options());
    server.files.set('/registry.json', '<html>captive portal</html>');
    const loaded = await loadRegistry(options());
    assert.equal(loaded.source.kind, 'cache');
    assert.equal(JSON.parse(readFileSync(options().cacheFile, 'utf8')).registry.agents[0].id, 'tiny');
  });

  it('reads only https (and allowed http) URLs', async () => {
    const loaded = await loadRegistry({ ...options(), url: `file://${SNAPSHOT}` });
    assert.equal(loaded.source.kind, 'snapshot');
    assert.match(loaded.source.kind === 'snapshot' ? loaded.source.error : '', /only https URLs are read/);
  });

  it('refuses the list over plain http unless the user named its host, and asks nothing then', async () => {
    const { allowHttpFrom: _allowed, ...https } = options();
    const loaded = await loadRegistry(https);
    assert.equal(loaded.source.kind, 'snapshot');
    assert.match(
      loaded.source.kind === 'snapshot' ? loaded.source.error : '',
      /is not https: .*acpAgents\.registry\.allowHttpFrom/,
    );
    assert.deepEqual(server.requests, [], 'not even asked');
    // Named by host name alone (any port) it is allowed too.
    assert.equal((await loadRegistry({ ...https, allowHttpFrom: ['127.0.0.1'] })).source.kind, 'network');
  });

  it('refuses a redirect to a host that is not allowed, before reading its answer', async () => {
    const moved = server.url('/registry.json').replace('127.0.0.1', 'localhost');
    server.redirects.set('/moved.json', moved);
    const loaded = await loadRegistry({ ...options(), url: server.url('/moved.json') });
    assert.equal(loaded.source.kind, 'snapshot');
    assert.match(loaded.source.kind === 'snapshot' ? loaded.source.error : '', /localhost.* is not https/);
  });

  for (const declareLength of [true, false]) {
    it(`stops reading a 300 MiB answer at the 5 MiB limit (${declareLength ? 'its length declared' : 'streamed'})`, async () => {
      server.streams.set('/huge.json', { bytes: 300 * 1024 * 1024, declareLength });
      const loaded = await loadRegistry({ ...options(), url: server.url('/huge.json') });
      assert.equal(loaded.source.kind, 'snapshot');
      assert.match(
        loaded.source.kind === 'snapshot' ? loaded.source.error : '',
        new RegExp(`larger than ${MAX_INDEX_BYTES} bytes`),
      );
      // What the server could hand to the socket before the client hung up: the limit and the buffers in between.
      await until(() => server.sent.has('/huge.json'), 'the answer started');
      const sent = server.sent.get('/huge.json') ?? 0;
      assert.ok(sent < MAX_INDEX_BYTES + 16 * 1024 * 1024, `${sent} bytes sent`);
    });
  }
});
