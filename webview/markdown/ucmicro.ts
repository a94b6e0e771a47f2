/**
 * markdown-it's `uc.micro` (5 KiB of Unicode tables), done by the browser's own regular expressions
 * (esbuild.mjs points markdown-it's import here). markdown-it asks only whether a character is
 * Unicode punctuation or a symbol (for emphasis); the tables and `\p{…}` agree on every code point
 * (test/webview/markdownLibraries.test.ts: both Unicode 17), and a browser on a later Unicode knows more.
 */
export const P = /\p{P}/u;
export const S = /\p{S}/u;
