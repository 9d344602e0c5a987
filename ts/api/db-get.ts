// A point lookup through a whole database (docs/FORMATS.md 6.6), as DB::Get takes it: the
// memtable (what recovery replays from the write-ahead logs: ts/api/wal-recovery.ts), then level
// 0's files newest first, then on each deeper level the one file whose key range can hold the key;
// in each file the filter first, then the index and a data block. Every table is read with the
// column family's table options (db-table-options.ts, docs/FORMATS.md 6.6.1). Sources: rocksdb
// db/db_impl/db_impl.cc (DBImpl::GetImpl), db/memtable.cc (MemTable::Get), db/version_set.cc
// (Version::Get, FilePicker), db/table_cache.cc (TableCache::Get: a file's range tombstones are
// consulted before its filter), table/get_context.cc (GetContext::SaveValue); leveldb
// db/version_set.cc (Version::Get).
import { compareBytes, type Entry } from "./entries.js";
import { inFile, SstFilterError } from "../core/errors.js";
import type { AsyncTable, TableLookup, TableReadOptions } from "./table.js";
import type { DatabaseTableOptions } from "./db-table-options.js";
import type { WideColumn } from "./values.js";
import type { WalRecord } from "./wal.js";
import type { RecoveredLog } from "./wal-recovery.js";
import type { ColumnFamily, DatabaseFile, DatabaseFormat } from "./db-types.js";
import { keyBytes, type Key } from "../core/keys.js";

export interface DatabaseGetOptions {
  /** The column family by name; default "default". */
  columnFamily?: string;
}

export type GetOutcome = "found" | "deleted" | "not-found" | "merge-operands";

export interface GetResult {
  outcome: GetOutcome;
  /** "found": the value; "merge-operands": the base value the chain ends at, if a put; else null. */
  value: Uint8Array | null;
  /** "merge-operands": the merge chain's operands, newest first; else empty. */
  operands: Uint8Array[];
  /**
   * The deciding entry's sequence number: the value's or the deletion's, the covering range
   * tombstone's, or for "merge-operands" the newest operand's; null for "not-found".
   */
  sequence: bigint | null;
}

export interface RouteStep {
  where: "memtable" | "table";
  /** "000012.log" or "000015.sst". */
  file: string;
  /** null for the memtable. */
  level: number | null;
  /** table: smallest <= key <= largest; memtable: true. */
  inRange: boolean;
  /**
   * What RocksDB's filter statistics count for the step: "no" (BLOOM_FILTER_USEFUL), "maybe"
   * (BLOOM_FILTER_FULL_POSITIVE: the filter said may match, or is in use but the key could not be
   * probed, e.g. no prefix), "none" (no filter in use). null: not consulted (out of range, or the
   * memtable).
   */
  filter: "no" | "maybe" | "none" | null;
  /**
   * What the step found for the key: the entry that ended the step (a merge operand when the chain
   * goes on), "range-deletion" when a range tombstone covers what is left, "none" when nothing.
   * null: not read (out of range, or the filter said no).
   */
  entry: "value" | "deletion" | "single-deletion" | "merge" | "range-deletion" | "none" | null;
  /** That entry's sequence number. */
  sequence: bigint | null;
  /** Blocks this step read: the filter partition probed, the data block the index names. */
  blocksRead: number;
  /** The blob file the deciding value was read from, when the entry was a blob index. */
  blobFile?: string;
}

export interface GetExplanation {
  key: Uint8Array;
  columnFamily: string;
  result: GetResult;
  /** In the order consulted. */
  steps: RouteStep[];
  /** The table options every table was read with (the newest OPTIONS file's, or the tables' own). */
  tableOptions: DatabaseTableOptions;
}

/**
 * What a lookup needs of a database: its column families, its tables opened once, and the core's
 * wide-column entity decoder (docs/FORMATS.md 3.10.2).
 */
