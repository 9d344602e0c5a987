// `sstfilter filter-advice FILE|DIR`: how big a filter should be, measured on the table's or the
// database's own keys (ts/api/filter-advice.ts does the measuring; this file reads the command
// line and lays the answer out).
import { stat } from "node:fs/promises";

import {
  adviceSeries,
  filterAdvice,
  type FilterAdvice,
  type FilterAdviceOptions,
  type FilterAdviceRow,
  type FilterAdviceSet,
  type NodeSstFilter,
} from "../../platform/node.js";
import { count, percent } from "../format.js";
import {
  inputError,
  onePath,
  TABLE_OPTIONS,
  usage,
  USER_KEYS_HELP,
  withTable,
  type Command,
  type Parsed,
} from "./shared.js";

/** A whole-number option of at least `min`, undefined when absent; a usage error otherwise. */
function wholeOption(args: Parsed, name: string, min: number): number | undefined {
  const text = args.values[name];
  if (text === undefined) return undefined;
  const n = Number(text);
  if (typeof text !== "string" || !Number.isSafeInteger(n) || n < min) {
    throw usage(`--${name} must be a whole number >= ${min}, got ${String(text)}`);
  }
  return n;
}

/** --bits: "a..b" (whole numbers a to b) or one number. */
function bitsOption(args: Parsed): number[] | undefined {
  const text = args.values.bits;
  if (text === undefined) return undefined;
  const range = /^(\d+)(?:\.\.(\d+))?$/.exec(String(text));
  const from = Number(range?.[1]);
  const to = Number(range?.[2] ?? range?.[1]);
  if (range === null || from < 1 || to > 100 || from > to) {
    throw usage(`--bits must be a..b or a number, whole numbers from 1 to 100, got ${String(text)}`);
  }
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** The command line's FilterAdviceOptions; usage errors for values out of range. */
function adviceOptions(args: Parsed): FilterAdviceOptions {
  const opts: FilterAdviceOptions = {};
  const rate = args.values["fp-rate"];
  if (rate !== undefined) {
    const r = Number(rate);
    if (typeof rate !== "string" || !(r > 0 && r < 1)) {
      throw usage(`--fp-rate must be a rate between 0 and 1 (e.g. 0.01), got ${String(rate)}`);
    }
    opts.fpRate = r;
  }
  const bits = bitsOption(args);
  if (bits !== undefined) opts.bitsPerKey = bits;
  const sample = wholeOption(args, "sample", 1);
  if (sample !== undefined) opts.sample = sample;
  const absent = wholeOption(args, "absent", 1);
  if (absent !== undefined) opts.absentKeys = absent;
  const seed = wholeOption(args, "seed", 0);
  if (seed !== undefined) opts.seed = seed;
  return opts;
}

// Memory for a billion keys in GB (10^9 bytes: a billion keys at 1 byte per key is 1 GB).
const perBillion = (row: FilterAdviceRow): string => `${(row.bytesPerBillionKeys / 1e9).toFixed(2)} GB`;

function rowCells(row: FilterAdviceRow, scaled: boolean): string[] {
  const [low, high] = row.interval;
  const fallback = row.policy === "rocksdb-ribbon" && row.builtKind !== "rocksdb-ribbon" ? " (Bloom)" : "";
  return [
    adviceSeries(row) + fallback,
    String(row.bitsPerKey),
    (scaled ? "≈" : "") + count(row.bytes),
    row.bytesPerKey.toFixed(3),
    perBillion(row),
    percent(row.estimatedFpRate),
    `${percent(row.measuredFpRate)} (${percent(low)}..${percent(high)})`,
  ];
}

const HEADER = [
  "policy",
  "bits/key",
  "bytes",
  "bytes/key",
  "per 10^9 keys",
  "RocksDB est.",
  "measured (95%)",
];

function table(rows: string[][]): string[] {
  const widths = HEADER.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  // Numbers right-aligned, the policy and the measured rate left.
  return rows.map((r) =>
    r
      .map((cell, c) => (c === 0 || c === r.length - 1 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join("  ")
      .trimEnd(),
  );
}

function setLines(set: FilterAdviceSet): string[] {
  const scaled = set.sampledKeys < set.totalKeys;
  const mixed = set.filtering.startsWith("whole-key + ");
  const noun = set.filtering === "whole-key" ? "keys" : mixed ? "keys and prefixes" : "prefixes";
  const keys = scaled
    ? `${count(set.totalKeys)} ${noun}, built on a sample of ${count(set.sampledKeys)} (sizes scaled to all ${noun})`
    : `${count(set.totalKeys)} ${noun}`;
  const probes = set.rows[0]?.probes ?? 0;
  const title =
    set.filtering === "whole-key"
      ? "Whole-key filtering"
      : mixed
        ? `Whole-key and prefix filtering in one filter (${set.filtering.slice("whole-key + ".length)}), probed with whole keys`
        : `Prefix filtering (${set.filtering})`;
  const best = set.best;
  const verdict =
    best === null
      ? `No filter measured meets ${percent(set.fpRate)}: try more bits per key (--bits).`
      : `Smallest meeting ${percent(set.fpRate)}: ${best.policy} at ${best.bitsPerKey} bits/key, ` +
        `${scaled ? "≈" : ""}${count(best.bytes)} bytes (${perBillion(best)} per 10^9 keys), ` +
        `measured ${percent(best.measuredFpRate)}.`;
  return [
    `${title}: ${keys}; each filter probed with ${count(probes)} absent keys`,
    ...table([HEADER, ...set.rows.map((r) => rowCells(r, scaled))]).map((l) => `  ${l}`),
    verdict,
  ];
}

function adviceText(input: string, advice: FilterAdvice): string {
  const lines = [`${input}: filter sizes measured on its own keys (seed ${advice.seed})`, ""];
  for (const set of advice.sets) lines.push(...setLines(set), "");
  lines.push(...advice.notes.map((n) => `Note: ${n}`));
  return lines.join("\n").trimEnd() + "\n";
}

function write(input: string, advice: FilterAdvice, args: Parsed): number {
  process.stdout.write(
    args.values.json === true
      ? JSON.stringify({ input, ...advice }, null, 2) + "\n"
      : adviceText(input, advice),
  );
  return 0;
}

async function run(sf: NodeSstFilter, args: Parsed): Promise<number> {
  const input = onePath(args, "filter-advice");
  const opts = adviceOptions(args);
  const isDir = await stat(input).then(
    (s) => s.isDirectory(),
    (error: unknown) => {
      throw inputError(input, error);
    },
  );
  if (!isDir)
    return withTable(sf, input, args, async (t) => write(input, await filterAdvice(sf, t, opts), args));
  const database = await sf.openDatabase(input).catch((error: unknown) => {
    throw inputError(input, error);
  });
  try {
    return write(input, await filterAdvice(sf, database, opts), args);
  } catch (error) {
    throw inputError(input, error);
  } finally {
    database.dispose();
  }
}

/** `sstfilter filter-advice`. */
export const filterAdviceCommand: Command = {
  summary: "how big a filter should be: every policy measured on the input's keys",
  help: `Usage: sstfilter filter-advice <file|dir> [--fp-rate R] [--bits a..b] [--sample N] [--json]

Builds every filter the databases offer (LevelDB Bloom; RocksDB legacy Bloom, FastLocalBloom,
Ribbon, which writes a FastLocalBloom where that is smaller, marked "(Bloom)"; then, if it did,
Ribbon "(no Bloom fallback)", which RocksDB never writes nor this names best) from the keys of a table,
or of a database's live tables, at a range of bits per key, byte for byte as the library would,
and measures each filter's false-positive rate on absent keys drawn like the real ones (a real
key with its tail bytes replaced), beside RocksDB's own estimate. Where the table names a prefix
extractor, filtering on its prefixes is advised on too, alone and with the whole keys in one
filter (RocksDB's whole_key_filtering with the extractor). LevelDB's row is one filter over all
the keys (LevelDB's filter block adds 5 bytes per 2 KiB of data).

  --fp-rate R      the false-positive rate to meet (default 0.01): the smallest filter whose
                   measured rate is at most R is named
  --bits a..b      bits per key to build at, whole numbers (default 4..20; or one number)
  --sample N       build from N keys at most; more are sampled (seeded reservoir) and sizes scaled
                   to all keys (default 1000000)
  --absent N       absent keys each filter is probed with (default 100000)
  --seed N         seed of the sample and of the absent keys (default 1)
  --json           the advice as JSON: input, seed, sets (filtering, totalKeys, sampledKeys,
                   fpRate, rows, best), notes
${USER_KEYS_HELP}`,
  options: {
    "fp-rate": { type: "string" },
    bits: { type: "string" },
    sample: { type: "string" },
    absent: { type: "string" },
    seed: { type: "string" },
    json: { type: "boolean" },
    ...TABLE_OPTIONS,
  },
  run,
};
