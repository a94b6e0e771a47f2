import { strict as assert } from 'node:assert';
import { lineRangeFragment } from '../../src/chat/selectionRange';

describe('the line range of an editor selection', () => {
  it('leaves out the line a whole-line selection ends on (column 0)', () => {
    assert.equal(lineRangeFragment({ line: 1, character: 0 }, { line: 4, character: 0 }), 'L2-L4');
  });

  it('includes the last line when the selection ends inside it', () => {
    assert.equal(lineRangeFragment({ line: 1, character: 0 }, { line: 2, character: 7 }), 'L2-L3');
  });

  it('names a single line once', () => {
    assert.equal(lineRangeFragment({ line: 3, character: 2 }, { line: 3, character: 9 }), 'L4');
    assert.equal(lineRangeFragment({ line: 3, character: 0 }, { line: 4, character: 0 }), 'L4');
  });

  it('keeps a selection that is empty at a line start on that line', () => {
    assert.equal(lineRangeFragment({ line: 6, character: 0 }, { line: 6, character: 0 }), 'L7');
  });
});
