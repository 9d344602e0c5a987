// Two tables compared (`sf.diffTables(a, b)`, `sstfilter diff A B`; issue 32): what the files say
// about themselves (format, footer, properties, filter, index, data blocks), their entries and
// their range deletions, each merged in the tables' key order (ts/api/entries-diff.ts and
// merged-diff.ts: both walked once, a batch or an item of each in hand, so memory stays bounded
// however large the tables are).
import { SstFilterError } from "../core/errors.js";
import type { LibraryFormat } from "../core/library-format.js";
import type { CompareFunction } from "./comparators.js";
import type { RangeDeletion } from "./entries.js";
import type { FilterDetails } from "./filters.js";
import type { AsyncTable, Table } from "./table.js";
import type { TablePropertyValue } from "./table-types.js";
import { dataEnd } from "./table-verify.js";
import { diffEntryBatches, type EntriesDiff } from "./entries-diff.js";
import { diffMerged, type MergedDiff, type MergeProgress } from "./merged-diff.js";

export type { EntriesDiff, EntryChange } from "./entries-diff.js";

/** What diffTables may be told to ignore: see {@link DiffTablesOptions.ignore}. */
export type DiffIgnore = "seq" | "properties" | `properties:${string}`;

/**
 * diffTables' progress through the entries, merged in key order: entries read of each table, and
 * the entries only in A, only in B and changed among them.
 */
export type DiffProgress = MergeProgress;

/** diffTables' options: what to ignore, how many differing entries to report, the key order, progress. */
export interface DiffTablesOptions {
  /**
   * Fields expected to vary (a golden test's sequence numbers, creation times, session ids):
   * - "seq": entries' and range deletions' sequence numbers, and the properties that record them
   *   (rocksdb.key.smallest.seqno, rocksdb.key.largest.seqno, rocksdb.external_sst_file.global_seqno);
   * - "properties:NAME": the property NAME; a trailing "*" takes every name that starts so
   *   ("properties:rocksdb.creat*");
   * - "properties:volatile": the properties {@link VOLATILE_PROPERTIES} lists (who wrote the file
   *   and when);
   * - "properties": every property.
   */
  ignore?: DiffIgnore[];
  /** How many entries only in A, only in B and changed to report with their keys (all are counted). Default 10. */
  maxReported?: number;
  /**
   * The order of tables opened with a comparator function of your own (`t.order.source`
   * "supplied" and not built in): the same function. Built-in orders need none.
   */
  comparator?: CompareFunction;
  /** Called as the entries are merged, every few thousand entries and once when they are done. */
  onProgress?: (progress: DiffProgress) => void;
}

/**
 * The properties RocksDB records about who wrote a file and when, different in every run
 * (table/table_properties.cc: kDbId, kDbSessionId, kDbHostId, kCreationTime, kFileCreationTime,
 * kOldestKeyTime, kNewestKeyTime, kOriginalFileNumber): "properties:volatile" ignores them.
 */
export const VOLATILE_PROPERTIES: readonly string[] = [
  "rocksdb.creating.db.identity",
  "rocksdb.creating.session.identity",
  "rocksdb.creating.host.identity",
  "rocksdb.creation.time",
  "rocksdb.file.creation.time",
  "rocksdb.oldest.key.time",
  "rocksdb.newest.key.time",
  "rocksdb.original.file.number",
];

// The properties a table's sequence numbers decide (table/table_properties.cc, and the global
// sequence number of an ingested file, table/sst_file_dumper.cc), ignored with "seq".
const SEQUENCE_PROPERTIES = [
  "rocksdb.key.smallest.seqno",
  "rocksdb.key.largest.seqno",
  "rocksdb.external_sst_file.global_seqno",
];

/** A value of a field the two files state, as diffTables compares it. */
export type DiffValue = string | number | boolean | null;

/** One field of the files' self-description that differs, A's value and B's. */
export interface FieldDifference {
  /**
   * Which: "format", "footer.formatVersion", "footer.checksum", "data.bytes",
   * "data.blocks", "index.kind", "index.bytes", "index.partitions", "filter.present",
   * "filter.policy", "filter.kind", "filter.partitions", "filter.wholeKeyFiltering",
   * "filter.prefixExtractor", "filter.bytes", "filter.numProbes", "filter.bitsPerKey",
   * "order.comparator".
   */
  field: string;
  a: DiffValue;
  b: DiffValue;
}

