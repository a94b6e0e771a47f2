import { strict as assert } from 'node:assert';
import { boundedJson, measuredJson } from '../../src/core/util/boundedJson';

describe('boundedJson', () => {
  it('writes small values as JSON.stringify does', () => {
    const value = { a: [1, 'two', null, true], b: { c: 'd' }, skipped: undefined };
    assert.equal(boundedJson(value), JSON.stringify(value));
    assert.deepEqual(measuredJson(value), { text: JSON.stringify(value), fits: true });
  });

  it('elides nesting past the depth limit instead of overflowing the stack', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)) as unknown;
    assert.throws(() => JSON.stringify(deep), RangeError);
    const measured = measuredJson(deep, { maxDepth: 3 });
    assert.deepEqual(measured, { text: '[[["…"]]]', fits: false });
  });

  it('stops writing at the character limit, also inside one huge string', () => {
    const measured = measuredJson({ text: 'x'.repeat(10_000_000) }, { maxChars: 50 });
    assert.equal(measured.fits, false);
    assert.equal(measured.text, `{"text":"${'x'.repeat(41)}… (cut at 50 characters)`);
  });

  it('describes cycles, errors, bigints and functions rather than throwing', () => {
    const cyclic: Record<string, unknown> = { n: 1n, f: () => 1, e: new Error('boom') };
    cyclic['self'] = cyclic;
    assert.equal(boundedJson(cyclic), '{"n":1n,"f":"[function]","e":"Error: boom","self":"[cycle]"}');
  });
});

describe('boundedJson, pretty-printed', () => {
  it('indents as JSON.stringify does, empty containers included', () => {
    const value = { a: [1, 'two', { b: null }], empty: [], none: {}, nested: { deep: [true] } };
    assert.equal(boundedJson(value, { indent: 2 }), JSON.stringify(value, null, 2));
  });

  it('keeps the character limit when indenting', () => {
    const measured = measuredJson(
      { list: Array.from({ length: 1000 }, (_, i) => i) },
      { indent: 2, maxChars: 40 },
    );
    assert.equal(measured.fits, false);
    assert.equal(
      measured.text,
      `${JSON.stringify({ list: [0, 1, 2, 3, 4, 5] }, null, 2).slice(0, 40)}… (cut at 40 characters)`,
    );
  });
});
