// Prints one closing line over CTest and Jest: "total: N passed, N failed".
import { existsSync, readFileSync } from "node:fs";

// Usage: test-summary.mjs <ctest log>... <jest json>
const args = process.argv.slice(2);
const jestJson = args.pop();
let passed = 0;
let failed = 0;

for (const ctestLog of args) {
  const ctest = existsSync(ctestLog) ? readFileSync(ctestLog, "utf8") : "";
  const match = /(\d+)% tests passed, (\d+) tests failed out of (\d+)/.exec(ctest);
  if (match) {
    failed += Number(match[2]);
    passed += Number(match[3]) - Number(match[2]);
  } else {
    failed += 1; // this CTest run did not get to its summary
  }
}

if (existsSync(jestJson)) {
  const jest = JSON.parse(readFileSync(jestJson, "utf8"));
  passed += jest.numPassedTests;
  failed += jest.numFailedTests + jest.numRuntimeErrorTestSuites;
} else {
  failed += 1; // Jest did not write its results
}

console.log(`total: ${passed} passed, ${failed} failed`);
