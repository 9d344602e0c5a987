// `sstfilter write --output OUT [INPUT]`: the table SstFileWriter or TableBuilder writes for entries.
import { createReadStream } from "node:fs";
import { open, rm } from "node:fs/promises";
import { createInterface } from "node:readline";

import { compareBytes } from "../../api/entries.js";
import type { WriteOptions } from "../../api/table-writer.js";
import { SstFilterError, type NodeSstFilter } from "../../platform/node.js";
import { count } from "../format.js";
import { FORMATS } from "./build.js";
import {
  CliError,
  EXIT_INPUT,
  fromHex,
  inputError,
  libraryFormatOption,
  usage,
  type Command,
  type Parsed,
} from "./shared.js";

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
  const opts: WriteOptions = { format: libraryFormatOption(args) ?? "rocksdb" };
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
  if (v["separate-key-value-in-data-block"] === true) set("separateKeyValueInDataBlock", true);
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

/** `sstfilter write`. */
export const writeCommand: Command = {
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
  --separate-key-value-in-data-block
                             format_version 6 and 7: data blocks keep values apart from keys,
                             as RocksDB 11's option of that name (RocksDB < 11 cannot read them)

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
    "separate-key-value-in-data-block": { type: "boolean" },
    compression: { type: "string" },
    checksum: { type: "string" },
    "block-size": { type: "string" },
    "restart-interval": { type: "string" },
    property: { type: "string", multiple: true },
  },
  run: write,
};