export interface GetSource {
  format: DatabaseFormat;
  columnFamilies: readonly ColumnFamily[];
  /** The order of the family's keys; throws UNSUPPORTED for a comparator no one supplied. */
  compare(family: ColumnFamily): Compare;
  table(file: DatabaseFile): Promise<AsyncTable>;
  /** The table options the column family's tables are read with. */
  tableOptions(columnFamily: string): Promise<DatabaseTableOptions>;
  decodeEntity(value: Uint8Array): WideColumn[];
  /** The value the blob index `index` of `key` names, and the blob file it was read from. */
  readBlob(
    family: ColumnFamily,
    key: Uint8Array,
    index: Uint8Array,
  ): Promise<{ value: Uint8Array; file: string }>;
}

type DecodeEntity = GetSource["decodeEntity"];

type Compare = (a: Uint8Array, b: Uint8Array) => number;
type StepEntry = NonNullable<RouteStep["entry"]>;

/** A version of the key as a source holds it. */
interface Version {
  entry: "value" | "deletion" | "single-deletion" | "merge";
  sequence: bigint;
  value: Uint8Array;
  /** The value is a blob index: the value itself lies in a blob file. */
  inBlobFile?: true;
}

/** What a step found: its entry, and the index of the version that decided (null: none did). */
interface StepFinding {
  entry: StepEntry;
  sequence: bigint | null;
  decidedAt: number | null;
}

/** What one source (a log's records, a table) holds for the key. */
export interface SourceAnswer {
  /** The key's versions, newest first. */
  versions: Version[];
  /** The largest sequence number of the range tombstones covering the key (0: none). */
  coveringTombstone: bigint;
}

/**
 * The version a WAL record or table entry of `kind` stands for; the kinds get cannot answer throw.
 * A wide-column entity answers a Get with its default (anonymous) column's value, the empty value
 * when it has none (rocksdb db/wide/wide_column_serialization.cc GetValueOfDefaultColumn, taken by
 * GetContext::SaveValue for kTypeWideColumnEntity).
 */
function versionOf(
  kind: string,
  sequence: bigint,
  value: Uint8Array,
  file: string,
  decodeEntity: DecodeEntity,
): Version {
  switch (kind) {
    case "put":
    case "timed-put": // the WAL reader hands over the value without its write time
    case "value-preferred-seqno": // tableAnswer strips the preferred sequence number
      return { entry: "value", sequence, value };
    case "blob-index": // read from its blob file once it decides (explainGet)
      return { entry: "value", sequence, value, inBlobFile: true };
    case "wide-column-entity":
    case "wide-columns":
      return { entry: "value", sequence, value: defaultColumn(value, sequence, file, decodeEntity) };
    case "delete":
    case "delete-with-timestamp":
      return { entry: "deletion", sequence, value };
    case "single-delete":
      return { entry: "single-deletion", sequence, value };
    case "merge":
      return { entry: "merge", sequence, value };
    default:
      throw new SstFilterError(
        "UNSUPPORTED",
        `get: the key's entry at sequence ${sequence} is a ${kind}, which get does not resolve`,
        undefined,
        file,
      );
  }
}

/** The default column's value of the entity `value` (empty when it has none). */
function defaultColumn(
  value: Uint8Array,
  sequence: bigint,
  file: string,
  decodeEntity: DecodeEntity,
): Uint8Array {
  let columns: WideColumn[];
  try {
    columns = decodeEntity(value);
  } catch (error) {
    throw inFile(error, file);
  }
  const anonymous = columns.find((c) => c.name.length === 0);
  if (anonymous === undefined) return new Uint8Array(0);
  if (anonymous.blobIndex !== undefined) {
    throw new SstFilterError(
      "UNSUPPORTED",
      `get: the entity at sequence ${sequence} keeps its default column in a blob file, which get does not read`,
      undefined,
      file,
    );
  }
  return anonymous.value;
}

/** One log's records of one column family, by key: built on a log's first Get, then kept. */
interface MemtableIndex {
  /** By the key's bytes as a string (both comparators get takes are equal only on equal bytes). */
  byKey: Map<string, WalRecord[]>;
  rangeDeletes: WalRecord[];
}

