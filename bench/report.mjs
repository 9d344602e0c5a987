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

/** Logs each of `targets` met or not, its value as `valueText` writes it, beside its limit. */
export function logTargets(log, targets, valueText) {
  for (const t of targets)
    log(`${t.met ? "met    " : "NOT MET"} ${t.name}: ${valueText(t.value)} ${t.unit} (target ${t.limit})`);
}
