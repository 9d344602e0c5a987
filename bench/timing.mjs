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