/** The bytes as a string of char codes 0..255: a Map key for them. */
function byteString(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 4096) {
    out += String.fromCharCode(...bytes.subarray(i, i + 4096));
  }
  return out;
}

const memtableIndexes = new WeakMap<readonly WalRecord[], Map<number, MemtableIndex>>();

function memtableIndex(records: readonly WalRecord[], columnFamily: number): MemtableIndex {
  let families = memtableIndexes.get(records);
  if (families === undefined) {
    families = new Map();
    memtableIndexes.set(records, families);
  }
  let index = families.get(columnFamily);
  if (index === undefined) {
    index = { byKey: new Map(), rangeDeletes: [] };
    for (const r of records) {
      if (r.columnFamily !== columnFamily) continue;
      if (r.kind === "range-delete") {
        index.rangeDeletes.push(r);
        continue;
      }
      const k = byteString(r.key);
      const list = index.byKey.get(k);
      if (list === undefined) index.byKey.set(k, [r]);
      else list.push(r);
    }
    families.set(columnFamily, index);
  }
  return index;
}

/**
 * The memtable's answer from one log's records of a column family: the records of `key`, newest
 * first, and the range deletions [begin, end) covering it (MemTable::Get). The records are indexed
 * by key on the first lookup, so a Get costs the key's versions and the range deletions, not the
 * whole log.
 */
export function lookupMemtable(
  records: readonly WalRecord[],
  columnFamily: number,
  key: Uint8Array,
  compare: Compare,
  file: string,
  decodeEntity: DecodeEntity,
): SourceAnswer {
  const index = memtableIndex(records, columnFamily);
  let coveringTombstone = 0n;
  for (const r of index.rangeDeletes) {
    const covers = compare(r.key, key) <= 0 && compare(key, r.value) < 0;
    if (covers && r.sequence > coveringTombstone) coveringTombstone = r.sequence;
  }
  const versions = (index.byKey.get(byteString(key)) ?? []).map((r) =>
    versionOf(r.kind, r.sequence, r.value, file, decodeEntity),
  );
  versions.sort((a, b) => (a.sequence > b.sequence ? -1 : a.sequence < b.sequence ? 1 : 0));
  return { versions, coveringTombstone };
}

/**
 * The value Get returns for a table entry: a TimedPut's ("value-preferred-seqno") ends with its
 * 8-byte preferred sequence number, which GetContext::SaveValue cuts off (rocksdb
 * table/get_context.cc, ParsePackedValueForValue in db/dbformat.h).
 */
function tableValue(e: Entry, file: string): Uint8Array {
  if (e.type !== "value-preferred-seqno") return e.value;
  if (e.value.length < 8) {
    throw new SstFilterError(
      "CORRUPT",
      `get: the TimedPut value at sequence ${e.seq ?? 0n} is ${e.value.length} bytes, too short for its preferred sequence number`,
      undefined,
      file,
    );
  }
  return e.value.subarray(0, e.value.length - 8);
}

/** A table's answer from table.get's entries: the key's versions and the covering tombstones. */
function tableAnswer(entries: Entry[], file: string, decodeEntity: DecodeEntity): SourceAnswer {
  const versions: Version[] = [];
  let coveringTombstone = 0n;
  for (const e of entries) {
    const sequence = e.seq ?? 0n;
    if (e.type === "range-delete") {
      if (sequence > coveringTombstone) coveringTombstone = sequence;
    } else {
      versions.push(versionOf(e.type ?? "put", sequence, tableValue(e, file), file, decodeEntity));
    }
  }
  return { versions, coveringTombstone };
}

/**
 * GetContext: takes the sources newest first and decides once a value or a deletion is reached,
 * or a range tombstone newer than what is left (an entry older than the largest covering
 * tombstone seen so far counts as range-deleted).
 */
class Resolution {
  private readonly operands: Uint8Array[] = [];
  private newestOperand: bigint | null = null;
  private coveringTombstone = 0n;
  result: GetResult | null = null;
  /** The deciding value is a blob index (result.value holds it until it is read). */
  valueInBlobFile = false;

