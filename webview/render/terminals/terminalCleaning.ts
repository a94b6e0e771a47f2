// eslint-disable-next-line no-control-regex -- ANSI escape sequences start with ESC
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

// eslint-disable-next-line no-control-regex -- an escape sequence cut off at the end of the output so far
export const PARTIAL_ESCAPE = /\u001b(\[[0-9;?]*[ -/]*|\][^\u0007\u001b]*)?$/;

/** Terminal text without colour codes; a line rewritten with \r shows its last state. */
export function cleanTerminalText(output: string): string {
  return output
    .replace(ANSI, '')
    .split('\n')
    .map((line) => {
      const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
      return trimmed.slice(trimmed.lastIndexOf('\r') + 1);
    })
    .join('\n');
}
