// The options every mocha suite shares, and the rule that keeps a file argument narrow: mocha adds the
// files named on its command line to its config's `spec` instead of replacing it, so a config that always
// names its spec makes `mocha --config <suite> one.test.ts` run the whole suite. Each suite's `.mocharc.cjs`
// therefore gives its spec only when no test file is named.
const path = require('node:path');

/** Options whose next argument is a module or file to load, not a test file to run. */
const TAKES_PATH = new Set(['--file', '--require', '-r', '--ignore', '--exclude', '--config', '--reporter']);

/** The test files (or globs of them) named on the command line: TypeScript paths that are not an option's value. */
function namedTestFiles(argv) {
  return argv.filter(
    (arg, index) => !arg.startsWith('-') && arg.endsWith('.ts') && !TAKES_PATH.has(argv[index - 1]),
  );
}

/** A suite's mocha config: `spec` (a glob) runs only when the command line names no test file. */
function suiteConfig(spec, options) {
  const base = {
    'node-option': ['import=tsx'],
    reporter: path.join(__dirname, 'specWithSummary.cjs'),
    'forbid-only': true,
    'forbid-pending': true,
  };
  const named = namedTestFiles(process.argv.slice(2)).length > 0;
  return { ...base, ...(named ? {} : { spec: [spec] }), ...options };
}

module.exports = { suiteConfig, namedTestFiles };
