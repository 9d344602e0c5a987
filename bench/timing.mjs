import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

// The clock of the Node harnesses: this process's CPU time (process.cpuUsage), as Google Benchmark
// reports it natively. The machine is shared (two cores, other builds running), and wall time
// would also count the time other processes hold the CPU.
export function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

// ns per item of run(): the best of `rounds` rounds, each repeating run for at least roundMs of
// CPU time, after as long a warm-up (V8 starts wasm and JavaScript in baseline code and swaps in
// optimized code only for later calls).
export function nsPer(items, run, rounds, roundMs) {
  return nsPerEach(items, [run], rounds, roundMs)[0];
}

// nsPer for several runs whose ratio matters, their rounds interleaved (a round of each, then the
// next round of each), so that the machine's drift during the measurement reaches them alike.
export function nsPerEach(items, runs, rounds, roundMs) {
  for (const run of runs) {
    const warmUntil = cpuMs() + roundMs;
    while (cpuMs() < warmUntil) run();
  }
  const best = runs.map(() => Infinity);
  for (let round = 0; round < rounds; round++) {
    runs.forEach((run, i) => {
      let reps = 0;
      const start = cpuMs();
      let elapsed = 0;
      do {
        run();
        reps++;
        elapsed = cpuMs() - start;
      } while (elapsed < roundMs);
      best[i] = Math.min(best[i], (elapsed * 1e6) / (reps * items));
    });
  }
  return best.map((ns) => Number(ns.toPrecision(4)));
}

/** The median of `xs` (the mean of the middle two for an even count). @param {number[]} xs */
export function median(xs) {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Runs a command under GNU time: its exit status, output (stdout discarded unless `keepStdout`),
 * wall and CPU (user + system) seconds and peak resident memory. Node reports no child's rusage,
 * and time writes its figures to a file of their own (-o) so that the command's stderr stays apart.
 * @param {string} cmd @param {string[]} cmdArgs @param {boolean} [keepStdout]
 */
export function measureCommand(cmd, cmdArgs, keepStdout = false) {
  const figures = path.join(tmpdir(), `sstfilter-bench-time-${process.pid}`);
  const run = spawnSync("/usr/bin/time", ["-o", figures, "-f", "%e %U %S %M", cmd, ...cmdArgs], {
    stdio: ["ignore", keepStdout ? "pipe" : "ignore", "pipe"],
    maxBuffer: 1 << 30,
  });
  // A failing command adds a line "Command exited with non-zero status N" before the figures.
  const [wall, user, system, kb] = readFileSync(figures, "utf8")
    .trim()
    .split("\n")
    .pop()
    .split(" ")
    .map(Number);
  rmSync(figures, { force: true });
  return {
    status: run.status,
    signal: run.signal,
    stdout: keepStdout ? run.stdout : Buffer.alloc(0),
    stderr: run.stderr.toString(),
    wallSeconds: wall,
    cpuSeconds: user + system,
    peakRssMb: kb / 1024,
  };
}