/** A property both tables hold with different values. */
export interface PropertyChange {
  name: string;
  a: TablePropertyValue;
  b: TablePropertyValue;
}

/** A data block: where it lies, its size without the trailer. */
export interface DiffBlock {
  offset: number;
  size: number;
}

/** How the two files are laid out and describe themselves. */
export interface PhysicalDiff {
  /** No field, property, filter byte or data block content differs (what is ignored apart). */
  equal: boolean;
  fields: FieldDifference[];
  /** Properties by name: only in A, only in B, in both with different values (ignored ones left out). */
  properties: { onlyInA: string[]; onlyInB: string[]; changed: PropertyChange[] };
  /**
   * The first 64-byte block of the filters' stored bytes that differs: the filter part (partition,
   * or 0 for a full filter or LevelDB's filter block) and the block's offset in it; null when
   * the filters' bytes are the same (or neither table has one).
   */
  filterBytes: { part: number; offset: number } | null;
  /**
   * The first data block, in file order, whose contents (checksum-verified, decompressed) differ,
   * with its position among the data blocks and where it lies in each file (null past the last
   * block of a file); null when every block's contents are the same. A change of compression or
   * checksum alone leaves contents equal: the properties and the footer name it. Not compared when
   * "seq" is ignored: every entry's sequence number is in its block's bytes.
   */
  dataBlock: { index: number; a: DiffBlock | null; b: DiffBlock | null } | null;
}

/**
 * A range deletion of both tables (the same start key, the same place among the deletions that
 * start there) that differs.
 */
export interface RangeDeletionChange {
  start: Uint8Array;
  /** What differs, among "end" and "seq" (unless ignored). */
  fields: ("end" | "seq")[];
  a: RangeDeletion;
  b: RangeDeletion;
}

/**
 * The range deletions of the two tables (their rocksdb.range_del blocks) merged in (start key,
 * sequence number) order: counts, and the first `maxReported` of each kind.
 */
export type RangeDeletionsDiff = MergedDiff<RangeDeletion, RangeDeletionChange>;

/** What diffTables finds. */
export interface TableDiff {
  /** Physically, in their entries and in their range deletions equal. */
  equal: boolean;
  physical: PhysicalDiff;
  entries: EntriesDiff;
  rangeDeletions: RangeDeletionsDiff;
}

/** @internal The ignore list, checked, as what the comparisons ask. */
export interface Ignored {
  /** Sequence numbers are left out. */
  seq: boolean;
  /** Whether the property `name` is left out. */
  property(name: string): boolean;
}

/** @internal DiffTablesOptions.ignore checked (BAD_OPTIONS naming what cannot be ignored). */
export function ignoredOf(ignore: DiffIgnore[] | undefined): Ignored {
  if (ignore !== undefined && !Array.isArray(ignore)) {
    throw new SstFilterError("BAD_OPTIONS", 'ignore must be an array such as ["seq", "properties:volatile"]');
  }
  let seq = false;
  let allProperties = false;
  const names = new Set<string>();
  const prefixes: string[] = [];
  for (const item of ignore ?? []) {
    if (item === "seq") {
      seq = true;
      SEQUENCE_PROPERTIES.forEach((n) => names.add(n));
    } else if (item === "properties") allProperties = true;
    else if (item === "properties:volatile") VOLATILE_PROPERTIES.forEach((n) => names.add(n));
    else if (typeof item === "string" && item.startsWith("properties:") && item.length > 11) {
      const name = item.slice(11);
      if (name.endsWith("*")) prefixes.push(name.slice(0, -1));
      else names.add(name);
    } else {
      throw new SstFilterError(
        "BAD_OPTIONS",
        `cannot ignore ${JSON.stringify(item)}: "seq", "properties", "properties:volatile" or "properties:NAME" (NAME may end in *)`,
      );
    }
  }
  return {
    seq,
    property: (name) => allProperties || names.has(name) || prefixes.some((p) => name.startsWith(p)),
  };
}

