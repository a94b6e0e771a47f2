import { strict as assert } from 'node:assert';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { installAgent } from '../../../src/features/registry/chat/installAgent';
import { ARCHIVE_LIMITS } from '../../../src/features/registry/core/archiveEntries';
import { parseRegistry, type RegistryAgent } from '../../../src/features/registry/core/registryFormat';
import {
  deflatedZeros,
  tarGzBomb,
  tarGzOf,
  tarOf,
  zipOf,
  type TarEntry,
  type ZipEntry,
} from './hostileArchives';
import { agentFolder, archive, RegistryServer, sha256 } from './registryServer';

const PLATFORM = 'linux-x86_64' as const;

/** Bytes of the files under `dir` as they lie on disk (links not followed); 0 when it is missing. */
function bytesUnder(dir: string): number {
  if (!existsSync(dir)) {
    return 0;
  }
  return readdirSync(dir).reduce((sum, name) => {
    const entry = path.join(dir, name);
    const stat = lstatSync(entry);
    return sum + (stat.isDirectory() ? bytesUnder(entry) : stat.size);
  }, 0);
}

describe('registry: a hostile registry cannot fill the disk, write outside or slip in a cleartext binary', function () {
  this.timeout(60_000);
  let dir: string;
  let server: RegistryServer;
  let agentsDir: string;
  let outside: string;
  const progress: string[] = [];
  /** The most bytes under the agents folder seen at any unpacking step, when `measuring` (a walk per entry). */
  let peak = 0;
  let measuring = false;

  function agentFor(file: string, extra: Record<string, unknown> = {}): RegistryAgent {
    return parseRegistry({
      agents: [
        {
          id: 'tiny',
          name: 'Tiny agent',
          version: '1.2.0',
          distribution: {
            binary: { [PLATFORM]: { archive: server.url(file), cmd: './bin/agent', ...extra } },
          },
        },
      ],
    }).agents[0] as RegistryAgent;
  }

  function install(file: string, context: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
    const agent = agentFor(file, extra);
    const spec = agent.distribution.binary?.[PLATFORM];
    assert.ok(spec);
    return installAgent(
      agent,
      { kind: 'binary', spec, platform: PLATFORM },
      {
        agentsDir,
        env: process.env,
        progress: (message: string) => {
          progress.push(message);
          if (measuring && message.startsWith('Unpacking')) {
            peak = Math.max(peak, bytesUnder(agentsDir));
          }
        },
        allowHttpFrom: [server.host],
        ...context,
      },
    );
  }

  /** Nothing installed, nothing left in the agents folder, the file outside untouched. */
  function assertNothingLeft(): void {
    assert.deepEqual(readdirSync(path.join(agentsDir, 'tiny')), []);
    assert.equal(bytesUnder(agentsDir), 0);
    assert.equal(readFileSync(path.join(outside, 'victim'), 'utf8'), 'untouched');
    assert.deepEqual(readdirSync(outside), ['victim']);
  }

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-hostile-registry-'));
    agentsDir = path.join(dir, 'storage', 'agents');
    outside = path.join(dir, 'outside');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'victim'), 'untouched');
    server = await RegistryServer.start();
    progress.length = 0;
    peak = 0;
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('cleartext', () => {
    it('refuses a download over plain http unless its host is allowed, asking nothing', async () => {
      server.files.set('/tiny.tar.gz', archive(agentFolder(dir), dir, 'tiny.tar.gz'));
      await assert.rejects(install('/tiny.tar.gz', { allowHttpFrom: [] }), {
        name: 'CleartextRefusedError',
        message: /is not https: .*acpAgents\.registry\.allowHttpFrom/,
      });
      assert.deepEqual(server.requests, []);
      assertNothingLeft();
    });

    it('refuses a download redirected to a host that is not allowed, before reading it', async () => {
      server.files.set('/tiny.tar.gz', archive(agentFolder(dir), dir, 'tiny.tar.gz'));
      server.redirects.set('/moved.tar.gz', server.url('/tiny.tar.gz').replace('127.0.0.1', 'localhost'));
      await assert.rejects(install('/moved.tar.gz'), /localhost.* is not https/);
      assertNothingLeft();
    });

    it('says while downloading when the registry gives no checksum, and not when it does', async () => {
      const bytes = archive(agentFolder(dir), dir, 'tiny.tar.gz');
      server.files.set('/tiny.tar.gz', bytes);
      const unchecked = await install('/tiny.tar.gz');
      assert.equal(unchecked.checksum, 'none');
      assert.ok(
        progress.some((line) => /^Downloading… .*the registry gives no checksum/.test(line)),
        progress.join('\n'),
      );
      progress.length = 0;
      const checked = await install('/tiny.tar.gz', {}, { sha256: sha256(bytes) });
      assert.equal(checked.checksum, 'verified');
      assert.ok(!progress.some((line) => /no checksum/.test(line)));
    });
  });

  describe('bombs', () => {
    beforeEach(() => (measuring = true));
    afterEach(() => (measuring = false));

    it('refuses a 1.2 MB .tar.gz that unpacks to 1.2 GB, writing none of it', async () => {
      const bomb = tarGzBomb(1, 1200);
      assert.ok(bomb.length < 1.5 * 1024 * 1024, `${bomb.length} bytes`);
      server.files.set('/bomb.tar.gz', bomb);
      await assert.rejects(
        install('/bomb.tar.gz'),
        new RegExp(`"bin/part0" would take it past ${ARCHIVE_LIMITS.maxUnpackedBytes} bytes unpacked`),
      );
      assert.ok(peak <= bomb.length, `${peak} bytes on disk while unpacking`);
      assertNothingLeft();
    });

    it('refuses a zip whose entry unpacks to 1.2 GB, writing none of it', async () => {
      const bomb = zipOf([{ name: 'bin/agent', deflated: deflatedZeros(1200) }]);
      assert.ok(bomb.length < 1.5 * 1024 * 1024, `${bomb.length} bytes`);
      server.files.set('/bomb.zip', bomb);
      await assert.rejects(install('/bomb.zip'), /"bin\/agent" would take it past 1073741824 bytes unpacked/);
      assert.ok(peak <= bomb.length, `${peak} bytes on disk while unpacking`);
      assertNothingLeft();
    });

    it('stops at the bound across many files: what lies on disk never passes it', async () => {
      const limits = { ...ARCHIVE_LIMITS, maxUnpackedBytes: 8 * 1024 * 1024 };
      const bomb = tarGzBomb(12, 1);
      server.files.set('/many.tar.gz', bomb);
      await assert.rejects(
        install('/many.tar.gz', { limits }),
        /"bin\/part8" would take it past 8388608 bytes/,
      );
      assert.ok(peak > 0, 'files were being written');
      assert.ok(peak <= limits.maxUnpackedBytes + bomb.length, `${peak} bytes on disk while unpacking`);
      assertNothingLeft();
    });

    it('stops reading a tar stream that goes on after its entries (64 MiB of trailing zeros)', async () => {
      const zeros = gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
      const trailing = Buffer.concat([
        tarGzOf([{ path: 'bin/agent', content: 'x' }]),
        ...Array(64).fill(zeros),
      ]);
      server.files.set('/trailing.tar.gz', trailing);
      await assert.rejects(install('/trailing.tar.gz'), /it holds more than its entries/);
      assertNothingLeft();
    });

    it('stops a zip entry that inflates past the size it declares', async () => {
      const lie: ZipEntry = { name: 'bin/agent', deflated: { ...deflatedZeros(64), size: 1024 } };
      server.files.set('/lie.zip', zipOf([lie]));
      await assert.rejects(install('/lie.zip'), /too many bytes in the stream|expected 1024/);
      assert.ok(peak <= 2 * 1024 * 1024, `${peak} bytes on disk while unpacking`);
      assertNothingLeft();
    });

    for (const kind of ['tar.gz', 'zip'] as const) {
      it(`refuses a ${kind} of more than ${ARCHIVE_LIMITS.maxEntries} entries`, async function () {
        this.timeout(180_000);
        measuring = false; // a walk per entry would cost 20,000 walks
        const names = Array.from({ length: ARCHIVE_LIMITS.maxEntries + 1 }, (_, n) => `f${n}`);
        server.files.set(
          `/crowd.${kind}`,
          kind === 'zip'
            ? zipOf(names.map((name) => ({ name })))
            : tarGzOf(names.map((name) => ({ path: name }))),
        );
        await assert.rejects(
          install(`/crowd.${kind}`),
          new RegExp(`more than ${ARCHIVE_LIMITS.maxEntries} entries`),
        );
        assertNothingLeft();
      });
    }
  });

  describe('entries', () => {
    const victim = (): string => path.join(outside, 'victim');
    const tarCases: [string, () => TarEntry[], RegExp][] = [
      ['an absolute path', () => [{ path: victim(), content: 'overwritten' }], /absolute path/],
      [
        'a path that climbs out',
        () => [{ path: '../../../../outside/victim', content: 'overwritten' }],
        /climbs out/,
      ],
      [
        'a link to an absolute path',
        () => [{ path: 'bin/agent', type: 'SymbolicLink', linkpath: victim() }],
        /points outside/,
      ],
      [
        'a link that climbs out',
        () => [{ path: 'bin/agent', type: 'SymbolicLink', linkpath: '../../../../../outside/victim' }],
        /points outside/,
      ],
      [
        'a file written through a link it made',
        () => [
          { path: 'up', type: 'SymbolicLink', linkpath: '.' },
          { path: 'up/up/bin/agent', content: 'through the link' },
        ],
        /symbolic link|through/,
      ],
      [
        'a hard link to a file outside',
        () => [{ path: 'bin/agent', type: 'Link', linkpath: victim() }],
        /absolute path/,
      ],
      [
        'a hard link that climbs out',
        () => [{ path: 'bin/agent', type: 'Link', linkpath: '../../outside/victim' }],
        /climbs out/,
      ],
      ['a FIFO', () => [{ path: 'bin/agent', type: 'FIFO' }], /is not a file, a folder or a link/],
      [
        'a device',
        () => [{ path: 'bin/agent', type: 'CharacterDevice' }],
        /is not a file, a folder or a link/,
      ],
    ];
    for (const [what, entries, why] of tarCases) {
      it(`refuses a .tar with ${what}, and writes nothing outside`, async () => {
        server.files.set('/hostile.tar', tarOf(entries()));
        await assert.rejects(install('/hostile.tar'), why);
        assertNothingLeft();
      });
    }

    const zipCases: [string, () => ZipEntry[], RegExp][] = [
      ['an absolute path', () => [{ name: victim(), content: 'overwritten' }], /absolute path/],
      [
        'a path that climbs out',
        () => [{ name: '../../../../outside/victim', content: 'overwritten' }],
        /relative path|climbs out/,
      ],
      [
        'a link to an absolute path',
        () => [{ name: 'bin/agent', mode: 0o120777, content: victim() }],
        /points outside/,
      ],
      [
        'a link that climbs out',
        () => [{ name: 'bin/agent', mode: 0o120777, content: '../../../../outside/victim' }],
        /points outside/,
      ],
      [
        'a file written through a link it made',
        () => [
          { name: 'up', mode: 0o120777, content: '.' },
          { name: 'up/bin/agent', content: 'through the link' },
        ],
        /written through "up", which is a link/,
      ],
      ['a FIFO', () => [{ name: 'bin/agent', mode: 0o010644 }], /is not a file, a folder or a link/],
    ];
    for (const [what, entries, why] of zipCases) {
      it(`refuses a .zip with ${what}, and writes nothing outside`, async () => {
        server.files.set('/hostile.zip', zipOf(entries()));
        await assert.rejects(install('/hostile.zip'), why);
        assertNothingLeft();
      });
    }

    it('unpacks links that stay inside, and folders, as they are', async () => {
      const script = readFileSync(path.join(agentFolder(dir), 'bin', 'agent'));
      server.files.set(
        '/links.zip',
        zipOf([
          { name: 'lib/', mode: 0o040755 },
          { name: 'lib/agent.js', content: script, mode: 0o100755 },
          { name: 'bin/agent', mode: 0o120777, content: '../lib/agent.js' },
        ]),
      );
      const installed = await install('/links.zip');
      assert.equal(readFileSync(installed.command, 'utf8'), script.toString('utf8'));
      assert.ok(lstatSync(path.join(path.dirname(installed.command), 'agent')).isSymbolicLink());
    });
  });
});
