// The end-to-end suite in real VS Code (`npx mocha --config test/e2e/.mocharc.cjs [file]`).
module.exports = require('../support/mochaSuite.cjs').suiteConfig('test/e2e/**/*.e2e.test.ts', {
  timeout: 120000,
  slow: 20000,
});
