// The @-mention ranking code as the extension runs it: bundled by esbuild into one module (as
// dist/mentions.js is), not loaded through tsx, whose per-file modules reach every import through a
// getter — a cost per call the extension does not pay (building the ranker took twice as long). For
// the benches that time the ranker (bench/bigWorkspace.mjs, bench/mentionScale.mjs).
import * as esbuild from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** `{ PathRanker, folderPaths, fuzzyPathScore, rankBy }` from src/features/mentions/chat, bundled. */
export async function bundledRanking() {
  const dir = mkdtempSync(join(tmpdir(), 'acp-bench-ranking-'));
  try {
    const outfile = join(dir, 'ranking.mjs');
    await esbuild.build({
      stdin: {
        contents: [
          "export { PathRanker, folderPaths } from './src/features/mentions/chat/pathRanker';",
          "export { fuzzyPathScore, rankBy } from './src/features/mentions/chat/fuzzyRank';",
        ].join('\n'),
        resolveDir: repoRoot,
        loader: 'ts',
      },
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      outfile,
      logLevel: 'warning',
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
