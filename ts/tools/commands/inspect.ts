// `sstfilter inspect FILE`: a table's format, footer, metaindex, filter and properties.
import type { FilterSummary } from "../../api/filter-report.js";
import {
  SstFilterError,
  summarizeTableFilter,
  verifyTable,
  type AsyncTable,
  type NodeSstFilter,
  type TablePropertyValue,
} from "../../platform/node.js";
import { terminalSafe } from "../db-dump.js";
import { count, handleLine, keyOrderText, percent, toHex } from "../format.js";
import {
  fromHex,
  onePath,
  HEADER_HELP,
  TABLE_OPTIONS,
  URL_OPTIONS,
  USER_KEYS_HELP,
  withTable,
  type Command,
  type Parsed,
} from "./shared.js";

// An embedded blob table's (RocksDB 11.6+) two varint counts, shown decoded beside their bytes.
const EMBEDDED_BLOB_STATS = "rocksdb.embedded.blob.stats";

function propertyText(sf: NodeSstFilter, name: string, value: TablePropertyValue): string {
  const stored = typeof value === "object" ? `0x${value.hex}` : String(value);
  if (name !== EMBEDDED_BLOB_STATS || typeof value === "number" || typeof value === "bigint") return stored;
  // Printable bytes come as text (wasm/table_bindings.cc Properties), the others as hex.
  const bytes = typeof value === "object" ? fromHex(value.hex, name) : new TextEncoder().encode(value);
  try {
    const stats = sf.decodeEmbeddedBlobStats(bytes);
    return `${count(stats.blobCount)} blob records, ${count(stats.payloadBytes)} payload bytes (${stored})`;
  } catch (error) {
    if (!(error instanceof SstFilterError)) throw error;
    return `${stored} (does not decode: ${error.message})`;
  }
}

function jsonValue(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Float32Array) return Array.from(value, (v) => Math.round(v * 1e4) / 1e4);
  if (value instanceof Uint8Array) return toHex(value);
  return value;
}

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
    // Metaindex and property names are the file's bytes: a crafted one must not drive the terminal.
    const row = (label: string, lines: string[]): void => {
      lines.forEach((line, i) => out.push(terminalSafe(`${(i === 0 ? label : "").padEnd(12)}${line}`)));
    };
    const f = table.footer;
    row("file", [file]);
    row("format", [
      `${table.format}${table.format === "rocksdb" ? ` block-based table, format_version ${f.formatVersion}` : " table"}`,
    ]);
    row("checksum", [f.checksum]);
    row("order", [keyOrderText(table.order)]);
    row("footer", [`metaindex ${handleLine(f.metaindexHandle)}`, `index ${handleLine(f.indexHandle)}`]);
    const meta = Object.entries(table.metaindex);
    row("metaindex", meta.length === 0 ? ["(empty)"] : meta.map(([name, h]) => `${name} ${handleLine(h)}`));
    row("filter", summary === null ? ["none"] : filterLines(summary, table));
    const props = Object.entries(table.properties);
    if (props.length > 0) {
      const width = Math.max(...props.map(([name]) => name.length));
      row(
        "properties",
        props.map(([name, value]) => `${name.padEnd(width)}  ${propertyText(sf, name, value)}`),
      );
    }
    process.stdout.write(out.join("\n") + "\n");
    return 0;
  });
}

/** `sstfilter inspect`. */
export const inspectCommand: Command = {
  summary: "show a table's format, footer, metaindex, properties and filter",
  help: `Usage: sstfilter inspect <file> [--json] [--user-keys]

Shows the format, footer and checksum type, the metaindex, the filter (kind, layout, keys,
bits/key, probes, RocksDB's estimated false-positive rate next to the rate measured on sampled
absent keys, bit density) and the properties of a LevelDB .ldb or RocksDB .sst file. Reads only
what the database reads when opening it (LevelDB: the data blocks too, to count keys per filter).

  --json           print everything as JSON (64-bit numbers as strings, bytes as hex)
${USER_KEYS_HELP}
${HEADER_HELP}`,
  options: { json: { type: "boolean" }, ...TABLE_OPTIONS, ...URL_OPTIONS },
  run: inspect,
};
