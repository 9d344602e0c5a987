#!/usr/bin/env node
// The `sstfilter` command: inspect, probe and verify LevelDB / RocksDB table files, build filters.
// Exit codes: 0 success (probe: every key may be present); 1 a negative finding (probe: some key is
// definitely absent; verify: the file is corrupt; get: the file holds nothing for the key); 2 usage
// error; 3 the input could not be read or decoded.
import { createReadStream } from "node:fs";
import { open, readFile, rm, stat, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { availableParallelism } from "node:os";
import { parseArgs, type ParseArgsConfig } from "node:util";

import type { FilterFormat } from "../api/api.js";
import { compareBytes } from "../api/entries.js";
import type { WriteOptions } from "../api/table-writer.js";
import type { FilterSummary } from "../api/filter-report.js";
import {
  init,
  SstFilterError,
  summarizeTableFilter,
  verifyTable,
  type AsyncTable,
  type BlobIndex,
  type Database,
  type Entry,
  type EntryOptions,
  type LookupExplanation,
  type NodeSstFilter,
  type OpenTableOptions,
  type ScanTextOptions,
  type SstFilterErrorCode,
  type TablePropertyValue,
} from "../platform/node.js";
import { byteSize, count, keyOrderText, parseHex, percent, plural, printableText, toHex } from "./format.js";
import { walAndOptions } from "./db-wal.js";
import { dbGet, dbGetKey } from "./db-get.js";
import { dbVerify } from "./db-verify.js";
import { dbDumpLines, DUMP_DECODE_NAMES, terminalSafe } from "./db-dump.js";
import { progressBar } from "./progress.js";
import { verifyTableFile } from "../platform/verify-parallel.js";
import { defaultVerifyJobs } from "../api/table-verify.js";

const EXIT_NEGATIVE = 1;
const EXIT_USAGE = 2;
const EXIT_INPUT = 3;

/** A failure with its exit code; main() prints the message. */
class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

const usage = (message: string): CliError => new CliError(message, EXIT_USAGE);

type Options = NonNullable<ParseArgsConfig["options"]>;

interface Command {
  summary: string;
  help: string;
  options: Options;
  run(sf: NodeSstFilter, args: Parsed): Promise<number>;
}

interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

const USER_KEYS_HELP =
  "  --user-keys      the table's keys carry no 8-byte sequence/type tag (a bare TableBuilder wrote it)\n" +
  "  --comparator C   the order of the table's keys, by a built-in comparator's name:\n" +
  "                   leveldb.BytewiseComparator, rocksdb.ReverseBytewiseComparator,\n" +
  "                   leveldb.BytewiseComparator.u64ts, idb_cmp1 (Chrome's IndexedDB). Default:\n" +
  "                   what a RocksDB table records; a LevelDB table (which records none) is read\n" +
  "                   as bytewise when its index ascends bytewise, else conservatively";

/** The options every command that opens a table takes. */
const TABLE_OPTIONS = {
  "user-keys": { type: "boolean" },
  comparator: { type: "string" },
} as const;

// ---------------------------------------------------------------------------------------------
// Formatting

function fromHex(text: string, what: string): Uint8Array {
  const bytes = parseHex(text);
  if (bytes === null) throw usage(`${what} is not hex: ${JSON.stringify(text)}`);
  return bytes;
}

/** A key as text when it is printable UTF-8, else as 0x-prefixed hex. */
function showKey(key: Uint8Array): string {
  const text = printableText(key);
  // Leading/trailing spaces and the empty key would be invisible or ambiguous.
  return text !== null && text.length > 0 && text.trim() === text ? text : `0x${toHex(key)}`;
}

const handle = ([offset, size]: [number, number]): string => `@ ${offset} (${count(size)} bytes)`;

function propertyText(value: TablePropertyValue): string {
  if (typeof value === "object") return `0x${value.hex}`;
  return String(value);
}

function jsonValue(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Float32Array) return Array.from(value, (v) => Math.round(v * 1e4) / 1e4);
  if (value instanceof Uint8Array) return toHex(value);
  return value;
}

/** Where a lookup's answer came from: "filter partition 3 of 31", "filter of the data block @ 0 …". */
function describeRoute(e: LookupExplanation, partitions: number): string {
  // RocksDB reads the data block only after the filter said "may match".
  const then = e.dataBlock && e.mayContain ? `; the lookup goes on to data block ${handle(e.dataBlock)}` : "";
  switch (e.route) {
    case "full-filter":
      return `full filter${then}`;
    case "partition":
      return `filter partition ${e.partition} of ${partitions}${then}`;
    case "block-filter":
      return `filter of the data block ${handle(e.dataBlock!)}`;
    case "no-filter":
      return `no filter${then}`;
    case "outside-prefix-domain":
      return `not filtered: the key has no prefix for the prefix filter${then}`;
    case "after-last-key":
      return "after the file's last key";
    case "prefix-extractor-changed":
      return `not filtered: the database's prefix extractor is not the table's${then}`;
    case "any-filter":
      return "every filter that could hold the key (the key order is unknown: answers are conservative)";
  }
}

// ---------------------------------------------------------------------------------------------
// Errors: name the file, the code and the byte offset.

function inputError(file: string, error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof SstFilterError)
    return new CliError(`${file}: ${error.code}: ${error.message}`, EXIT_INPUT);
  const e = error as NodeJS.ErrnoException;
  if (typeof e?.code === "string" && typeof e.message === "string") {
    return new CliError(`${file}: ${e.code === "ENOENT" ? "no such file" : e.message}`, EXIT_INPUT);
  }
  return new CliError(`${file}: ${String(error)}`, EXIT_INPUT);
}

/** The table options of the command line: --user-keys, --comparator. */
function tableOpenOptions(args: Parsed): OpenTableOptions {
  const comparator = args.values.comparator;
  return {
    internalKeys: args.values["user-keys"] !== true,
    ...(typeof comparator === "string" ? { comparator } : {}),
  };
}

function openTable(sf: NodeSstFilter, file: string, args: Parsed): Promise<AsyncTable> {
  return sf.openTableFile(file, tableOpenOptions(args));
}

/** Opens `file`, runs `use` on it and closes it; what fails is reported as about the file. */
async function withTable(
  sf: NodeSstFilter,
  file: string,
  args: Parsed,
  use: (table: AsyncTable) => Promise<number>,
): Promise<number> {
  const table = await openTable(sf, file, args).catch((error: unknown) => {
    throw inputError(file, error);
  });
  try {
    return await use(table);
  } catch (error) {
    throw inputError(file, error);
  } finally {
    table.dispose();
  }
}

function onePath(args: Parsed, command: string): string {
  if (args.positionals.length !== 1)
    throw usage(`${command} takes one file (see sstfilter ${command} --help)`);
  return args.positionals[0]!;
}

// ---------------------------------------------------------------------------------------------
// inspect

