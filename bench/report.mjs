// Writing a harness's report: to its own file (--out), and with --merge-into RESULTS_JSON as the
// member `member` of an existing results.json (scripts/bench.sh runs the harnesses one by one).
import { readFileSync, writeFileSync } from "node:fs";

/** Writes `report` to `outFile` and, when args hold --merge-into FILE, into FILE's `member`. */
export function writeReport(args, outFile, member, report) {
  writeFileSync(outFile, JSON.stringify(report, null, 2) + "\n");
  if (!args.includes("--merge-into")) return;
  const into = args[args.indexOf("--merge-into") + 1];
  const merged = JSON.parse(readFileSync(into, "utf8"));
  merged[member] = report;
  writeFileSync(into, JSON.stringify(merged, null, 2) + "\n");
}
