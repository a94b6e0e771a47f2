// The unit suite (`npx mocha`; `npx mocha test/unit/x.test.ts` runs that file alone).
module.exports = require('./test/support/mochaSuite.cjs').suiteConfig('test/unit/**/*.test.ts', {
  timeout: 20000,
});
