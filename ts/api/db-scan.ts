// A database's logical contents (Database.scan): every live user key's newest version across the
// live write-ahead logs (the memtable recovery rebuilds, ts/api/wal-recovery.ts) and every live
// table, deletions and keys under a newer range deletion dropped, in the database's key order,
// streamed: the tables are merged as they are walked, never held whole.
import { SstFilterError } from "../core/errors.js";
import type { CompareFunction } from "./comparators.js";
import type { ColumnFamily, DatabaseFile } from "./db-types.js";
import type { EntryType } from "./entries.js";
import type { AsyncTable } from "./table.js";
import type { TablePropertyValue } from "./table-types.js";
import type { WalRecordKind } from "./wal.js";
import type { WalRecovery } from "./wal-recovery.js";

/** What a scan reads of its Database (db.ts, which calls scanDatabase and so is not imported here). */
export interface ScannedDatabase {
  readonly columnFamilies: readonly ColumnFamily[];
  /** The key order of the column family, as its comparator orders user keys. */
  compareFor(family: ColumnFamily): CompareFunction;
  /** The size of the user-defined timestamps of the column family's keys (0: none). */
  timestampSizeOf(family: ColumnFamily): number;
  /** The live table `file`, opened for reading. */
  openTable(file: DatabaseFile): Promise<AsyncTable>;
  /** The memtable the live logs replay into, as recovery builds it. */
  recoverLogs(): Promise<WalRecovery>;
  /** The value RocksDB's iterator reads for `record` (db-blob.ts iteratorValue). */
  iteratorValue(family: ColumnFamily, record: DatabaseRecord): Promise<Uint8Array>;
}

/** One live key of a database and its newest version. */
export interface DatabaseRecord {
  /** The user key (without a user-defined timestamp). */
  key: Uint8Array;
  /** The newest version's value, as stored (a merge operand, a blob index, an entity as such). */
  value: Uint8Array;
  /** The newest version's sequence number. */
  sequence: bigint;
  /**
   * Its type: "put" for an ordinary value; "merge" (the newest operand: no merge operator runs),
   * "blob-index", "wide-column-entity" and the like are passed on as they are.
   */
  type: EntryType;
}

/** Which column family db.scan reads (the default one when absent), and its values how. */
export interface DatabaseScanOptions {
  /** The column family to read (default "default"). */
  columnFamily?: string;
  /**
   * "stored" (the default): each value as stored, a blob index or a wide-column entity as such.
   * "read": as RocksDB's iterator reads it (Iterator::value()): a blob index's value read from
   * its blob file, an entity's default column (empty when it has none, read from its blob file
   * when kept there); the type still says what the entry is.
   */
  values?: "stored" | "read";
}

/** Entry types that end a key's life. */
const DELETIONS = new Set<string>(["delete", "single-delete", "delete-with-timestamp"]);

/** A WAL record's kind as the table entry type it becomes when flushed. */
const WAL_TYPES: Record<WalRecordKind, EntryType> = {
  put: "put",
  delete: "delete",
  "single-delete": "single-delete",
  merge: "merge",
  "range-delete": "range-delete",
  "blob-index": "blob-index",
  "wide-columns": "wide-column-entity",
  "timed-put": "put",
};

/** One stream of versions in internal-key order: user keys ascending, a key's newest first. */
type Versions = Iterator<DatabaseRecord> | AsyncIterator<DatabaseRecord>;

/** A little-endian fixed-width property's value (a {hex} property value), or null. */
function fixedProperty(value: TablePropertyValue | undefined): bigint | null {
  if (value === undefined || typeof value !== "object") return null;
  let n = 0n;
  for (let i = value.hex.length - 2; i >= 0; i -= 2)
    n = (n << 8n) | BigInt(parseInt(value.hex.slice(i, i + 2), 16));
  return n;
}

/**
 * The sequence number every entry of an ingested table reads with (rocksdb
 * table/block_based/block_based_table_reader.cc GetGlobalSequenceNumber): a table of
 * rocksdb.external_sst_file.version 2 takes its global_seqno property or, when that is 0 (the
 * ingestion did not write it into the file), the MANIFEST's largest sequence number of the file;
 * null for any other table, whose entries keep their own. The two disagreeing is CORRUPT, as there.
 */
function globalSequenceOf(table: AsyncTable, file: DatabaseFile): bigint | null {
  const version = fixedProperty(table.properties["rocksdb.external_sst_file.version"]);
  if (version !== 2n) return null;
  const stored = fixedProperty(table.properties["rocksdb.external_sst_file.global_seqno"]) ?? 0n;
  if (file.largestSeqno === null) return stored;
  if (stored !== 0n && stored !== file.largestSeqno) {
    throw new SstFilterError(
      "CORRUPT",
      `${file.name}: an external sst file with version 2 has global seqno ${stored}, while the largest seqno of the file is ${file.largestSeqno}`,
    );
  }
  return file.largestSeqno;
}

/**
 * The versions of `files` walked one after another, each table open only while it is walked: a
 * level below 0, whose files do not overlap and come in key order (docs/FORMATS.md 6.3), or one
 * level-0 file. Range deletions are left to the scan's list of them.
 */
async function* tableVersions(db: ScannedDatabase, files: DatabaseFile[]): AsyncGenerator<DatabaseRecord> {
  for (const file of files) {
    const table = await db.openTable(file);
    try {
      const global = globalSequenceOf(table, file);
      for await (const e of table.entries()) {
        if (e.type === "range-delete") continue;
        yield { key: e.key, value: e.value, sequence: global ?? e.seq ?? 0n, type: e.type ?? "put" };
      }
    } finally {
      table.dispose();
    }
  }
}

