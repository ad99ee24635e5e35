// A @web/test-runner reporter that counts passed, failed and skipped tests and writes the totals
// to WTR_COUNTS_FILE, so `npm test` can print one closing line for both runners.
import { writeFileSync } from 'node:fs';

function countSuite(suite, totals) {
  for (const test of suite.tests ?? []) {
    if (test.skipped) totals.skipped += 1;
    else if (test.passed) totals.passed += 1;
    else totals.failed += 1;
  }
  for (const child of suite.suites ?? []) countSuite(child, totals);
}

export function countingReporter() {
  return {
    onTestRunFinished({ sessions }) {
      const totals = { passed: 0, failed: 0, skipped: 0, sessionsFailed: 0 };
      for (const session of sessions) {
        if (session.testResults) countSuite(session.testResults, totals);
        // A file that failed to load has errors but no test results: count it as a failure.
        if (!session.passed && (session.errors?.length ?? 0) > 0) totals.sessionsFailed += 1;
      }
      if (process.env.WTR_COUNTS_FILE) writeFileSync(process.env.WTR_COUNTS_FILE, JSON.stringify(totals));
    },
  };
}
