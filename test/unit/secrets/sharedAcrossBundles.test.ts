import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import type * as Secrets from '../../../src/core/secrets/secrets';

type SecretsModule = typeof Secrets;

/**
 * The chat and the features it loads on first use (MCP, the doctor, …) are separate bundles, each with
 * its own copy of src/core/secrets/secrets.ts: a secret one of them learns must be scrubbed by all the others.
 */
describe('secret values shared by every bundle in the process', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-secret-bundles-'));
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('scrubs in one bundle a value another bundle added', async () => {
    const bundle = async (name: string): Promise<string> => {
      const outfile = path.join(dir, `${name}.js`);
      await esbuild.build({
        entryPoints: ['src/core/secrets/secrets.ts'],
        bundle: true,
        format: 'cjs',
        platform: 'node',
        outfile,
        logLevel: 'silent',
      });
      return outfile;
    };
    const load = createRequire(__filename);
    const chat = load(await bundle('chat')) as SecretsModule;
    const mcp = load(await bundle('mcp')) as SecretsModule;
    assert.notEqual(chat, mcp, 'two copies of the module, as two bundles carry');
    mcp.secretValues.add('IT_SHARED_TOKEN', 'shared-secret-4821');
    assert.equal(chat.scrubSecrets('token shared-secret-4821 sent'), 'token ‹secret IT_SHARED_TOKEN› sent');
    chat.secretValues.clear();
    assert.equal(mcp.scrubSecrets('shared-secret-4821'), 'shared-secret-4821', 'one set, cleared for both');
  });
});
