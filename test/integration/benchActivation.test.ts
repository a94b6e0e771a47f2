import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';

const EXTENSION_ID = 'acp-agents.acp-agents';

/**
 * `npm run bench` runs this suite alone (ACP_TEST_GREP='benchmark: activation') in a fresh code-server
 * and reads the `[bench] activation` line: the time from asking for the extension to its `activate`
 * having returned, i.e. loading dist/extension.js plus activate(). It asserts what it measures, not
 * how long it took. In a full integration run the extension is usually active already: then it only
 * checks that, and prints nothing.
 */
describe('benchmark: activation', () => {
  it('activates the extension from cold and reports how long it took', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed`);
    const cold = !extension.isActive;
    const started = performance.now();
    await extension.activate();
    const elapsed = performance.now() - started;
    assert.equal(extension.isActive, true);
    if (cold) {
      console.log(`[bench] activation ${elapsed.toFixed(2)} ms`);
    }
  });
});
