import { strict as assert } from 'node:assert';
import { fuzzyPathScore, rankBy } from '../../../src/features/mentions/chat/fuzzyRank';
import { PathRanker } from '../../../src/features/mentions/chat/pathRanker';

/** A small seeded generator (mulberry32): the same "random" lists and queries on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Letters of both cases, digits, separators, and a few characters whose lower case is longer, context
// dependent or ASCII (İ, Σ, the Kelvin sign): the slow path must agree too.
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-: \\İΣσςéK';

function generatedPaths(random: () => number, count: number): string[] {
  const pick = (text: string) => text.charAt(Math.floor(random() * text.length));
  const word = (letters: string, length: number) =>
    Array.from({ length: 1 + Math.floor(random() * length) }, () => pick(letters)).join('');
  const common = 'abcdeserviewpkgSrcIndexHelp';
  return Array.from({ length: count }, () => {
    const depth = Math.floor(random() * 4);
    const folders = Array.from({ length: depth }, () => word(random() < 0.9 ? common : ALPHABET, 6));
    return [...folders, `${word(random() < 0.8 ? common : ALPHABET, 8)}.${word('tsjmdx', 2)}`].join('/');
  });
}

/** What the picker did before the ranker: every path scored, sorted, cut — the reference. */
function reference(paths: readonly string[], query: string, limit: number, excluded: Set<number>): number[] {
  const indices = paths.map((_, index) => index).filter((index) => !excluded.has(index));
  return rankBy(indices, query, (q, index) => fuzzyPathScore(q, paths[index] as string), limit);
}

describe('the @-mention path ranker', () => {
  it('ranks exactly like the full ranking for random queries, typed on or not, over a generated list', () => {
    const random = seeded(23);
    const paths = generatedPaths(random, 3000);
    paths.push(...paths.slice(0, 50)); // duplicates: ties are kept in list order
    const ranker = new PathRanker(paths);
    const excluded = new Set(Array.from({ length: 40 }, () => Math.floor(random() * paths.length)));
    let compared = 0;
    let nonEmpty = 0;
    for (let round = 0; round < 60; round++) {
      // A query typed a character at a time (the incremental path), sometimes with a backspace or a
      // jump to an unrelated query (the full path).
      const target = Array.from({ length: 1 + Math.floor(random() * 6) }, () => {
        const letters = random() < 0.8 ? 'abcdeserviewpkg/.' : ALPHABET;
        return letters.charAt(Math.floor(random() * letters.length));
      }).join('');
      for (let typed = 0; typed <= target.length; typed++) {
        const query = target.slice(0, typed);
        const limit = [1, 5, 50][Math.floor(random() * 3)] as number;
        const exclude = random() < 0.5 ? excluded : new Set<number>();
        const expected = reference(paths, query, limit, exclude);
        assert.deepEqual(
          ranker.rank(query, limit, (index) => exclude.has(index)),
          expected,
          `query ${JSON.stringify(query)}, limit ${limit}`,
        );
        compared++;
        nonEmpty += expected.length > 0 && query !== '' ? 1 : 0;
        if (random() < 0.1) {
          ranker.rank(target.slice(0, Math.max(0, typed - 1)), 5); // a backspace
        }
      }
    }
    assert.ok(compared > 150 && nonEmpty > 60, `${compared} compared, ${nonEmpty} with matches`);
  });

  it('ranks exactly like the full ranking over a monorepo-shaped list larger than its sample', () => {
    // Many files per folder (the folder's part is matched once per keystroke), names that share
    // prefixes, camelCase humps and digits, files at the root, and more paths than the ranker samples
    // first to start its bound from.
    const random = seeded(7);
    const names = ['index', 'service', 'serviceView', 'view', 'types', 'store', 'pkgUtils', 'ts', 's'];
    const extensions = ['ts', 'tsx', 'js', 'md', 'json', 'test.ts'];
    const paths: string[] = [];
    for (let i = 0; i < 6000; i++) {
      const leaf = Math.floor(i / 25);
      const folder =
        leaf % 40 === 39
          ? ''
          : `packages/pkg${leaf % 13}/${leaf % 3 === 0 ? 'src' : 'test'}/area${leaf % 7}/part${leaf}/`;
      const name = names[Math.floor(random() * names.length)] as string;
      const digits = random() < 0.7 ? String(Math.floor(random() * 3000)) : '';
      paths.push(`${folder}${name}${digits}.${extensions[i % extensions.length] as string}`);
    }
    const ranker = new PathRanker(paths);
    const queries = [
      's',
      'se',
      'ser',
      'serv',
      'sv',
      'ts',
      'sr',
      'pkg1',
      'pkg12/view',
      'pkg1/src/vi',
      'view1',
      'indx',
      'P/S/V',
      'st.ts',
      '12',
      'a7/p',
      'sV',
    ];
    for (const query of queries) {
      for (const typedOn of [false, true]) {
        ranker.forget();
        for (let typed = typedOn ? 1 : query.length; typed <= query.length; typed++) {
          const prefix = query.slice(0, typed);
          for (const limit of [1, 7, 50]) {
            assert.deepEqual(
              ranker.rank(prefix, limit),
              reference(paths, prefix, limit, new Set()),
              `query ${JSON.stringify(prefix)}, limit ${limit}`,
            );
          }
        }
      }
    }
  });

  it('ranks non-ASCII queries and paths as fuzzyPathScore does', () => {
    const paths = ['src/İndex.ts', 'src/ΣIGMA/ας.md', 'docs/KELVIN.md', 'a/b/kelvin.md', 'πλ/Σ.ts'];
    const ranker = new PathRanker(paths);
    for (const query of ['i', 'İ', 'σ', 'Σ', 'ς', 'K', 'k', 'kel', 'sig', 'ΣI']) {
      const indices = paths.map((_, index) => index);
      const expected = rankBy(indices, query, (q, index) => fuzzyPathScore(q, paths[index] as string), 10);
      ranker.forget();
      assert.deepEqual(ranker.rank(query, 10), expected, JSON.stringify(query));
    }
  });

  it('asks to exclude only paths good enough to be shown', () => {
    const paths = Array.from({ length: 1000 }, (_, i) => `pkg/file${i}.ts`);
    const asked: number[] = [];
    const ranked = new PathRanker(paths).rank('file99', 3, (index) => {
      asked.push(index);
      return index === 99;
    });
    const expected = rankBy(
      paths.filter((_, index) => index !== 99),
      'file99',
      fuzzyPathScore,
      3,
    );
    assert.deepEqual(
      ranked.map((index) => paths[index]),
      expected,
    );
    assert.equal(expected.length, 3);
    assert.ok(asked.length < 20, `asked about ${asked.length} paths`);
  });
});
