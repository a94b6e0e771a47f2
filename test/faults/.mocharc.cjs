// The fault-injection suite (`npx mocha --config test/faults/.mocharc.cjs [file]`); gc is exposed for the leak checks.
module.exports = require('../support/mochaSuite.cjs').suiteConfig('test/faults/**/*.test.ts', {
  'node-option': ['import=tsx', 'expose-gc'],
  timeout: 60000,
});
