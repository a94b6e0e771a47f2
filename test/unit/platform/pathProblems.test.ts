import { strict as assert } from 'node:assert';
import { pathNameProblem } from '../../../src/core/platform/pathProblems';
import { platformFor } from '../../../src/core/platform/platform';

const win32 = platformFor('win32');

describe('platform: paths Windows would not take as written', () => {
  it('accepts full paths on a drive or a share, 8.3 short names included', () => {
    for (const file of [
      'C:\\work\\src\\a.ts',
      'c:/work/src/a.ts',
      '\\\\server\\share\\work\\a.ts',
      'C:\\PROGRA~1\\tool\\x.txt',
      'C:\\work\\src\\..\\b.ts',
      'C:\\work\\.gitignore',
    ]) {
      assert.equal(pathNameProblem(file, win32), undefined, file);
    }
  });

  it('refuses the device namespace, where `..` and `/` are not what they look like', () => {
    for (const file of [
      '\\\\?\\C:\\work\\..\\secret',
      '\\\\.\\C:\\work\\a',
      '//?/C:/work/a',
      '\\??\\C:\\work\\a',
    ]) {
      assert.match(pathNameProblem(file, win32) ?? '', /device namespace/, file);
    }
  });

  it('refuses paths relative to a drive or to the current drive', () => {
    assert.match(pathNameProblem('C:foo\\bar', win32) ?? '', /current folder of drive C:/);
    assert.match(pathNameProblem('\\work\\a.ts', win32) ?? '', /not a full path/);
    assert.match(pathNameProblem('work\\a.ts', win32) ?? '', /not a full path/);
  });

  it('refuses reserved device names, with or without an extension, in any folder and case', () => {
    for (const name of [
      'CON',
      'nul',
      'aux.txt',
      'Com1.log',
      'LPT9',
      'nul.tar.gz',
      'CONIN$',
      'prn .txt',
      'COM¹',
    ]) {
      assert.match(pathNameProblem(`C:\\work\\${name}`, win32) ?? '', /device Windows reserves/, name);
    }
    assert.equal(pathNameProblem('C:\\work\\console.txt', win32), undefined);
    assert.equal(pathNameProblem('C:\\work\\auxiliary\\x', win32), undefined);
  });

  it('refuses trailing dots and spaces, which Windows drops (.git. is .git)', () => {
    for (const file of [
      'C:\\work\\.git.\\hooks\\pre-commit',
      'C:\\work\\a.txt ',
      'C:\\work\\dir.\\a',
      'C:\\work\\x..',
      'C:\\work\\...\\x',
    ]) {
      assert.match(pathNameProblem(file, win32) ?? '', /ends with a dot or a space/, file);
    }
  });

  it('refuses alternate data streams and forbidden characters', () => {
    assert.match(pathNameProblem('C:\\work\\a.txt:hidden', win32) ?? '', /alternate data stream/);
    assert.match(pathNameProblem('C:\\work\\a.txt::$DATA', win32) ?? '', /alternate data stream/);
    assert.match(pathNameProblem('C:\\work\\a?.txt', win32) ?? '', /forbids/);
    assert.match(pathNameProblem('C:\\work\\a\u0001.txt', win32) ?? '', /forbids/);
  });

  it('has nothing to say on macOS and Linux, where these are ordinary names', () => {
    for (const os of ['darwin', 'linux'] as const) {
      assert.equal(pathNameProblem('/work/CON', platformFor(os)), undefined);
      assert.equal(pathNameProblem('/work/a.txt:x', platformFor(os)), undefined);
    }
  });
});