function filterLines(summary: FilterSummary, table: AsyncTable): string[] {
  const info = table.filter!;
  const first = summary.parts.find((p) => p.details !== null)?.details;
  const layout =
    table.format === "leveldb"
      ? `filter block of ${summary.parts.length} filters (one per 2 KiB of data offsets)`
      : info.partitioned
        ? `partitioned, ${info.partitions} partitions`
        : "full filter";
  const lines = [`${summary.kind} (policy ${info.policy}), ${layout}, ${count(info.sizeBytes)} bytes`];
  const keys =
    summary.keys === null
      ? "keys unknown"
      : `${count(summary.keys)} keys (${summary.keysSource === "counted" ? "counted" : summary.keysSource})`;
  const params = [keys];
  if (summary.bitsPerKey !== null) params.push(`${summary.bitsPerKey.toFixed(2)} bits/key`);
  if (first && first.numProbes > 0) params.push(`${first.numProbes} probes`);
  if (first && first.kind === "rocksdb-ribbon") params.push(`seed ${first.ribbonSeed}`);
  lines.push(params.join(", "));
  if (info.prefixExtractor !== null) {
    lines.push(
      `prefix extractor ${info.prefixExtractor}, whole keys ${info.wholeKeyFiltering ? "too" : "not added"}`,
    );
  }
  const rates = [];
  if (summary.estimatedFpRate !== null)
    rates.push(`estimated ${percent(summary.estimatedFpRate)} (RocksDB's formula)`);
  if (summary.measuredFpRate !== null) {
    rates.push(`measured ${percent(summary.measuredFpRate)} on ${count(summary.samples)} absent keys`);
  }
  if (rates.length > 0) lines.push(`false positives: ${rates.join(", ")}`);
  // One pass over every part's densities: a 2 GB table's filter has over half a million blocks,
  // too many to spread into Math.min's arguments.
  let blocks = 0;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const part of summary.parts) {
    for (const d of part.density) {
      blocks++;
      sum += d;
      min = Math.min(min, d);
      max = Math.max(max, d);
    }
  }
  if (blocks > 0) {
    lines.push(
      `bits set ${percent(sum / blocks)} over ${count(blocks)} 64-byte blocks ` +
        `(min ${percent(min)}, max ${percent(max)})`,
    );
  }
  return lines;
}

async function inspect(sf: NodeSstFilter, args: Parsed): Promise<number> {
  const file = onePath(args, "inspect");
  return withTable(sf, file, args, async (table) => {
    // LevelDB records no key count: count the keys of each filter's range (reads the data blocks;
    // where one fails, the counts stay unknown and `verify` tells what is wrong).
    let keysPerLevelDbFilter: number[] | null = null;
    if (table.format === "leveldb" && table.filter !== null) {
      const report = await verifyTable(table);
      if (report.error === null) keysPerLevelDbFilter = report.keysPerLevelDbFilter;
    }
    const summary = await summarizeTableFilter(sf, table, { keysPerLevelDbFilter });
    if (args.values.json === true) {
      const { parts, ...overall } = summary ?? { parts: [] };
      const out = {
        file,
        format: table.format,
        order: table.order,
        footer: table.footer,
        metaindex: table.metaindex,
        properties: table.properties,
        filter: table.filter && { ...table.filter, ...overall, parts },
      };
      process.stdout.write(JSON.stringify(out, jsonValue, 2) + "\n");
      return 0;
    }
    const out: string[] = [];
    const row = (label: string, lines: string[]): void => {
      lines.forEach((line, i) => out.push(`${(i === 0 ? label : "").padEnd(12)}${line}`));
    };
    const f = table.footer;
    row("file", [file]);
    row("format", [
      `${table.format}${table.format === "rocksdb" ? ` block-based table, format_version ${f.formatVersion}` : " table"}`,
    ]);
    row("checksum", [f.checksum]);
    row("order", [keyOrderText(table.order)]);
    row("footer", [`metaindex ${handle(f.metaindexHandle)}`, `index ${handle(f.indexHandle)}`]);
    const meta = Object.entries(table.metaindex);
    row("metaindex", meta.length === 0 ? ["(empty)"] : meta.map(([name, h]) => `${name} ${handle(h)}`));
    row("filter", summary === null ? ["none"] : filterLines(summary, table));
    const props = Object.entries(table.properties);
    if (props.length > 0) {
      const width = Math.max(...props.map(([name]) => name.length));
      row(
        "properties",
        props.map(([name, value]) => `${name.padEnd(width)}  ${propertyText(value)}`),
      );
    }
    process.stdout.write(out.join("\n") + "\n");
    return 0;
  });
}

// ---------------------------------------------------------------------------------------------
// probe

async function probe(sf: NodeSstFilter, args: Parsed): Promise<number> {
  const [file, ...keyArgs] = args.positionals;
  if (file === undefined || keyArgs.length === 0) throw usage("probe takes a file and at least one key");
  const keys = keyArgs.map((k) =>
    args.values.hex === true ? fromHex(k, "key") : new TextEncoder().encode(k),
  );
  return withTable(sf, file, args, async (table) => {
    const partitions = table.filter?.partitions ?? 0;
    const results = [];
    for (const key of keys) results.push(await table.explainMayContain(key));
    const shown = keys.map(showKey);
    const width = Math.max(...shown.map((s) => s.length));
    results.forEach((e, i) => {
      const verdict = e.mayContain ? "may be in this file       " : "definitely not in this file";
      process.stdout.write(`${shown[i]!.padEnd(width)}  ${verdict}  (${describeRoute(e, partitions)})\n`);
    });
    return results.every((e) => e.mayContain) ? 0 : EXIT_NEGATIVE;
  });
}

// ---------------------------------------------------------------------------------------------
// build

const FORMATS: FilterFormat[] = ["leveldb", "rocksdb-legacy-bloom", "rocksdb-bloom", "rocksdb-ribbon"];

/** One key per line: a final newline ends the last key; "\r\n" line ends are accepted. */
function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

async function build(sf: NodeSstFilter, args: Parsed): Promise<number> {
  const file = onePath(args, "build");
  const format = args.values.format;
  if (typeof format !== "string" || !FORMATS.includes(format as FilterFormat)) {
    throw usage(`--format must be one of ${FORMATS.join(", ")}`);
  }
  const bitsText = args.values["bits-per-key"];
  const bitsPerKey = Number(bitsText);
  if (typeof bitsText !== "string" || bitsText.trim() === "" || !Number.isFinite(bitsPerKey)) {
    throw usage("--bits-per-key takes a number, e.g. 10 or 9.9");
  }
  const output = args.values.output;
  if (typeof output !== "string" && process.stdout.isTTY) {
    throw usage("the filter is binary: name a file with -o, or redirect standard output");
  }
  let text: string;
  try {
    text = file === "-" ? await readStdin() : await readFile(file, "utf8");
  } catch (error) {
    throw inputError(file, error);
  }
  const lines = splitLines(text);
  const keys = args.values.hex === true ? lines.map((l, i) => fromHex(l, `${file} line ${i + 1}`)) : lines;
  let bytes: Uint8Array;
  try {
    bytes = sf.buildFilter(keys, { format: format as FilterFormat, bitsPerKey });
  } catch (error) {
    if (error instanceof SstFilterError && error.code === "BAD_OPTIONS") throw usage(error.message);
    throw inputError(file, error);
  }
  if (typeof output === "string") {
    await writeFile(output, bytes);
  } else {
    process.stdout.write(bytes);
  }
  process.stderr.write(
    `${format} filter, ${count(keys.length)} keys at ${bitsPerKey} bits/key: ${count(bytes.length)} bytes` +
      `${typeof output === "string" ? ` written to ${output}` : ""}\n`,
  );
  return 0;
}

