import { strict as assert } from 'node:assert';
import { extensionExports, type ExtensionRunMode } from '../../src/exports';

describe('extension exports', () => {
  it('gives other extensions nothing in a normal or development activation', () => {
    for (const mode of ['production', 'development'] as const satisfies readonly ExtensionRunMode[]) {
      let built = false;
      const exported = extensionExports(mode, () => {
        built = true;
        return { chat: 'controller', prompts: 'dialog seam', rules: 'permission rules' };
      });
      assert.equal(exported, undefined, mode);
      assert.equal(built, false, `${mode}: the hooks are not even built`);
    }
  });

  it('gives the test hooks to an extension host started for tests', () => {
    const hooks = { chat: 'controller' };
    assert.equal(
      extensionExports('test', () => hooks),
      hooks,
    );
  });
});
