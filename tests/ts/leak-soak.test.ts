import { execFileSync } from "node:child_process";
import * as path from "node:path";

import { BACKENDS } from "./backends";
import { GENERATED } from "./golden";

// Leak soak (issue 8), run by leak-soak-child.mjs in a Node process of its own (it says why):
// 10^5 create/use/dispose cycles of every wasm-backed object leave the live wasm handles, the wasm
// heap's size and the bytes allocated in it where a warm-up left them; objects never disposed (and
// key walks never finished) are freed by the FinalizationRegistry once collected, and their memory
// is reused rather than grown into.

interface HeapState {
  handles: number;
  heapBytes: number;
  heapInUse: number;
}

/** What leak-soak-child.mjs prints: the state after the warm-up, then after each step. */
interface SoakReport {
  node: string;
  backend: string;
  phase: string;
  start: HeapState;
  steps: (HeapState & { cycles?: number; forgotten?: number; collections?: number })[];
}

function soak(simd: boolean, phase: "disposed" | "forgotten"): { report: SoakReport; trace: string } {
  const out = execFileSync(
    process.execPath,
    [
      "--expose-gc",
      path.join(__dirname, "leak-soak-child.mjs"),
      simd ? "simd" : "scalar",
      phase,
      GENERATED.dir,
    ],
    { cwd: path.join(__dirname, "..", "..") },
  ).toString();
  return { report: JSON.parse(out) as SoakReport, trace: `leak-soak-child.mjs reported ${out.trim()}` };
}

describe.each(BACKENDS)("leak soak on $name", ({ simd, name }) => {
  test("10^5 create/dispose cycles leave handles and heap as they were", () => {
    const { report, trace } = soak(simd, "disposed");
    expect({ backend: report.backend, cycles: report.steps.map((step) => step.cycles), trace }).toEqual({
      backend: name,
      cycles: [100_000],
      trace,
    });
    const { cycles: _cycles, ...after } = report.steps[0]!;
    expect({ after, trace }).toEqual({ after: report.start, trace });
  });

  test("objects never disposed are freed once collected (FinalizationRegistry)", () => {
    const { report, trace } = soak(simd, "forgotten");
    // Each of the two rounds drops 1000 filters, filter blocks, tables and unfinished key walks.
    expect({ forgotten: report.steps.map((step) => step.forgotten), trace }).toEqual({
      forgotten: [4000, 4000],
      trace,
    });
    for (const { forgotten: _forgotten, collections: _collections, ...after } of report.steps) {
      // Everything freed, and the memory of the first round reused by the second (heapBytes).
      expect({ after, trace }).toEqual({ after: report.start, trace });
    }
  });
});