// ---------------------------------------------------------------------------------------------
// write

/** A whole number option, or undefined when absent. */
function wholeOption(args: Parsed, name: string): number | undefined {
  const text = args.values[name];
  if (text === undefined) return undefined;
  const n = Number(text);
  if (typeof text !== "string" || !/^[0-9]+$/.test(text) || !Number.isSafeInteger(n)) {
    throw usage(`--${name} takes a whole number, got ${JSON.stringify(text)}`);
  }
  return n;
}

function writeOptions(args: Parsed): WriteOptions {
  const v = args.values;
  const format = v.format ?? "rocksdb";
  if (format !== "rocksdb" && format !== "leveldb") throw usage('--format must be "rocksdb" or "leveldb"');
  const opts: WriteOptions = { format };
  const set = <K extends keyof WriteOptions>(
    key: K,
    value: Exclude<WriteOptions[K], undefined> | undefined,
  ): void => {
    if (value !== undefined) opts[key] = value;
  };
  const text = (name: string): string | undefined =>
    typeof v[name] === "string" ? (v[name] as string) : undefined;
  set("formatVersion", wholeOption(args, "format-version"));
  set("filter", text("filter") as WriteOptions["filter"]);
  const bits = text("bits-per-key");
  if (bits !== undefined) {
    const bitsPerKey = Number(bits);
    if (bits.trim() === "" || !Number.isFinite(bitsPerKey)) throw usage("--bits-per-key takes a number");
    set("bitsPerKey", bitsPerKey);
  }
  if (v["partition-filters"] === true) set("partitionFilters", true);
  const indexType = text("index-type");
  if (indexType !== undefined && indexType !== "binary-search" && indexType !== "two-level") {
    throw usage('--index-type must be "binary-search" or "two-level"');
  }
  set("indexType", indexType as WriteOptions["indexType"]);
  set("metadataBlockSize", wholeOption(args, "metadata-block-size"));
  set("prefixExtractor", text("prefix-extractor"));
  const decouple = text("decouple-partitioned-filters");
  if (decouple !== undefined) {
    if (decouple !== "true" && decouple !== "false") {
      throw usage("--decouple-partitioned-filters takes true or false");
    }
    set("decouplePartitionedFilters", decouple === "true");
  }
  const whole = text("whole-key-filtering");
  if (whole !== undefined) {
    if (whole !== "true" && whole !== "false") throw usage("--whole-key-filtering takes true or false");
    set("wholeKeyFiltering", whole === "true");
  }
  set("compression", text("compression"));
  set("checksum", text("checksum"));
  set("blockSize", wholeOption(args, "block-size"));
  set("restartInterval", wholeOption(args, "restart-interval"));
  const properties = v.property as unknown as string[] | undefined;
  if (properties !== undefined) {
    const record: Record<string, string> = {};
    for (const p of properties) {
      const eq = p.indexOf("=");
      if (eq <= 0) throw usage(`--property takes NAME=VALUE, got ${JSON.stringify(p)}`);
      record[p.slice(0, eq)] = p.slice(eq + 1);
    }
    set("properties", record);
  }
  return opts;
}

/** The lines of a file or standard input, one at a time (a file larger than memory streams). */
function inputLines(input: string): AsyncIterable<string> {
  const stream = input === "-" ? process.stdin : createReadStream(input);
  return createInterface({ input: stream, crlfDelay: Infinity });
}

