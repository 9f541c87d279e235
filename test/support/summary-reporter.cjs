// Writes jest's totals to .tmp/jest-summary.json so .ci/run can add them up with other runners.
const fs = require('node:fs');
const path = require('node:path');

class SummaryReporter {
  constructor(globalConfig) {
    this.root = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const out = path.join(this.root, '.tmp', 'jest-summary.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    const failedSuites = results.numRuntimeErrorTestSuites;
    fs.writeFileSync(
      out,
      JSON.stringify({
        passed: results.numPassedTests,
        failed: results.numFailedTests + failedSuites,
        total: results.numTotalTests,
      }),
    );
  }
}

module.exports = SummaryReporter;