/** A property's value as a comparable string. */
function propertyText(value: TablePropertyValue): string {
  return typeof value === "object" ? `hex:${value.hex}` : `${typeof value}:${String(value)}`;
}

/** @internal Whether two byte strings are the same. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The offset of the first 64-byte block where `a` and `b` differ (a length difference counts), or -1. */
function firstDifferingBlock(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i - (i % 64);
  return a.length === b.length ? -1 : n - (n % 64);
}

function diffProperties(
  a: Table | AsyncTable,
  b: Table | AsyncTable,
  ignored: Ignored,
): PhysicalDiff["properties"] {
  const kept = (t: Table | AsyncTable): string[] =>
    Object.keys(t.properties).filter((n) => !ignored.property(n));
  const namesA = kept(a);
  const namesB = kept(b);
  const changed: PropertyChange[] = [];
  for (const name of namesA) {
    const valueB = b.properties[name];
    if (valueB === undefined) continue;
    const valueA = a.properties[name]!;
    if (propertyText(valueA) !== propertyText(valueB)) changed.push({ name, a: valueA, b: valueB });
  }
  return {
    onlyInA: namesA.filter((n) => !(n in b.properties)),
    onlyInB: namesB.filter((n) => !(n in a.properties)),
    changed,
  };
}

/** What a table's layout says of its index and data blocks. */
async function blocksOf(t: Table | AsyncTable): Promise<{ data: DiffBlock[]; index: IndexShape }> {
  const regions = await t.layout();
  const data: DiffBlock[] = [];
  const index: IndexShape = { kind: "binary-search", bytes: 0, partitions: 0 };
  for (const r of regions) {
    if (r.kind === "data") data.push({ offset: r.offset, size: r.size });
    if (r.kind === "top-index") index.kind = "two-level";
    if (r.kind === "index" || r.kind === "top-index") index.bytes += r.size;
    if (r.kind === "index") index.partitions++;
  }
  if (index.kind === "binary-search") index.partitions = 0;
  return { data, index };
}

interface IndexShape {
  kind: "binary-search" | "two-level";
  bytes: number;
  partitions: number;
}

// Bits per key to three decimals, as compared and shown.
const round = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * @internal What diffTables needs of the loaded library (sf.diffTables supplies it): a built-in
 * comparator's compare function by name (null when not built in), a filter's details from its
 * bytes, the filters of a LevelDB filter block (null where one does not decode).
 */
export interface DiffServices {
  /** The compare function of the built-in comparator `name`; null when not built in. */
  orderOf(name: string): CompareFunction | null;
  /** What a filter's bytes say about it (sf.openFilter's details). */
  filterDetails(bytes: Uint8Array, format: LibraryFormat): FilterDetails;
  /** The filters of a LevelDB filter block, null where one does not decode. */
  levelDbFilters(block: Uint8Array): (Uint8Array | null)[];
}

/**
 * The filter's fields as compared (all null for a table without a filter): what `t.filter`
 * says, and from the filter's own bytes its probes per key (of its first part) and, where RocksDB
 * records the keys added (rocksdb.num.filter_entries, else rocksdb.num.entries), its bits per key.
 */
async function filterFields(
  t: Table | AsyncTable,
  services: DiffServices,
): Promise<Record<string, DiffValue>> {
  const f = t.filter;
  let numProbes: number | null = null;
  let bitsPerKey: number | null = null;
  if (f !== null && f.kind !== "custom") {
    const stored = await t.filterBytes();
    const parts =
      t.format === "leveldb" && stored[0] !== undefined ? services.levelDbFilters(stored[0]) : stored;
    let dataBytes = 0;
    for (const part of parts) {
      if (part === null || part.length === 0) continue;
      const details = services.filterDetails(part, t.format);
      numProbes ??= details.numProbes;
      dataBytes += details.dataBytes;
    }
    const keys = t.properties["rocksdb.num.filter_entries"] ?? t.properties["rocksdb.num.entries"];
    if (typeof keys === "number" && keys > 0) bitsPerKey = round((8 * dataBytes) / keys);
  }
  return {
    "filter.present": f !== null,
    "filter.policy": f?.policy ?? null,
    "filter.kind": f?.kind ?? null,
    "filter.partitions": f?.partitions ?? null,
    "filter.wholeKeyFiltering": f?.wholeKeyFiltering ?? null,
    "filter.prefixExtractor": f?.prefixExtractor ?? null,
    "filter.bytes": f?.sizeBytes ?? null,
    "filter.numProbes": numProbes,
    "filter.bitsPerKey": bitsPerKey,
  };
}