  /**
   * Takes one source's answer; returns what the step found, and how many of its versions were
   * read before one decided (all of them, and then the next key, when none did).
   */
  take(answer: SourceAnswer): StepFinding {
    if (answer.coveringTombstone > this.coveringTombstone) this.coveringTombstone = answer.coveringTombstone;
    let last: StepFinding = { entry: "none", sequence: null, decidedAt: null };
    for (const [i, v] of answer.versions.entries()) {
      if (v.sequence < this.coveringTombstone) {
        this.decide(null, this.coveringTombstone);
        return { entry: "range-deletion", sequence: this.coveringTombstone, decidedAt: i };
      }
      if (v.entry === "merge") {
        this.operands.push(v.value);
        this.newestOperand ??= v.sequence;
        last = { entry: "merge", sequence: v.sequence, decidedAt: null };
        continue;
      }
      this.decide(v.entry === "value" ? v.value : null, v.sequence);
      this.valueInBlobFile = v.inBlobFile === true;
      return { entry: v.entry, sequence: v.sequence, decidedAt: i };
    }
    // Version::Get stops at the first file after a covering tombstone: all older entries are covered.
    if (this.coveringTombstone > 0n) {
      this.decide(null, this.coveringTombstone);
      return { entry: "range-deletion", sequence: this.coveringTombstone, decidedAt: null };
    }
    return last;
  }

  /** No source decided: the operands without a base, or nothing. */
  end(): GetResult {
    if (this.result === null) {
      this.result =
        this.operands.length > 0
          ? { outcome: "merge-operands", value: null, operands: this.operands, sequence: this.newestOperand }
          : { outcome: "not-found", value: null, operands: [], sequence: null };
    }
    return this.result;
  }

  private decide(value: Uint8Array | null, sequence: bigint): void {
    if (this.operands.length > 0) {
      this.result = {
        outcome: "merge-operands",
        value,
        operands: this.operands,
        sequence: this.newestOperand,
      };
    } else {
      this.result = { outcome: value === null ? "deleted" : "found", value, operands: [], sequence };
    }
  }
}

/**
 * The files a Get consults on `level`, in order: all of level 0 newest first, else the one that
 * may hold the key. RocksDB's level 0 is listed newest first already (docs/FORMATS.md 6.3); LevelDB
 * lists it by smallest key, and Version::Get takes it by file number, newest first.
 */