async function write(sf: NodeSstFilter, args: Parsed): Promise<number> {
  if (args.positionals.length > 1)
    throw usage("write takes at most one input file (see sstfilter write --help)");
  const input = args.positionals[0] ?? "-";
  const output = args.values.output;
  if (typeof output !== "string") throw usage("write needs --output FILE");
  const hex = args.values.hex === true;
  const opts = writeOptions(args);
  let writer;
  try {
    writer = sf.createTableWriter(opts);
  } catch (error) {
    if (error instanceof SstFilterError) throw usage(`${error.code}: ${error.message}`);
    throw error;
  }
  using w = writer;
  const encoder = new TextEncoder();
  const entry = (line: string, number: number): [Uint8Array, Uint8Array] => {
    const tab = line.indexOf("\t");
    const key = tab < 0 ? line : line.slice(0, tab);
    const value = tab < 0 ? "" : line.slice(tab + 1);
    if (!hex) return [encoder.encode(key), encoder.encode(value)];
    return [fromHex(key, `${input} line ${number}`), fromHex(value, `${input} line ${number}`)];
  };
  const file = await open(output, "w");
  let lineNumber = 0;
  try {
    const put = ([key, value]: [Uint8Array, Uint8Array]): void => {
      try {
        w.put(key, value);
      } catch (error) {
        if (error instanceof SstFilterError && error.code === "BAD_KEY") {
          throw new CliError(`${input} line ${lineNumber}: BAD_KEY: ${error.message}`, EXIT_INPUT);
        }
        throw error;
      }
    };
    try {
      if (args.values.sort === true) {
        const entries: [Uint8Array, Uint8Array][] = [];
        for await (const line of inputLines(input)) entries.push(entry(line, ++lineNumber));
        entries.sort((a, b) => compareBytes(a[0], b[0]));
        lineNumber = 0;
        for (const e of entries) {
          lineNumber++;
          put(e);
        }
      } else {
        for await (const line of inputLines(input)) {
          put(entry(line, ++lineNumber));
          // Hand finished blocks to the file now and then: memory stays at about a MiB.
          if (w.pendingBytes >= 1 << 20) await file.write(w.takeOutput());
        }
      }
      await file.write(w.finish());
    } catch (error) {
      throw inputError(input, error);
    }
  } catch (error) {
    // Nothing partial is left behind as if it were a table.
    await file.close();
    await rm(output, { force: true });
    throw error;
  }
  await file.close();
  process.stderr.write(
    `${opts.format} table, ${count(w.entries)} entries: ${count(w.fileSize)} bytes written to ${output}\n`,
  );
  return 0;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

// ---------------------------------------------------------------------------------------------
// verify

const CORRUPTION = new Set<SstFilterErrorCode>(["TRUNCATED", "CORRUPT", "CHECKSUM_MISMATCH"]);

async function verify(sf: NodeSstFilter, args: Parsed): Promise<number> {
  const file = onePath(args, "verify");
  const jobsArg = args.values.jobs;
  const chosenJobs = jobsArg === undefined ? undefined : Number(jobsArg);
  if (chosenJobs !== undefined && (!Number.isSafeInteger(chosenJobs) || chosenJobs < 1))
    throw usage(`--jobs must be a whole number >= 1, got ${jobsArg}`);
  let table: AsyncTable;
  try {
    table = await openTable(sf, file, args);
  } catch (error) {
    // A file that does not even open is corrupt, unless it could not be read or is unsupported.
    if (error instanceof SstFilterError && CORRUPTION.has(error.code)) {
      process.stdout.write(`${file}: CORRUPT\n  ${error.code}: ${error.message}\n`);
      return EXIT_NEGATIVE;
    }
    throw inputError(file, error);
  }
  const bar = progressBar();
  try {
    // The entry this tool loads the core with (node.ts) compiled it and set the worker's script.
    const worker = sf.verifyWorkerSetup()!;
    const report = await verifyTableFile(table, file, {
      jobs: chosenJobs ?? defaultVerifyJobs(table, availableParallelism()),
      internalKeys: args.values["user-keys"] !== true,
      worker,
      onProgress: (p) =>
        bar.update(
          p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : 1,
          `${count(p.dataBlocks)} blocks, ${count(p.keys)} keys`,
        ),
    });
    bar.clear();
    const opened = ["footer", "metaindex"];
    if (Object.keys(table.properties).length > 0) opened.push("properties");
    opened.push("index");
    if (table.filter !== null) opened.push("filter");
    const lines = [
      `${plural(report.dataBlocks, "data block")}, ${plural(report.keys, "key")} read` +
        (report.error === null ? ", every checksum matches" : ""),
      `checked when opening: ${opened.join(", ")}` +
        (report.metaBlocks.length > 0 ? `; meta blocks: ${report.metaBlocks.join(", ")}` : ""),
    ];
    if (report.error !== null) {
      lines.push(`${report.error.code}: ${report.error.message}`);
      // The usual cause of this one: a table a bare TableBuilder wrote, read as a database file.
      if (/internal-key tag/.test(report.error.message) && args.values["user-keys"] !== true) {
        lines.push("(if the file holds user keys without tags, try --user-keys)");
      }
    }
    if (report.filterSkipped !== null) {
      lines.push(`keys not probed: ${report.filterSkipped}`);
    } else if (report.falseNegatives > 0) {
      lines.push(`${plural(report.falseNegatives, "key")} the filter rules out although in the file:`);
      for (const fn of report.falseNegativeSamples) {
        lines.push(`  ${showKey(fn.key)} (data block ${handle(fn.dataBlock)})`);
      }
    } else if (report.keys > 0) {
      lines.push(`every key read passes the filter`);
    }
    // A block this reader cannot decode (XPRESS, a custom codec) says nothing against the file.
    const unsupported = report.error?.code === "UNSUPPORTED" && report.falseNegatives === 0;
    const verdict = report.ok ? "ok" : unsupported ? "UNSUPPORTED" : "CORRUPT";
    process.stdout.write(`${file}: ${verdict}\n${lines.map((l) => `  ${l}\n`).join("")}`);
    return report.ok ? 0 : unsupported ? EXIT_INPUT : EXIT_NEGATIVE;
  } catch (error) {
    bar.clear();
    throw inputError(file, error);
  } finally {
    table.dispose();
  }
}

// ---------------------------------------------------------------------------------------------
// scan, get

/** Writes `bytes` to standard output, waiting while its buffer is full. */
async function writeOut(bytes: Uint8Array): Promise<void> {
  if (!process.stdout.write(bytes)) {
    await new Promise<void>((resolve) => process.stdout.once("drain", resolve));
  }
}

/** A key argument: UTF-8 text, or hex with --input-key-hex. */
function keyArgument(args: Parsed, name: string): Uint8Array | undefined {
  const text = args.values[name];
  if (typeof text !== "string") return undefined;
  return args.values["input-key-hex"] === true ? fromHex(text, `--${name}`) : new TextEncoder().encode(text);
}

/** Bytes for --json: printable UTF-8 as a string, anything else (or with --output-hex) { hex }. */
function jsonBytes(bytes: Uint8Array, hex: boolean): string | { hex: string } {
  const text = hex ? null : printableText(bytes);
  return text !== null ? text : { hex: toHex(bytes) };
}

/** A decoded blob index for --json: 64-bit numbers as strings, an inlined value as jsonBytes. */
function blobIndexJson(index: BlobIndex, hex: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { type: index.type };
  if (index.fileNumber !== undefined) out.fileNumber = index.fileNumber.toString();
  if (index.offset !== undefined) out.offset = index.offset.toString();
  if (index.size !== undefined) out.size = index.size.toString();
  if (index.compression !== undefined) out.compression = index.compression;
  if (index.expiration !== undefined) out.expiration = index.expiration.toString();
  if (index.value !== undefined) out.value = jsonBytes(index.value, hex);
  return out;
}

/**
 * What --json shows of a blob index or entity besides the raw value: { blobIndex } or
 * { columns }, or { valueError } (the decoder's message) when the value does not decode.
 */
function decodedValueJson(sf: NodeSstFilter, e: Entry, hex: boolean): Record<string, unknown> {
  try {
    if (e.type === "blob-index") return { blobIndex: blobIndexJson(sf.decodeBlobIndex(e.value), hex) };
    if (e.type === "wide-column-entity") {
      const columns = sf.decodeWideColumns(e.value).map((c) => {
        const column: Record<string, unknown> = {
          name: jsonBytes(c.name, hex),
          value: jsonBytes(c.value, hex),
        };
        if (c.blobIndex !== undefined) column.blobIndex = blobIndexJson(c.blobIndex, hex);
        return column;
      });
      return { columns };
    }
  } catch (error) {
    if (error instanceof SstFilterError) return { valueError: error.message };
    throw error;
  }
  return {};
}

function entryJson(sf: NodeSstFilter, e: Entry, hex: boolean): string {
  const out: Record<string, unknown> = { key: jsonBytes(e.key, hex) };
  // A user-defined timestamp: its bytes as stored, always hex (they are rarely text).
  if (e.timestamp !== undefined) out.timestamp = { hex: toHex(e.timestamp) };
  if (e.seq !== undefined) out.seq = e.seq.toString();
  if (e.type !== undefined) out.type = e.type;
  out.value = jsonBytes(e.value, hex);
  return JSON.stringify({ ...out, ...decodedValueJson(sf, e, hex) }) + "\n";
}

/**
 * scan --decode: an entry with what the record decoder makes of it (values of entries that hold
 * none, such as deletions, are not decoded); a record that does not decode shows the error.
 */
function decodedEntryLine(sf: NodeSstFilter, e: Entry, decoder: string, hex: boolean, json: boolean): string {
  const holdsValue = e.type === undefined || e.type === "put" || e.type === "merge";
  let record: unknown;
  let decodeError: string | undefined;
  if (holdsValue) {
    try {
      record = sf.decoder(decoder).decode(e.key, e.value);
    } catch (error) {
      if (!(error instanceof SstFilterError)) throw error;
      decodeError = `${error.code}: ${error.message}`;
    }
  }
  const recordJson = (): string =>
    JSON.stringify(record, (_k, v: unknown) =>
      typeof v === "bigint" ? v.toString() : v instanceof Uint8Array ? { hex: toHex(v) } : v,
    );
  if (json) {
    const out: Record<string, unknown> = { key: jsonBytes(e.key, hex) };
    if (e.seq !== undefined) out.seq = e.seq.toString();
    if (e.type !== undefined) out.type = e.type;
    out.value = jsonBytes(e.value, hex);
    if (record !== undefined) out.record = JSON.parse(recordJson()) as unknown;
    if (decodeError !== undefined) out.decodeError = decodeError;
    return JSON.stringify(out) + "\n";
  }
  const head = `${showKey(e.key)}${e.seq === undefined ? "" : ` seq:${e.seq}, type:${e.type}`}`;
  const tail = decodeError !== undefined ? `error ${decodeError}` : holdsValue ? recordJson() : "-";
  return terminalSafe(`${head} => ${tail}`) + "\n";
}

async function scan(sf: NodeSstFilter, args: Parsed): Promise<number> {
  const file = onePath(args, "scan");
  if (args.values.prefix !== undefined && args.values.from !== undefined) {
    throw usage("scan takes --prefix or --from, not both (as sst_dump)");
  }
  const opts: EntryOptions = {};
  const from = keyArgument(args, "from");
  const to = keyArgument(args, "to");
  const prefix = keyArgument(args, "prefix");
  if (from !== undefined) opts.from = from;
  if (to !== undefined) opts.to = to;
  if (prefix !== undefined) opts.prefix = prefix;
  const readNum = args.values["read-num"];
  if (typeof readNum === "string") {
    const n = Number(readNum);
    if (!Number.isSafeInteger(n) || n < 0)
      throw usage(`--read-num must be a whole number >= 0, got ${readNum}`);
    opts.limit = n;
  }
  const hex = args.values["output-hex"] === true;
  const decode = args.values.decode;
  if (typeof decode === "string" && !sf.decoderNames().includes(decode)) {
    throw usage(`--decode takes one of ${sf.decoderNames().join(", ")}, got ${JSON.stringify(decode)}`);
  }
  return withTable(sf, file, args, async (table) => {
    if (typeof decode === "string") {
      const encoder = new TextEncoder();
      let lines = "";
      for await (const entry of table.entries(opts)) {
        lines += decodedEntryLine(sf, entry, decode, hex, args.values.json === true);
        if (lines.length >= 1 << 20) {
          await writeOut(encoder.encode(lines));
          lines = "";
        }
      }
      await writeOut(encoder.encode(lines));
    } else if (args.values.json === true) {
      const encoder = new TextEncoder();
      let lines = "";
      for await (const entry of table.entries(opts)) {
        lines += entryJson(sf, entry, hex);
        if (lines.length >= 1 << 20) {
          await writeOut(encoder.encode(lines));
          lines = "";
        }
      }
      await writeOut(encoder.encode(lines));
    } else {
      const output: ScanTextOptions = {
        hex,
        decodeBlobIndex: args.values["decode-blob-index"] === true,
        onErrorText: (text) => process.stderr.write(text),
      };
      for await (const text of table.scanText(opts, output)) await writeOut(text);
    }
    return 0;
  });
}

async function get(sf: NodeSstFilter, args: Parsed): Promise<number> {
  const [file, keyText, ...extra] = args.positionals;
  if (file === undefined || keyText === undefined || extra.length > 0) {
    throw usage("get takes a file and one key (see sstfilter get --help)");
  }
  const key = args.values.hex === true ? fromHex(keyText, "key") : new TextEncoder().encode(keyText);
  const hex = args.values["output-hex"] === true;
  return withTable(sf, file, args, async (table) => {
    const found = await table.get(key);
    if (args.values.json === true) {
      for (const e of found) process.stdout.write(entryJson(sf, e, hex));
    } else {
      // sst_dump's lines (for a range deletion: its start, sequence, type 15 and end).
      process.stdout.write(sf.formatScanLines(found, { hex }));
    }
    return found.length > 0 ? 0 : EXIT_NEGATIVE;
  });
}

// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// db inspect

/** A key for the text view: printable UTF-8 quoted, else hex. */
const keyText = (key: Uint8Array): string => {
  const text = printableText(key);
  return text !== null ? `'${text}'` : `0x${toHex(key)}`;
};

function databaseJson(db: Database): Record<string, unknown> {
  const big = (n: bigint | null): string | null => (n === null ? null : n.toString());
  return {
    format: db.format,
    manifest: db.manifest,
    comparator: db.comparator,
    nextFileNumber: big(db.nextFileNumber),
    lastSequence: big(db.lastSequence),
    editCount: db.editCount,
    manifestEnd: db.manifestEnd,
    columnFamilies: db.columnFamilies.map((cf) => ({
      id: cf.id,
      name: cf.name,
      comparator: cf.comparator,
      logNumber: big(cf.logNumber),
      levels: cf.levels.map((l) => ({
        level: l.level,
        bytes: l.bytes,
        files: l.files.map((f) => ({
          number: big(f.number),
          name: f.name,
          size: f.size,
          smallestKey: jsonBytes(f.smallestKey, false),
          largestKey: jsonBytes(f.largestKey, false),
          smallestSeqno: big(f.smallestSeqno),
          largestSeqno: big(f.largestSeqno),
        })),
      })),
      blobFiles: cf.blobFiles.map((b) => ({
        number: big(b.number),
        totalBlobCount: big(b.totalBlobCount),
        totalBlobBytes: big(b.totalBlobBytes),
        garbageBlobCount: big(b.garbageBlobCount),
        garbageBlobBytes: big(b.garbageBlobBytes),
      })),
    })),
  };
}

function databaseText(dir: string, db: Database): string {
  const lines = [
    `${dir}: ${db.format} database, ${db.manifest} (${plural(db.editCount, "edit")}` +
      `${db.manifestEnd.kind === "torn" ? `, torn tail at byte ${count(db.manifestEnd.offset)}: ${db.manifestEnd.what}` : ""})`,
    `comparator ${db.comparator}, next file ${db.nextFileNumber}, last sequence ${count(db.lastSequence)}`,
  ];
  for (const cf of db.columnFamilies) {
    const files = cf.levels.reduce((n, l) => n + l.files.length, 0);
    const bytes = cf.levels.reduce((n, l) => n + l.bytes, 0);
    // LevelDB has one column family, which it does not name.
    const family = db.format === "leveldb" ? "tables" : `column family ${cf.name} (id ${cf.id})`;
    lines.push(
      `${family}: ${plural(files, "file")}, ${byteSize(bytes)}` +
        (cf.comparator !== db.comparator ? `, comparator ${cf.comparator}` : ""),
    );
    for (const l of cf.levels) {
      if (l.files.length === 0) continue;
      lines.push(`  level ${l.level}: ${plural(l.files.length, "file")}, ${byteSize(l.bytes)}`);
      for (const f of l.files) {
        const seqs = f.smallestSeqno === null ? "" : `  seq ${f.smallestSeqno}..${f.largestSeqno}`;
        lines.push(
          `    ${f.name}  ${count(f.size)} bytes  ${keyText(f.smallestKey)} .. ${keyText(f.largestKey)}${seqs}`,
        );
      }
    }
    for (const b of cf.blobFiles) {
      lines.push(
        `  blob file ${b.number}: ${count(b.totalBlobCount)} blobs, ${count(b.totalBlobBytes)} bytes, ` +
          `${count(b.garbageBlobCount)} garbage`,
      );
    }
  }
  return lines.join("\n") + "\n";
}

async function db(sf: NodeSstFilter, args: Parsed): Promise<number> {
  const [sub, dir, ...extra] = args.positionals;
  if (sub !== "inspect" && sub !== "get" && sub !== "verify" && sub !== "dump") {
    throw usage("db takes a subcommand: inspect, get, verify or dump (see sstfilter db --help)");
  }
  if (dir === undefined || extra.length !== (sub === "get" ? 1 : 0)) {
    throw usage(sub === "get" ? "db get takes a directory and a key" : `db ${sub} takes one directory`);
  }
  const jobsArg = args.values.jobs;
  const jobs = jobsArg === undefined ? undefined : Number(jobsArg);
  if (jobs !== undefined && (!Number.isSafeInteger(jobs) || jobs < 1)) {
    throw usage(`--jobs must be a whole number >= 1, got ${jobsArg}`);
  }
  const format = args.values.format;
  if (format !== undefined && format !== "rocksdb" && format !== "leveldb") {
    throw usage('--format must be "rocksdb" or "leveldb"');
  }
  if (sub === "verify") {
    return dbVerify(sf, dir, { jobs, format, json: args.values.json === true }).catch((error: unknown) => {
      throw inputError(dir, error);
    });
  }
  const database = await sf
    .openDatabase(dir, format === undefined ? {} : { format })
    .catch((error: unknown) => {
      throw inputError(dir, error);
    });
  if (sub === "get") return runDbGet(database, dir, extra[0]!, args);
  if (sub === "dump") return runDbDump(sf, database, dir, args);
  const logs = await walAndOptions(database).catch((error: unknown) => {
    throw inputError(dir, error);
  });
  process.stdout.write(
    args.values.json === true
      ? JSON.stringify({ ...databaseJson(database), ...logs.json }, null, 2) + "\n"
      : databaseText(dir, database) + logs.text,
  );
  return 0;
}

/** The blob folder of an IndexedDB folder: --blob-dir, else `<origin>.indexeddb.blob` beside it. */
async function blobDirOf(dir: string, args: Parsed): Promise<string | undefined> {
  const given = args.values["blob-dir"];
  if (typeof given === "string") return given;
  const base = path.resolve(dir);
  if (!base.endsWith(".leveldb")) return undefined;
  const beside = base.slice(0, -".leveldb".length) + ".blob";
  return (await stat(beside).catch(() => null))?.isDirectory() === true ? beside : undefined;
}

async function runDbDump(sf: NodeSstFilter, database: Database, dir: string, args: Parsed): Promise<number> {
  const decode = args.values.decode;
  if (decode === "") throw usage(`--decode takes one of ${DUMP_DECODE_NAMES.join(", ")}`);
  if (typeof decode === "string" && decode !== "auto" && !sf.decoderNames().includes(decode)) {
    throw usage(`--decode takes one of ${DUMP_DECODE_NAMES.join(", ")}, got ${JSON.stringify(decode)}`);
  }
  const blobDir = await blobDirOf(dir, args);
  const blobs =
    blobDir === undefined
      ? undefined
      : { read: async (p: string) => new Uint8Array(await readFile(path.join(blobDir, ...p.split("/")))) };
  const encoder = new TextEncoder();
  let text = "";
  try {
    for await (const l of dbDumpLines(sf, database, {
      decode: typeof decode === "string" ? decode : null,
      json: args.values.json === true,
      ...(typeof args.values["column-family"] === "string"
        ? { columnFamily: args.values["column-family"] }
        : {}),
      ...(blobs === undefined ? {} : { blobs }),
    })) {
      text += l;
      if (text.length >= 1 << 20) {
        await writeOut(encoder.encode(text));
        text = "";
      }
    }
  } catch (error) {
    await writeOut(encoder.encode(text));
    throw inputError(dir, error);
  } finally {
    database.dispose();
  }
  await writeOut(encoder.encode(text));
  return 0;
}

async function runDbGet(database: Database, dir: string, keyText: string, args: Parsed): Promise<number> {
  const hex = args.values.hex === true;
  const key = dbGetKey(keyText, hex);
  if (key === null) throw usage(`the key is not hex: ${JSON.stringify(keyText)}`);
  const cf = args.values["column-family"];
  const out = await dbGet(database, key, {
    hex,
    explain: args.values.explain === true,
    json: args.values.json === true,
    ...(typeof cf === "string" ? { columnFamily: cf } : {}),
  }).catch((error: unknown) => {
    throw inputError(dir, error);
  });
  process.stdout.write(out.stdout);
  process.stderr.write(out.stderr);
  return out.exitCode;
}

const COMMANDS: Record<string, Command> = {
  inspect: {
    summary: "show a table's format, footer, metaindex, properties and filter",
    help: `Usage: sstfilter inspect <file> [--json] [--user-keys]

Shows the format, footer and checksum type, the metaindex, the filter (kind, layout, keys,
bits/key, probes, RocksDB's estimated false-positive rate next to the rate measured on sampled
absent keys, bit density) and the properties of a LevelDB .ldb or RocksDB .sst file. Reads only
what the database reads when opening it (LevelDB: the data blocks too, to count keys per filter).

  --json           print everything as JSON (64-bit numbers as strings, bytes as hex)
${USER_KEYS_HELP}`,
    options: { json: { type: "boolean" }, ...TABLE_OPTIONS },
    run: inspect,
  },
  probe: {
    summary: "ask a table's filter about keys (exit 1 when one is definitely absent)",
    help: `Usage: sstfilter probe <file> <key>... [--hex] [--user-keys]

Answers, for each user key, what the database's point lookup gets from the file's filter:
"definitely not in this file" or "may be in this file", naming the filter partition or data
block consulted. Exit code 0 when every key may be present, 1 when some key is definitely absent.

  --hex            keys are given in hex (e.g. 6b6579 or 0x6b6579)
${USER_KEYS_HELP}`,
    options: { hex: { type: "boolean" }, ...TABLE_OPTIONS },
    run: probe,
  },
  build: {
    summary: "build the filter LevelDB / RocksDB would store for a list of keys",
    help: `Usage: sstfilter build --format F --bits-per-key B <keys-file> [-o out.bin] [--hex]

Builds exactly the filter bytes the database stores for the keys of <keys-file> (one key per
line, in the order given; "-" reads standard input) and writes them to out.bin or standard
output. A summary goes to standard error.

  --format F        ${FORMATS.join(" | ")}
  --bits-per-key B  bits per key as the database's policy takes them (e.g. 10, or 9.9 for RocksDB)
  -o, --output FILE write the filter here instead of standard output
  --hex             each line is a key in hex`,
    options: {
      format: { type: "string" },
      "bits-per-key": { type: "string" },
      output: { type: "string", short: "o" },
      hex: { type: "boolean" },
    },
    run: build,
  },
  write: {
    summary: "write a table (.sst as RocksDB's SstFileWriter, .ldb as LevelDB's TableBuilder)",
    help: `Usage: sstfilter write --output OUT [INPUT] [options]

Writes the table RocksDB's SstFileWriter (or LevelDB's TableBuilder) would write for the entries
of INPUT (standard input when absent or "-"): one per line, key<TAB>value, keys in ascending
byte order (or --sort). Large inputs stream: the table is written as it grows.

  -o, --output FILE          the table to write
  --hex                      keys and values are hex
  --sort                     sort the input by key first (reads it whole)
  --format F                 rocksdb (default) | leveldb
  --format-version N         RocksDB format_version, 2 to 7 (default 5): 2-5 as RocksDB 7.8.3
                             writes them, 6 and 7 as 11.9 does
  --filter F                 none (default) | ${FORMATS.join(" | ")}
  --bits-per-key B           default 10
  --prefix-extractor P       fixed:N | capped:N (RocksDB)
  --whole-key-filtering B    true (default) | false (RocksDB)
  --compression C            snappy (default) | none | zlib | bzip2 | lz4 | lz4hc | zstd
  --checksum C               xxh3 (RocksDB's default) | crc32c (LevelDB's) | none | xxhash | xxhash64
  --block-size N             default 4096
  --restart-interval N       default 16
  --property NAME=VALUE      a property of your own, or one RocksDB records about who wrote the
                             file and when (rocksdb.creating.db.identity, ...session.identity,
                             ...host.identity, rocksdb.creation.time, ...); repeatable
  --partition-filters        RocksDB: a filter per index partition (implies --index-type two-level)
  --index-type T             binary-search (default) | two-level (RocksDB)
  --metadata-block-size N    index and filter partition size, default 4096 (RocksDB)
  --decouple-partitioned-filters B
                             true (default) | false: format_version 6 and 7 cut filter
                             partitions apart from the index's, as RocksDB 11 does by default

Exit code 0 when the table was written, 2 for a usage error, 3 when the input cannot be read or
its keys do not ascend (nothing is left at OUT then).`,
    options: {
      output: { type: "string", short: "o" },
      hex: { type: "boolean" },
      sort: { type: "boolean" },
      format: { type: "string" },
      "format-version": { type: "string" },
      filter: { type: "string" },
      "bits-per-key": { type: "string" },
      "partition-filters": { type: "boolean" },
      "index-type": { type: "string" },
      "metadata-block-size": { type: "string" },
      "prefix-extractor": { type: "string" },
      "whole-key-filtering": { type: "string" },
      "decouple-partitioned-filters": { type: "string" },
      compression: { type: "string" },
      checksum: { type: "string" },
      "block-size": { type: "string" },
      "restart-interval": { type: "string" },
      property: { type: "string", multiple: true },
    },
    run: write,
  },
  verify: {
    summary: "check every block checksum and every key against the filter",
    help: `Usage: sstfilter verify <file> [--user-keys] [--jobs N]

Reads every block of the file, checking its checksum and decoding it, and probes every key
against the file's filter: a key the filter rules out means a corrupt filter. Shows a progress
bar on standard error when it runs long. Exit code 0 when the file is sound, 1 when it is
corrupt, 3 when it holds blocks this reader cannot decode (XPRESS, custom codecs).

  --jobs N         threads to share the data blocks between (this machine has
                   ${availableParallelism()} cores). Each holds the table's index and filter, so memory grows
                   with N. Default: one thread per core while each has at least 64 MiB of
                   data blocks and the further threads together hold under 64 MiB more
                   (a large table's index and filter alone exceed that: one thread).
${USER_KEYS_HELP}`,
    options: { ...TABLE_OPTIONS, jobs: { type: "string" } },
    run: verify,
  },
  scan: {
    summary: "list a table's entries: key, sequence number, type, value (as sst_dump scan)",
    help: `Usage: sstfilter scan <file> [--from K] [--to K] [--prefix P] [--read-num N]
                     [--input-key-hex] [--output-hex] [--decode-blob-index] [--json]
                     [--decode indexeddb|localstorage|sessionstorage] [--user-keys]

Prints every entry of the file in order, one line each, exactly as
"sst_dump --file=<file> --command=scan" prints its entries:
  'key' seq:N, type:T => value

  --from K          start at the first entry whose user key is >= K
  --to K            stop before the first entry whose user key is >= K
  --prefix P        only entries whose user key starts with P
  --read-num N      at most N entries
  --input-key-hex   K and P are given in hex
  --output-hex      keys and values in hex (sst_dump --output_hex)
  --decode-blob-index  blob indexes decoded: "[blob ref] file:N offset:N size:N compression: C"
                    (sst_dump --decode_blob_index); one that does not decode is reported on
                    standard error, as there
  --json            one JSON object per entry: key, seq (a string), type, value (text, or { hex });
                    blob indexes add blobIndex (decoded), wide-column entities columns
  --decode D        each entry's key and value through the record decoder D (Chrome's stores:
                    indexeddb, localstorage, sessionstorage), the record as JSON (docs/FORMATS.md
                    7.5) after "=>" (--json: "record"); one that does not decode shows its error

With user-defined timestamps (comparator leveldb.BytewiseComparator.u64ts) the lines show the
stored key, timestamp included, as sst_dump does; K and P are user keys without a timestamp
(every version of a key is in or out together), and --json gives the timestamp apart.
${USER_KEYS_HELP}`,
    options: {
      from: { type: "string" },
      to: { type: "string" },
      prefix: { type: "string" },
      "read-num": { type: "string" },
      "input-key-hex": { type: "boolean" },
      "output-hex": { type: "boolean" },
      "decode-blob-index": { type: "boolean" },
      json: { type: "boolean" },
      decode: { type: "string" },
      ...TABLE_OPTIONS,
    },
    run: scan,
  },
  get: {
    summary: "what a table holds for a key: its versions, tombstones, covering range deletions",
    help: `Usage: sstfilter get <file> <key> [--hex] [--output-hex] [--json] [--user-keys]

Looks the user key up as the database's point lookup does (filter, index, data block) and prints
what the file holds for it, newest first, in sst_dump's scan format: each version (a value, a
deletion, a merge operand...) and the range deletions that cover the key. With user-defined
timestamps the key is given without one and every version is printed, the newest timestamp first.
Exit code 0 when the file holds something for the key, 1 when it holds nothing.

  --hex             the key is given in hex
  --output-hex      keys and values in hex
  --json            one JSON object per entry, as scan --json
${USER_KEYS_HELP}`,
    options: {
      hex: { type: "boolean" },
      "output-hex": { type: "boolean" },
      json: { type: "boolean" },
      ...TABLE_OPTIONS,
    },
    run: get,
  },
  db: {
    summary:
      "a whole database: live files per level (db inspect), a key's value and route (db get), every file checked (db verify), its records (db dump)",
    help: `Usage: sstfilter db inspect <dir> [--json] [--format F]
       sstfilter db get <dir> <key> [--hex] [--explain] [--json] [--column-family NAME] [--format F]
       sstfilter db verify <dir> [--jobs N] [--json] [--format F]
       sstfilter db dump <dir> [--decode D] [--json] [--blob-dir DIR] [--column-family NAME]
                       [--format F]

Reads the database's CURRENT and the MANIFEST it names, applies every edit as the database does
on open, and prints the live table files of each column family level by level: name, size, key
range, sequence numbers (RocksDB), and RocksDB's blob files. A MANIFEST whose last record a crash
cut short is read up to it, as RocksDB and LevelDB read it, and the torn tail is reported. Then
the live write-ahead logs (records, batches, sequence range, records per kind, how each ended:
clean, torn by a crash, or corrupt at a byte), the two-phase-commit transactions the logs leave
prepared (neither committed nor rolled back) and, for RocksDB, the newest OPTIONS file with the
comparator, merge operator, prefix extractor, compression, filter policy and format version of
each column family.

db verify checks every live file as "sstfilter verify" checks a table: the MANIFEST and the live
WALs record by record (a torn tail is reported, not an error: recovery reads up to it), each table's
blocks and filter, the tables' sizes against the MANIFEST, each blob file's record and footer CRCs
and its blob count against the MANIFEST. It lists each bad file with its error code and byte
offset. When CURRENT or the MANIFEST cannot be read, that is the first bad file and every table,
log and blob file present is verified.

  --json        the same as JSON; keys as text when printable UTF-8, else { hex } (get: the route
                and result, bytes as hex, sequence numbers as strings)
  --format F    rocksdb | leveldb (default: rocksdb when the directory holds IDENTITY or an
                OPTIONS file, else leveldb)
  --jobs N      verify: tables verified at once, each on its own thread (default: one per core)

Exit code 0 when the database was read (verify: every file is good), 1 when db get found no value
or verify found a bad file, 2 for a usage error, 3 when CURRENT or the MANIFEST is missing or
(inspect, get) corrupt, or db get met a merge chain or a WAL of a WRITE_PREPARED or WRITE_UNPREPARED
TransactionDB: the message names the file and the byte offset.

db get looks the key up as RocksDB's DB::Get does: the memtable (the write-ahead logs replayed as a
TransactionDB recovers them: a prepared transaction counts where it was committed), then
level 0's files newest first, then the one file on each deeper level whose range holds the key;
in each file the filter, then the index and a data block; range deletions count. It prints what
"ldb get" prints: the value and a newline (--hex: 0x and upper-case hex digits), or
"Failed: Get failed: NotFound: " on standard error and exit code 1 when the key is absent or
deleted. A merge chain is not resolved (no merge operator runs): exit code 3, and --explain lists
its operands.

db dump prints the database's records: each live key's newest version across the write-ahead logs
and the tables (deletions dropped), in the database's key order, one line each: key => value, as
quoted text where printable UTF-8, else 0x and hex (--json: {"key", "sequence", "type", "value"},
bytes that are not text as {"hex"}). With --decode the records are decoded (docs/FORMATS.md 7):
  indexeddb       a Chrome IndexedDB folder as the page reads it: one line per object store record,
                  database, object store, key and value in tagged JSON (--json: {"database",
                  "objectStore", "key", "value"}); generated keys injected at the key path, values
                  Blink wrapped in a blob read from the blob folder
  localstorage    Chrome's Local Storage folder: origin, key, value ({"origin", "key", "value"})
  sessionstorage  Chrome's Session Storage folder: origin, key, value ({"namespace", "origin",
                  "key", "value"})
  auto            whichever of these the folder is (IndexedDB: comparator idb_cmp1), else raw
Text lines escape what a terminal cannot show (\\uXXXX).

  --decode D            dump: decode the records (above)
  --blob-dir DIR        dump: IndexedDB's blob folder (default: <origin>.indexeddb.blob beside
                        the .leveldb folder, when there)
  --hex                 get: the key is given in hex (0x optional) and the value printed in hex
  --explain             get: the route instead: one line per memtable or file consulted (the
                        filter's answer, the entry found, blocks read), then the result
  --column-family NAME  get: look in this column family (default: default); dump: dump it`,
    options: {
      json: { type: "boolean" },
      format: { type: "string" },
      jobs: { type: "string" },
      hex: { type: "boolean" },
      explain: { type: "boolean" },
      "column-family": { type: "string" },
      decode: { type: "string" },
      "blob-dir": { type: "string" },
    },
    run: db,
  },
};

const MAIN_HELP = `Usage: sstfilter <command> [options]

Reads LevelDB (.ldb) and RocksDB (.sst) table files and their filters, byte for byte as the
databases do (WebAssembly; no database needed).

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(9)}${c.summary}`)
  .join("\n")}

Run "sstfilter <command> --help" for a command's options.
Exit codes: 0 ok, 1 a key is definitely absent (probe), the file is corrupt (verify) or holds
nothing for the key (get), 2 usage error, 3 the input could not be read or decoded.`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(MAIN_HELP + "\n");
    return name === undefined ? EXIT_USAGE : 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) throw usage(`unknown command ${JSON.stringify(name)} (see sstfilter --help)`);
  let parsed: Parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    }) as Parsed;
  } catch (error) {
    throw usage(`${name}: ${(error as Error).message}`);
  }
  if (parsed.values.help === true) {
    process.stdout.write(command.help + "\n");
    return 0;
  }
  return command.run(await init(), parsed);
}

// Output piped into a reader that stopped early (`sstfilter scan f | head`): done, quietly.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(0);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof CliError) {
      process.stderr.write(`sstfilter: ${error.message}\n`);
      process.exitCode = error.exitCode;
      return;
    }
    if (error instanceof SstFilterError) {
      // Not about an input file: loading the wasm module failed.
      process.stderr.write(`sstfilter: ${error.code}: ${error.message}\n`);
      process.exitCode = EXIT_INPUT;
      return;
    }
    process.stderr.write(
      `sstfilter: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = EXIT_INPUT;
  },
);
