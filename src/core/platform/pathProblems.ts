import { hostPlatform, type Platform } from './platform';

/** Device names Windows reserves in every folder, with any extension (`nul.txt` is NUL before Windows 11). */
const RESERVED_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$) *(\..*)?$/i;
/** Characters no Win32 name may hold; `:` would name an alternate data stream (`a.txt:hidden`). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const FORBIDDEN_CHARACTERS = /[<>:"|?*\u0000-\u001f]/;

/**
 * Why a path an agent names cannot be taken as the file it seems to be on this system, in the user's
 * words, or undefined when it can. Only Windows has such paths: one in the device namespace (`\\?\`,
 * `\\.\`, where `..` and `/` are not what they look like), one relative to a drive's or the process's
 * current folder (`C:foo`, `\foo`), a name with a trailing dot or space (Windows drops them, so
 * `.git.` is `.git`), a reserved device name (`CON`, `aux.txt`), an alternate data stream or a
 * character Windows forbids. 8.3 short names (`PROGRA~1`) are allowed: the disk resolves them to the
 * long name before anything is compared (`Disk.realpath`).
 */
export function pathNameProblem(file: string, platform: Platform = hostPlatform()): string | undefined {
  if (platform.os !== 'win32') {
    return undefined;
  }
  if (/^[\\/]{2}[?.][\\/]/.test(file) || /^\\\?\?\\/.test(file)) {
    return 'is in the Windows device namespace (\\\\?\\ or \\\\.\\); give a plain full path such as C:\\folder\\file';
  }
  const root = qualifiedRoot(file);
  if (root === undefined) {
    return /^[a-z]:/i.test(file)
      ? `is relative to the current folder of drive ${file.slice(0, 2)}; give a full path such as ${file.slice(0, 2)}\\folder\\file`
      : 'is not a full path with a drive or a share; give one such as C:\\folder\\file';
  }
  for (const name of file.slice(root.length).split(/[\\/]+/)) {
    const problem = nameProblem(name);
    if (problem !== undefined) {
      return `has a name Windows does not keep as written: "${name}" ${problem}`;
    }
  }
  return undefined;
}

/** `C:\` or `\\server\share\` at the start of `file`, or undefined when it is not fully qualified. */
function qualifiedRoot(file: string): string | undefined {
  return /^[a-z]:[\\/]/i.exec(file)?.[0] ?? /^[\\/]{2}[^\\/]+[\\/]+[^\\/]+(?:[\\/]+|$)/.exec(file)?.[0];
}

function nameProblem(name: string): string | undefined {
  if (name === '' || name === '.' || name === '..') {
    return undefined;
  }
  if (name.includes(':')) {
    return 'names an alternate data stream (":")';
  }
  if (FORBIDDEN_CHARACTERS.test(name)) {
    return 'holds a character Windows forbids in names (< > " | ? * or a control character)';
  }
  if (/[. ]$/.test(name)) {
    return 'ends with a dot or a space, which Windows drops';
  }
  if (RESERVED_DEVICE.test(name)) {
    return 'is a device Windows reserves in every folder';
  }
  return undefined;
}
