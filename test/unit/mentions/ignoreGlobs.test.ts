import { strict as assert } from 'node:assert';
import { combineGlobs, enabledPatterns } from '../../../src/features/mentions/chat/ignoreGlobs';

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