async function firstDifferingFilterBlock(
  a: Table | AsyncTable,
  b: Table | AsyncTable,
): Promise<PhysicalDiff["filterBytes"]> {
  const partsA = a.filter === null ? [] : await a.filterBytes();
  const partsB = b.filter === null ? [] : await b.filterBytes();
  const parts = Math.max(partsA.length, partsB.length);
  for (let part = 0; part < parts; part++) {
    const pa = partsA[part];
    const pb = partsB[part];
    if (pa === undefined || pb === undefined) return { part, offset: 0 };
    const offset = firstDifferingBlock(pa, pb);
    if (offset >= 0) return { part, offset };
  }
  return null;
}

async function firstDifferingDataBlock(
  a: Table | AsyncTable,
  b: Table | AsyncTable,
  blocksA: DiffBlock[],
  blocksB: DiffBlock[],
): Promise<PhysicalDiff["dataBlock"]> {
  const n = Math.min(blocksA.length, blocksB.length);
  for (let index = 0; index < n; index++) {
    const ba = blocksA[index]!;
    const bb = blocksB[index]!;
    const contentsA = await a.readBlock(ba.offset, ba.size);
    const contentsB = await b.readBlock(bb.offset, bb.size);
    if (!bytesEqual(contentsA, contentsB)) return { index, a: ba, b: bb };
  }
  if (blocksA.length === blocksB.length) return null;
  return { index: n, a: blocksA[n] ?? null, b: blocksB[n] ?? null };
}

/** What the two files say about themselves, compared. */
async function diffPhysical(
  services: DiffServices,
  a: Table | AsyncTable,
  b: Table | AsyncTable,
  ignored: Ignored,
): Promise<PhysicalDiff> {
  const [shapeA, shapeB] = [await blocksOf(a), await blocksOf(b)];
  const side = async (t: Table | AsyncTable, shape: typeof shapeA): Promise<Record<string, DiffValue>> => ({
    format: t.format,
    "order.comparator": t.order.comparator,
    "footer.formatVersion": t.footer.formatVersion,
    "footer.checksum": t.footer.checksum,
    "data.bytes": dataEnd(t),
    "data.blocks": shape.data.length,
    "index.kind": shape.index.kind,
    "index.bytes": shape.index.bytes,
    "index.partitions": shape.index.partitions,
    ...(await filterFields(t, services)),
  });
  const fieldsA = await side(a, shapeA);
  const fieldsB = await side(b, shapeB);
  const fields = Object.keys(fieldsA)
    .filter((field) => fieldsA[field] !== fieldsB[field])
    .map((field) => ({ field, a: fieldsA[field]!, b: fieldsB[field]! }));
  const properties = diffProperties(a, b, ignored);
  const filterBytes = await firstDifferingFilterBlock(a, b);
  const dataBlock = ignored.seq ? null : await firstDifferingDataBlock(a, b, shapeA.data, shapeB.data);
  const equal =
    fields.length === 0 &&
    properties.onlyInA.length + properties.onlyInB.length + properties.changed.length === 0 &&
    filterBytes === null &&
    dataBlock === null;
  return { equal, fields, properties, filterBytes, dataBlock };
}

/**
 * The key order both tables are in, as a compare function: tables in different orders, or in one
 * unknown, cannot be merged.
 */
function mergeOrder(
  a: Table | AsyncTable,
  b: Table | AsyncTable,
  orderOf: DiffServices["orderOf"],
  supplied: CompareFunction | undefined,
): CompareFunction {
  if (!a.order.known || !b.order.known) {
    throw new SstFilterError(
      "UNSUPPORTED",
      "the key order of a table is unknown: open it with its comparator to compare its entries",
    );
  }
  if (a.order.comparator !== b.order.comparator) {
    throw new SstFilterError(
      "BAD_OPTIONS",
      `the tables are in different key orders (${a.order.comparator} and ${b.order.comparator}): their entries cannot be merged`,
    );
  }
  const compare = supplied ?? orderOf(a.order.comparator);
  if (compare === null) {
    throw new SstFilterError(
      "BAD_OPTIONS",
      `the tables' order ${a.order.comparator} is not built in: pass the comparator they were opened with`,
    );
  }
  return compare;
}