/**
 * The timestamp at the end of a log's key, as the only timestamp comparator built in orders them: a
 * little-endian u64 (rocksdb util/comparator.cc ComparatorWithU64TsImpl); 0 without one.
 */
function timestampOf(key: Uint8Array, timestampSize: number): bigint {
  if (timestampSize === 0 || key.length < timestampSize) return 0n;
  return new DataView(key.buffer, key.byteOffset + key.length - timestampSize, timestampSize).getBigUint64(
    0,
    true,
  );
}

/** A version copied out of its table's batch, kept while the other streams move past its key. */
const copied = (r: DatabaseRecord): DatabaseRecord => ({ ...r, key: r.key.slice(), value: r.value.slice() });

/**
 * @internal Database.scan, as a merging iterator (RocksDB's db/db_iter.cc over
 * table/merging_iterator.cc; LevelDB's db/db_iter.cc): the memtable the live logs rebuild, each
 * level-0 table and each deeper level are streams in internal-key order, merged key by key; a key's
 * newest version is yielded unless it is a deletion or under a newer range deletion. Memory: the
 * memtable (recovery holds it anyway), the range deletions, one open table per stream.
 */
export async function* scanDatabase(
  db: ScannedDatabase,
  opts: DatabaseScanOptions = {},
): AsyncGenerator<DatabaseRecord, void, undefined> {
  if (opts === null || typeof opts !== "object") {
    throw new SstFilterError("BAD_OPTIONS", "scan takes an object { columnFamily?, values? }");
  }
  const values = opts.values ?? "stored";
  if (values !== "stored" && values !== "read") {
    throw new SstFilterError("BAD_OPTIONS", `scan's values is "stored" or "read", not ${String(values)}`);
  }
  const name = opts.columnFamily ?? "default";
  const family = db.columnFamilies.find((cf) => cf.name === name);
  if (family === undefined) {
    throw new SstFilterError(
      "BAD_OPTIONS",
      `the database has no column family named ${JSON.stringify(name)}`,
    );
  }
  const compare = db.compareFor(family);
  // The logs' keys carry the family's user-defined timestamp; entries do not.
  const timestampSize = db.timestampSizeOf(family);
  const userKey = (key: Uint8Array): Uint8Array =>
    timestampSize > 0 ? key.subarray(0, Math.max(0, key.length - timestampSize)) : key;
  const ranges: { start: Uint8Array; end: Uint8Array; sequence: bigint }[] = [];
  const memtable: { record: DatabaseRecord; timestamp: bigint }[] = [];
  for (const log of (await db.recoverLogs()).logs) {
    for (const r of log.records) {
      if (r.columnFamily !== family.id) continue;
      if (r.kind === "range-delete") {
        // A range deletion covers its range at every timestamp: rocksdb
        // db/range_tombstone_fragmenter.h compares its bounds without their timestamps.
        ranges.push({ start: userKey(r.key), end: userKey(r.value), sequence: r.sequence });
        continue;
      }
      const record = {
        key: userKey(r.key),
        value: r.value,
        sequence: r.sequence,
        type: WAL_TYPES[r.kind] ?? r.kind,
      };
      memtable.push({ record, timestamp: timestampOf(r.key, timestampSize) });
    }
  }
  // The internal-key order (rocksdb db/dbformat.h): user key, then the newer timestamp
  // (util/comparator.cc ComparatorWithU64TsImpl), then the larger sequence number first.
  const descending = (a: bigint, b: bigint): number => (a < b ? 1 : a > b ? -1 : 0);
  memtable.sort(
    (a, b) =>
      compare(a.record.key, b.record.key) ||
      descending(a.timestamp, b.timestamp) ||
      descending(a.record.sequence, b.record.sequence),
  );
  // The tables' range deletions are read before the walk (each table opened and let go again).
  for (const level of family.levels) {
    for (const file of level.files) {
      const table = await db.openTable(file);
      try {
        const global = globalSequenceOf(table, file);
        for (const r of await table.rangeDeletions())
          ranges.push({ start: r.start, end: r.end, sequence: global ?? r.seq });
      } finally {
        table.dispose();
      }
    }
  }
  const covered = (r: DatabaseRecord): boolean =>
    ranges.some((d) => d.sequence > r.sequence && compare(d.start, r.key) <= 0 && compare(r.key, d.end) < 0);

  const streams: Versions[] = [memtable.map((m) => m.record)[Symbol.iterator]()];
  for (const level of family.levels) {
    if (level.level === 0) for (const file of level.files) streams.push(tableVersions(db, [file]));
    else streams.push(tableVersions(db, level.files));
  }
  const heads: (DatabaseRecord | null)[] = [];
  try {
    for (const stream of streams) {
      const next = await stream.next();
      heads.push(next.done === true ? null : next.value);
    }
    for (;;) {
      let least: Uint8Array | null = null;
      for (const head of heads)
        if (head !== null && (least === null || compare(head.key, least) < 0)) least = head.key;
      if (least === null) break;
      least = least.slice();
      let newest: DatabaseRecord | null = null;
      for (let i = 0; i < streams.length; i++) {
        // A stream holds a key's versions newest first (in the memtable the newest timestamp,
        // whatever the sequence numbers): its first competes with the other streams' first.
        let first = true;
        for (let head = heads[i]!; head !== null && compare(head.key, least) === 0; head = heads[i]!) {
          if (first && (newest === null || head.sequence > newest.sequence)) newest = copied(head);
          first = false;
          const next = await streams[i]!.next();
          heads[i] = next.done === true ? null : next.value;
        }
      }
      if (newest === null || DELETIONS.has(newest.type) || covered(newest)) continue;
      if (values === "read") newest.value = await db.iteratorValue(family, newest);
      yield newest;
    }
  } finally {
    for (const stream of streams) await stream.return?.();
  }
}
