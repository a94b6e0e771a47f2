import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { AcpAgentsTestHooks } from '../../src/extension';

const EXTENSION_ID = 'acp-agents.acp-agents';

/**
 * `npm run bench` runs this suite alone (ACP_TEST_GREP='benchmark: activation') in a fresh code-server
 * (bench/activation.mjs, with the production bundle) and reads the `[bench] activation` line: the time
 * from asking for the extension to its `activate` having returned (reading and evaluating
 * dist/extension.js plus activate()), and the two parts measured inside the extension host. It asserts
 * what it measures, not how long it took: activating loads no chat, and the first use of the hooks does.
 * In a full integration run the extension is usually active already: then it only checks that, and
 * prints nothing.
 */
describe('benchmark: activation', () => {
  it('activates the extension from cold without loading the chat, and reports how long it took', async () => {
    const extension = vscode.extensions.getExtension<AcpAgentsTestHooks>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed`);
    const cold = !extension.isActive;
    const started = performance.now();
    // CPU time too: on a loaded machine the wall time is mostly waiting for a core.
    const cpuStarted = process.cpuUsage();
    const hooks = await extension.activate();
    const elapsed = performance.now() - started;
    const cpu = process.cpuUsage(cpuStarted);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    assert.equal(extension.isActive, true);
    assert.ok(hooks, 'a test extension host gets the test hooks');
    if (!cold) {
      return;
    }
    assert.equal(hooks.chatLoaded, false, 'activating alone loaded the chat bundle');
    const { bundleEvaluationMs, activateMs } = hooks.activation;
    assert.ok(
      bundleEvaluationMs >= 0 && activateMs >= 0 && activateMs <= elapsed,
      JSON.stringify(hooks.activation),
    );
    console.log(
      `[bench] activation ${elapsed.toFixed(2)} ms (cpu ${cpuMs.toFixed(2)} ms, bundle evaluation ${bundleEvaluationMs.toFixed(2)} ms, activate() ${activateMs.toFixed(2)} ms)`,
    );
    // The first use builds the chat: timed too, as what opening the view adds.
    const loadStarted = performance.now();
    const loadCpuStarted = process.cpuUsage();
    await hooks.chat.restored;
    const chatMs = performance.now() - loadStarted;
    const loadCpu = process.cpuUsage(loadCpuStarted);
    const chatCpuMs = (loadCpu.user + loadCpu.system) / 1000;
    assert.equal(hooks.chatLoaded, true);
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('acpAgents.newChat'), 'the chat registered its commands');
    console.log(`[bench] chat load ${chatMs.toFixed(2)} ms (cpu ${chatCpuMs.toFixed(2)} ms)`);
  });
});
