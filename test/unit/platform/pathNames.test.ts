import { strict as assert } from 'node:assert';
import { isLexicallyWithin } from '../../../src/core/files/pathConfinement';
import { isSamePath, nameKey, namesBelow, volumeOf } from '../../../src/core/platform/pathNames';
import { platformFor } from '../../../src/core/platform/platform';

const win32 = platformFor('win32');
const darwin = platformFor('darwin');
const linux = platformFor('linux');

describe('platform: path names compared as each system compares them', () => {
  describe('Windows', () => {
    it('takes drive letters, names in any case and either separator for the same path', () => {
      assert.equal(isSamePath('C:\\work', 'c:\\WORK', win32), true);
      assert.equal(isSamePath('C:/Users/Me/proj/', 'c:\\users\\me\\PROJ', win32), true);
      assert.equal(isSamePath('\\\\Server\\Share\\x', '//server/SHARE/X', win32), true);
      assert.deepEqual(namesBelow('c:/WORK/Src/A.ts', 'C:\\work', win32), ['Src', 'A.ts']);
    });

    it('applies `..\\` by name: a hop out of the folder is outside, whatever the case', () => {
      assert.equal(isLexicallyWithin('C:\\work\\..\\secret', 'C:\\work', win32), false);
      assert.equal(isLexicallyWithin('C:\\WORK\\src\\..\\..\\work-other\\x', 'c:\\work', win32), false);
      assert.equal(isLexicallyWithin('C:\\work\\src\\..\\lib\\x', 'C:\\Work', win32), true);
      assert.equal(isLexicallyWithin('C:\\work-other\\x', 'C:\\work', win32), false);
    });

    it('keeps other drives and shares outside', () => {
      assert.equal(isLexicallyWithin('D:\\work\\x', 'C:\\work', win32), false);
      assert.equal(isLexicallyWithin('\\\\host\\share\\work\\x', 'C:\\work', win32), false);
      assert.equal(isLexicallyWithin('\\\\host\\other\\x', '\\\\host\\share', win32), false);
      assert.equal(volumeOf('c:\\a', win32), volumeOf('C:/b', win32));
      assert.notEqual(volumeOf('C:\\a', win32), volumeOf('D:\\a', win32));
    });

    // Confinement by case: these checks refuse what is inside (a program in the workspace must not
    // run; checkpoint storage must not live in a workspace folder). Compared byte for byte, as on
    // Linux, a different spelling of the same folder would pass for outside.
    it('finds a workspace program or storage inside the folder however its case is spelled', () => {
      assert.equal(
        isLexicallyWithin('c:\\USERS\\me\\proj\\tools\\git.exe', 'C:\\Users\\Me\\Proj', win32),
        true,
      );
      assert.equal(isLexicallyWithin('C:\\Users\\Me\\Proj\\.acp\\store', 'c:\\users\\me\\proj', win32), true);
    });

    it('folds case one letter at a time, as NTFS does (ß is not SS)', () => {
      assert.equal(nameKey('straße', win32) === nameKey('STRASSE', win32), false);
      assert.equal(nameKey('Ärger', win32), nameKey('äRGER', win32));
    });
  });

  describe('macOS', () => {
    it('takes names in any case and in either Unicode normalization for the same path', () => {
      const composed = '/Users/me/Caf\u00e9';
      const decomposed = '/users/ME/cafe\u0301';
      assert.equal(isSamePath(composed, decomposed, darwin), true);
      assert.equal(isLexicallyWithin(`${decomposed}/src/a.ts`, composed, darwin), true);
      assert.equal(isLexicallyWithin('/Users/me/Proj/../Other/x', '/users/me/proj', darwin), false);
    });

    it('does not take `\\` for a separator', () => {
      assert.deepEqual(namesBelow('/work/a\\..\\b', '/work', darwin), ['a\\..\\b']);
    });
  });

  describe('Linux', () => {
    it('compares names byte for byte', () => {
      assert.equal(isSamePath('/work/Proj', '/work/proj', linux), false);
      assert.equal(isSamePath('/work/caf\u00e9', '/work/cafe\u0301', linux), false);
      assert.equal(isLexicallyWithin('/Work/proj/x', '/work/proj', linux), false);
    });
  });

  it('compares exactly when asked, whatever the system (real paths the disk spelled)', () => {
    assert.equal(namesBelow('C:\\Work\\WS\\x', 'C:\\Work\\ws', win32, 'exact'), undefined);
    assert.deepEqual(namesBelow('c:\\Work\\ws\\x', 'C:\\Work\\ws', win32, 'exact'), ['x']);
    assert.equal(namesBelow('/Users/me/WS/x', '/Users/me/ws', darwin, 'exact'), undefined);
  });
});
