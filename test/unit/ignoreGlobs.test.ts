import { strict as assert } from 'node:assert';
import { combineGlobs, enabledPatterns, gitignoreToGlobs } from '../../src/chat/mentions/ignoreGlobs';

describe('.gitignore and exclude settings as findFiles globs', () => {
  it('turns names, wildcards, anchored paths and folder entries into globs', () => {
    const globs = gitignoreToGlobs(
      [
        '# build output',
        'node_modules',
        '/dist',
        'out/',
        '*.log',
        'docs/generated/',
        '**/tmp',
        '',
        '  ',
      ].join('\n'),
    );
    assert.deepEqual(globs, [
      '**/node_modules/**',
      '**/node_modules',
      'dist/**',
      'dist',
      '**/out/**',
      '**/*.log/**',
      '**/*.log',
      'docs/generated/**',
      '**/tmp/**',
      '**/tmp',
    ]);
  });

  it('skips negations, braces and escapes the leading # and !', () => {
    assert.deepEqual(gitignoreToGlobs('!keep.log\n{a,b}\n\\#hash\r\n'), ['**/#hash/**', '**/#hash']);
  });

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
