/**
 * markdown-it's `punycode.js` (2.3 KiB), done by the browser (esbuild.mjs points markdown-it's
 * import here). A link's host goes to ASCII by the browser's own URL parser, as it will be opened
 * (classifyLink normalises the same way); a link's text keeps the host as written in ASCII
 * (`xn--…`), so a look-alike host reads as what it is, not as the letters it imitates.
 */
function toASCII(host: string): string {
  // An ASCII host is left as written, as punycode.js does; an invalid one throws and markdown-it
  // keeps it as written.
  return /[^\x20-\x7e]/.test(host) ? new URL(`http://${host}`).hostname : host;
}

function toUnicode(host: string): string {
  return host;
}

export default { toASCII, toUnicode };