/** Sequence numbers newest first, the order of one user key's versions (db/dbformat.h). */
const newestFirst = (x: bigint, y: bigint): number => (x > y ? -1 : x < y ? 1 : 0);

/**
 * The range deletions of both tables merged in (start key, sequence number) order. A table keeps
 * them in the order they were added (table/block_based/block_based_table_builder.cc adds each to
 * the range_del block as it comes, SstFileWriter's DeleteRange in any order): each table's are
 * sorted first, all in memory as `t.rangeDeletions()` gives them. Those of one start key pair up
 * newest first, as the versions of an entry do.
 */
async function diffRangeDeletions(
  a: Table | AsyncTable,
  b: Table | AsyncTable,
  compare: CompareFunction,
  ignored: Ignored,
  maxReported: number,
): Promise<RangeDeletionsDiff> {
  const byStart = (x: RangeDeletion, y: RangeDeletion): number =>
    bytesEqual(x.start, y.start) ? 0 : compare(x.start, y.start);
  const sorted = async (t: Table | AsyncTable): Promise<RangeDeletion[]> =>
    (await t.rangeDeletions()).sort((x, y) => byStart(x, y) || newestFirst(x.seq, y.seq));
  return diffMerged<RangeDeletion, RangeDeletionChange["fields"][number], RangeDeletionChange>(
    await sorted(a),
    await sorted(b),
    {
      compare: byStart,
      differences: (x, y) => {
        const fields: RangeDeletionChange["fields"] = [];
        if (!bytesEqual(x.end, y.end)) fields.push("end");
        if (!ignored.seq && x.seq !== y.seq) fields.push("seq");
        return fields;
      },
      // rangeDeletions() copies them out of the block: nothing to copy again.
      kept: (r) => r,
      change: (x, y, fields) => ({ start: x.start, fields, a: x, b: y }),
    },
    maxReported,
  );
}

/** @internal DiffTablesOptions.maxReported (or a database diff's) checked; 10 when absent. */
export function maxReportedOf(value: number | undefined): number {
  const maxReported = value ?? 10;
  if (!Number.isSafeInteger(maxReported) || maxReported < 0) {
    throw new SstFilterError("BAD_OPTIONS", `maxReported must be a whole number >= 0, got ${maxReported}`);
  }
  return maxReported;
}

/**
 * @internal sf.diffTables: table `a` against table `b`, physically, entry by entry and range
 * deletion by range deletion.
 */
export async function diffTables(
  services: DiffServices,
  a: Table | AsyncTable,
  b: Table | AsyncTable,
  opts: DiffTablesOptions = {},
): Promise<TableDiff> {
  if (opts === null || typeof opts !== "object") {
    throw new SstFilterError(
      "BAD_OPTIONS",
      "diffTables options must be an object { ignore?, maxReported?, comparator?, onProgress? }",
    );
  }
  const maxReported = maxReportedOf(opts.maxReported);
  if (opts.comparator !== undefined && typeof opts.comparator !== "function") {
    throw new SstFilterError("BAD_OPTIONS", "comparator must be a function (a, b) => number");
  }
  if (opts.onProgress !== undefined && typeof opts.onProgress !== "function") {
    throw new SstFilterError("BAD_OPTIONS", "onProgress must be a function (progress) => void");
  }
  const ignored = ignoredOf(opts.ignore);
  const compare = mergeOrder(a, b, services.orderOf, opts.comparator);
  const physical = await diffPhysical(services, a, b, ignored);
  const entries = await diffEntryBatches(
    a.entryBatches(),
    b.entryBatches(),
    compare,
    ignored.seq,
    maxReported,
    opts.onProgress,
  );
  const rangeDeletions = await diffRangeDeletions(a, b, compare, ignored, maxReported);
  return {
    equal: physical.equal && entries.equal && rangeDeletions.equal,
    physical,
    entries,
    rangeDeletions,
  };
}
