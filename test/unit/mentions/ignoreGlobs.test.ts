import { strict as assert } from 'node:assert';
import {
  combineGlobs,
  enabledPatterns,
  excludeMatcher,
} from '../../../src/features/mentions/chat/ignoreGlobs';

describe('exclude settings as findFiles globs', () => {
  it('takes the patterns of files.exclude that are on, not when-clauses', () => {
    assert.deepEqual(
      enabledPatterns({ '**/.git': true, '**/*.js': { when: '$(basename).ts' }, '**/build': false }),
      ['**/.git'],
    );
    assert.deepEqual(enabledPatterns(undefined), []);
  });

  it('combines patterns into one brace glob', () => {
    assert.equal(combineGlobs([]), undefined);
    assert.equal(combineGlobs(['a/**']), 'a/**');
    assert.equal(combineGlobs(['a/**', 'b', 'a/**']), '{a/**,b}');
  });
});

describe('exclude settings matched in process (after git lists a folder)', () => {
  it('excludes what a pattern names and everything in a folder it names, dot files too', () => {
    const excluded = excludeMatcher(['**/node_modules', '**/.git', 'out/*.map', '**/*.code-search']);
    assert.equal(excluded('node_modules/a/index.js'), true);
    assert.equal(excluded('packages/x/node_modules/b.js'), true);
    assert.equal(excluded('.git/config'), true);
    assert.equal(excluded('out/a.js.map'), true);
    assert.equal(excluded('out/sub/a.js.map'), false);
    assert.equal(excluded('.github/workflows/ci.yml'), false);
    assert.equal(excluded('src/node_modules.ts'), false);
    assert.equal(excluded('a.code-search'), true);
    assert.equal(excludeMatcher([])('anything'), false);
  });
});
