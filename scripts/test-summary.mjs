// Prints the closing lines over CTest and Jest: which corpora the tests ran, and
// "total: N passed, N failed".
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";

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

// The same lookup as tests/cpp/golden.cc and tests/ts/golden.ts.
const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const extra = path.resolve(process.env.SSTFILTER_GOLDEN_DIR || path.join(repo, "..", "shared", "golden"));
console.log(
  `corpora: generated (build/corpus), fixtures (tests/corpus/fixtures), extra ${
    existsSync(path.join(extra, "manifest.json")) ? `${extra}: ran` : "(none found): not run"
  }`,
);
console.log(`total: ${passed} passed, ${failed} failed`);