function candidates(
  files: readonly DatabaseFile[],
  level: number,
  key: Uint8Array,
  compare: Compare,
  format: DatabaseFormat,
): DatabaseFile[] {
  if (level === 0) {
    return format === "leveldb" ? [...files].sort((a, b) => (a.number > b.number ? -1 : 1)) : [...files];
  }
  // FindFile: the first file whose largest key is >= key (deeper levels do not overlap).
  let lo = 0;
  let hi = files.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(files[mid]!.largestKey, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo < files.length ? [files[lo]!] : [];
}

async function tableStep(
  source: GetSource,
  file: DatabaseFile,
  level: number,
  key: Uint8Array,
  compare: Compare,
  resolution: Resolution,
  read: TableReadOptions,
): Promise<RouteStep> {
  const step: RouteStep = {
    where: "table",
    file: file.name,
    level,
    inRange: compare(file.smallestKey, key) <= 0 && compare(key, file.largestKey) <= 0,
    filter: null,
    entry: null,
    sequence: null,
    blocksRead: 0,
  };
  if (!step.inRange) return step;
  const table = await source.table(file);
  // The table's point lookup asks the filter first and reads the data blocks only where it allows,
  // and brings the file's range tombstones covering the key either way (TableCache::Get consults
  // them before the filter).
  const lookup = await table.pointLookup(key, read);
  const explained = lookup.filter;
  // LevelDB's index, not a filter, rules out a key after the file's last key.
  const filtered = explained.filterInUse || explained.route === "after-last-key";
  step.filter = !filtered ? "none" : explained.mayContain ? "maybe" : "no";
  const partitionRead = explained.partition === null ? 0 : 1;
  const answer = tableAnswer(lookup.entries, file.name, source.decodeEntity);
  step.blocksRead = partitionRead;
  if (!explained.mayContain && answer.coveringTombstone === 0n) return step;
  const found = resolution.take(answer);
  step.entry = found.entry;
  step.sequence = found.sequence;
  if (explained.mayContain) {
    step.blocksRead +=
      source.format === "leveldb" ? 1 : blocksUntilDecided(lookup.blocksRead, found.decidedAt);
  }
  return step;
}

/**
 * The data blocks BlockBasedTable::Get reads of those the table's lookup read (which are all the
 * blocks holding the key's versions, and the block after the last when that ends at the key): it
 * goes on to the next block until an entry after the key or one that decides is seen, so a chain
 * of merge operands that runs past a block's end costs a block more, and so does a key that sorts
 * after every entry of the block the index names (between its last key and the index separator
 * above it: the next block's first entry ends the search). `decidedAt`: the index of the version
 * that decided, null when none did. LevelDB's Table::InternalGet reads one block and takes one
 * entry.
 */
function blocksUntilDecided(blocks: TableLookup["blocksRead"], decidedAt: number | null): number {
  if (decidedAt === null) return blocks.length;
  const deciding = blocks.findIndex((b) => b.entriesEnd > decidedAt);
  return deciding === -1 ? blocks.length : deciding + 1;
}

/**
 * The route of a Get for `key` and its answer; `logs` are the memtable recovery builds from the
 * write-ahead logs, per log (wal-recovery.ts).
 */
export async function explainGet(
  source: GetSource,
  logs: readonly RecoveredLog[],
  userKey: Key,
  opts: DatabaseGetOptions = {},
): Promise<GetExplanation> {
  if (opts === null || typeof opts !== "object") {
    throw new SstFilterError("BAD_OPTIONS", "get options must be an object");
  }
  const key = keyBytes(userKey);
  const name = opts.columnFamily ?? "default";
  const family = source.columnFamilies.find((cf) => cf.name === name);
  if (family === undefined) {
    throw new SstFilterError("BAD_OPTIONS", `the database has no column family named ${String(name)}`);
  }
  const compare = source.compare(family);
  const tableOptions = await source.tableOptions(name);
  const resolution = new Resolution();
  const steps: RouteStep[] = [];
  // The memtable: logs numbered below the family's log number were flushed for it.
  const live = logs
    .filter((log) => log.number >= family.logNumber)
    .sort((a, b) => (a.number > b.number ? -1 : 1));
  for (const log of live) {
    if (resolution.result !== null) break;
    const found = resolution.take(
      lookupMemtable(log.records, family.id, key, compare, log.name, source.decodeEntity),
    );
    steps.push({
      where: "memtable",
      file: log.name,
      level: null,
      inRange: true,
      filter: null,
      entry: found.entry,
      sequence: found.sequence,
      blocksRead: 0,
    });
  }
  for (const { level, files } of family.levels) {
    for (const file of candidates(files, level, key, compare, source.format)) {
      if (resolution.result !== null) break;
      steps.push(await tableStep(source, file, level, key, compare, resolution, tableOptions.read));
    }
  }
  const result = resolution.end();
  if (resolution.valueInBlobFile && result.value !== null) {
    // Version::GetBlob: the value the index names, read when the index decides.
    const blob = await source.readBlob(family, key, result.value);
    result.value = blob.value;
    steps[steps.length - 1]!.blobFile = blob.file;
  }
  return { key, columnFamily: name, result, steps, tableOptions };
}

/**
 * get()'s answer: the value, or null when deleted or absent. A merge chain cannot be answered
 * without its merge operator (none runs here): SstFilterError UNSUPPORTED naming its operands.
 */
export function valueOf(explanation: GetExplanation): Uint8Array | null {
  const { result } = explanation;
  if (result.outcome === "merge-operands") {
    const base = result.value === null ? "no base value" : "a base value";
    throw new SstFilterError(
      "UNSUPPORTED",
      `get: the key holds ${result.operands.length} merge operand(s) and ${base}; no merge operator runs (explain lists them)`,
    );
  }
  return result.value;
}
