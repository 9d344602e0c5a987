// Merges the native Google Benchmark JSON and the wasm harness output into bench/results.json,
// with the machine and tool versions, and prints a table. Usage:
//   node bench/merge-results.mjs <native.json> <wasm.json> <out.json> [--quick]
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";

const [nativePath, wasmPath, outPath] = process.argv.slice(2);
const quick = process.argv.includes("--quick");

const version = (cmd, args) => {
  try {
    return execFileSync(cmd, args, { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .split("\n")[0]
      .trim();
  } catch {
    return "unknown";
  }
};

const results = [];
for (const b of JSON.parse(readFileSync(nativePath, "utf8")).benchmarks) {
  // Names: probe/<format>/<kernel>/<hashes|keys>/<single|batch>/<keys>
  const [, format, kernel, input, mode, keys] = b.name.split("/");
  results.push({
    target: "native",
    kernel,
    format,
    keys: Number(keys),
    input,
    mode,
    value: Number(b.ns_per_probe.toFixed(3)),
    unit: "ns/probe",
  });
}
results.push(...JSON.parse(readFileSync(wasmPath, "utf8")));

const out = {
  generated: new Date().toISOString(),
  quick,
  machine: {
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    compiler: version("g++", ["--version"]),
    emscripten: version("emcc", ["--version"]),
  },
  results,
};
writeFileSync(outPath, JSON.stringify(out, null, 2) + "\n");

console.log("target        kernel   format                keys      input   mode     ns/probe");
for (const r of results) {
  console.log(
    `${r.target.padEnd(13)} ${r.kernel.padEnd(8)} ${r.format.padEnd(21)} ${String(r.keys).padEnd(9)} ${r.input.padEnd(7)} ${r.mode.padEnd(8)} ${r.value}`,
  );
}
console.log(`wrote ${outPath}`);
