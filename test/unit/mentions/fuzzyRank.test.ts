import { strict as assert } from 'node:assert';
import { fuzzyPathScore, fuzzyScore, rankBy } from '../../../src/features/mentions/chat/fuzzyRank';

describe('fuzzy ranking for the @-mention picker', () => {
  it('matches characters in order, case-insensitively, and rejects the rest', () => {
    assert.notEqual(fuzzyScore('hel', 'hello.ts'), undefined);
    assert.notEqual(fuzzyScore('HTS', 'hello.ts'), undefined);
    assert.notEqual(fuzzyScore('cc', 'chatController.ts'), undefined);
    assert.equal(fuzzyScore('leh', 'hello.ts'), undefined);
    assert.equal(fuzzyScore('hellox', 'hello.ts'), undefined);
    assert.equal(fuzzyScore('', 'anything'), 0);
  });

  it('prefers prefixes, word starts and camelCase humps over scattered letters', () => {
    const prefix = fuzzyScore('cha', 'chat.ts') ?? -Infinity;
    const scattered = fuzzyScore('cha', 'cache-hat.ts') ?? -Infinity;
    assert.ok(prefix > scattered, `${prefix} > ${scattered}`);
    const humps = fuzzyScore('cc', 'chatController.ts') ?? -Infinity;
    const inside = fuzzyScore('cc', 'accord.ts') ?? -Infinity;
    assert.ok(humps > inside, `${humps} > ${inside}`);
  });

  it('ranks a match in the file name above one only in the folders', () => {
    const paths = [
      'help/index.ts',
      'src/shell/other.ts',
      'test/fixtures/workspace/src/hello.ts',
      'src/helpers.ts',
    ];
    const ranked = rankBy(paths, 'hel', fuzzyPathScore, 10);
    // Both names start with "hel"; the shorter name is the closer one.
    assert.deepEqual(ranked.slice(0, 2), ['test/fixtures/workspace/src/hello.ts', 'src/helpers.ts']);
    assert.equal(ranked.includes('src/shell/other.ts'), true, 'a folder match still counts');
    assert.equal(ranked.indexOf('src/shell/other.ts') > 1, true);
    assert.deepEqual(rankBy(paths, 'src/hel', fuzzyPathScore, 1), ['src/helpers.ts']);
  });

  it('keeps the input order for equal scores and honours the limit', () => {
    assert.deepEqual(rankBy(['b.ts', 'a.ts', 'c.ts'], '', fuzzyPathScore, 2), ['b.ts', 'a.ts']);
    assert.deepEqual(rankBy(['x.ts', 'y.ts'], 'zzz', fuzzyPathScore, 5), []);
  });

  it('finds the file among 20,000 paths', () => {
    const paths = Array.from(
      { length: 20_000 },
      (_, i) => `packages/pkg${i % 97}/src/module${i}/file${i}.ts`,
    );
    paths.splice(12_345, 0, 'test/fixtures/workspace/src/hello.ts');
    assert.deepEqual(rankBy(paths, 'hello', fuzzyPathScore, 3), ['test/fixtures/workspace/src/hello.ts']);
    assert.equal(
      rankBy(paths, 'file19999', fuzzyPathScore, 1)[0],
      'packages/pkg17/src/module19999/file19999.ts',
    );
  });
});
