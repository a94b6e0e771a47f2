// Activation in the real VS Code (code-server), with whatever bundle dist/ holds — `npm run bench` builds
// the production one first, the bundle users install. Each run is a fresh code-server whose extension host
// runs the `benchmark: activation` suite alone (test/integration/benchActivation.test.ts) and prints
//   [bench] activation <ms> ms (cpu <ms> ms, bundle evaluation <ms> ms, activate() <ms> ms)
//   [bench] chat load <ms> ms (cpu <ms> ms)
// The first figure is from getExtension().activate() to its return (VS Code reading and evaluating
// dist/extension.js, plus activate()) in wall time and in the extension host's CPU time (on a loaded
// machine the wall time is mostly waiting for a core); the other two are measured inside the extension;
// the chat load is what the first use (the view opening) adds. Unlike scripts/testIntegration.mjs this launcher
// builds nothing in dist/.
//
//   node bench/activation.mjs [runs]   → JSON on the last line
import * as esbuild from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { startCodeServer } from '../scripts/codeServer.mjs';
import { chromiumPath, ensureCodeServer, repoRoot } from '../scripts/tools.mjs';
import { developmentPayload, openWorkbench } from '../scripts/workbench.mjs';

const TIMEOUT_MS = 180_000;
const sampleWorkspace = join(repoRoot, 'test', 'fixtures', 'workspace');

/** The tests module and the one suite, bundled as scripts/testIntegration.mjs bundles them. */
async function bundleSuite(outDir) {
  await esbuild.build({
    entryPoints: [
      join(repoRoot, 'test/integration/index.ts'),
      join(repoRoot, 'test/integration/benchActivation.test.ts'),
    ],
    outdir: outDir,
    outbase: join(repoRoot, 'test/integration'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'warning',
    logOverride: { 'require-resolve-not-external': 'silent' },
  });
  return join(outDir, 'index.js');
}

/** One fresh code-server: the figures its extension host printed. */
async function oneRun(testsPath) {
  const server = await startCodeServer({ workspace: sampleWorkspace });
  /** @type {Awaited<ReturnType<typeof openWorkbench>> | undefined} */
  let workbench;
  const lines = [];
  try {
    workbench = await openWorkbench({
      server,
      folder: sampleWorkspace,
      payload: developmentPayload(server, {
        extensionPath: repoRoot,
        testsPath,
        env: { ACP_TEST_GREP: 'benchmark: activation' },
      }),
      onLog: (log) => lines.push(log.text),
    });
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no result within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
    });
    const code = await Promise.race([workbench.exitCode, timeout]).finally(() => clearTimeout(timer));
    const output = lines.join('\n');
    if (code !== 0) {
      throw new Error(`the activation suite failed (exit ${code}):\n${output}`);
    }
    const activation =
      /\[bench\] activation ([\d.]+) ms \(cpu ([\d.]+) ms, bundle evaluation ([\d.]+) ms, activate\(\) ([\d.]+) ms\)/.exec(
        output,
      );
    const chat = /\[bench\] chat load ([\d.]+) ms \(cpu ([\d.]+) ms\)/.exec(output);
    if (!activation || !chat) {
      throw new Error(
        `the activation suite printed no figure (was the extension active already?):\n${output}`,
      );
    }
    return {
      loadAverage: loadavg()[0],
      activationMs: Number(activation[1]),
      activationCpuMs: Number(activation[2]),
      bundleEvaluationMs: Number(activation[3]),
      activateMs: Number(activation[4]),
      chatLoadMs: Number(chat[1]),
      chatLoadCpuMs: Number(chat[2]),
    };
  } finally {
    await workbench?.close();
    await server.stop();
  }
}

/** `runs` fresh servers, one after another. */
export async function measureActivation(runs) {
  await ensureCodeServer({ quiet: true });
  chromiumPath();
  const outDir = mkdtempSync(join(tmpdir(), 'acp-bench-activation-'));
  try {
    const testsPath = await bundleSuite(outDir);
    const results = [];
    for (let run = 0; run < runs; run++) {
      results.push(await oneRun(testsPath));
    }
    return results;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = Number(process.argv[2] ?? 1);
  const results = await measureActivation(runs);
  console.log(JSON.stringify(results));
}
