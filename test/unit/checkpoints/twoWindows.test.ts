import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const WORKER = path.resolve(__dirname, '../../fixtures/checkpoints/worker.ts');

/** Runs one "window" (a real node process) taking `rounds` checkpoints; resolves with its report. */
function window(
  folder: string,
  storage: string,
  name: string,
  rounds: number,
): Promise<{ coverage: string; failures: string[]; warnings?: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', WORKER, folder, storage, name, String(rounds)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve(JSON.parse(out.trim()) as { coverage: string; failures: string[]; warnings?: string[] });
      } catch {
        reject(new Error(`window ${name} exited ${code}: ${out}${err}`));
      }
    });
  });
}

describe('two windows on one folder: checkpoints taken at once by two processes', () => {
  let folder: string;
  let storage: string;

  beforeEach(() => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'acp-two-windows-'));
    storage = mkdtempSync(path.join(os.tmpdir(), 'acp-two-windows-storage-'));
    for (let i = 0; i < 200; i++) {
      writeFileSync(path.join(folder, `file-${i}.txt`), `content ${i}\n`.repeat(50));
    }
  });

  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
    rmSync(storage, { recursive: true, force: true });
  });

  it('all succeed and each checkpoint holds what its window wrote (each window has its own index)', async function () {
    // Three real processes, each compiling the worker and taking up to 15 git checkpoints of 200 files: 12 s
    // on a quiet 2-core machine, more than the suite's 20 s when the machine is busy. Time is not what it checks.
    this.timeout(90_000);
    const reports = await Promise.all([
      window(folder, storage, 'left', 15),
      window(folder, storage, 'right', 15),
    ]);
    for (const report of reports) {
      assert.equal(report.coverage, 'full', `git is used (${(report.warnings ?? []).join(' ')})`);
      assert.deepEqual(report.failures, []);
    }
    // Both windows have ended: the index files they left are taken over by the next window, not piled up.
    await window(folder, storage, 'third', 1);
    const [repo] = readdirSync(path.join(storage, 'checkpoints'));
    const indexes = readdirSync(path.join(storage, 'checkpoints', repo as string, 'acp-index'));
    assert.equal(indexes.length, 1, `one index left: ${indexes.join(', ')}`);
  });
});
