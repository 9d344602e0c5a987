// Write-ahead logs (docs/FORMATS.md 6.4): the write batches a WAL (.log) file holds, read by the
// core (cpp/db/write_batch.cc) as each library's default recovery reads them: RocksDB's
// (kPointInTimeRecovery) every batch up to a torn tail or a bad record, which ends the log;
// LevelDB's (paranoid_checks=false) every batch it can, reading past damage (6.4.2).
import type { WalRaw } from "../core/core-module.js";
import type { WasmHeap } from "../core/heap.js";
import { SstFilterError, type SstFilterErrorCode } from "../core/errors.js";

/** The records of a write batch that write data; each takes one sequence number. */
export type WalRecordKind =
  | "put"
  | "delete"
  | "single-delete"
  | "merge"
  | "range-delete"
  | "blob-index"
  | "wide-columns"
  /** RocksDB 9.x TimedPut: a put whose value carried its write time (dropped here). */
  | "timed-put";

export interface WalRecord {
  /** This record's own sequence number: its batch's sequence + its index among the records. */
  sequence: bigint;
  /** 0 = default. */
  columnFamily: number;
  kind: WalRecordKind;
  /** range-delete: the begin key. With the timestamp where the column family has one. */
  key: Uint8Array;
  /** range-delete: the end key; delete / single-delete: empty; wide-columns: the entity. */
  value: Uint8Array;
}

/** Batch contents that write nothing and take no sequence number. */
export type WalMarkerKind =
  | "log-data"
  | "begin-prepare"
  | "begin-persisted-prepare"
  | "begin-unprepare"
  | "end-prepare"
  | "commit"
  | "commit-with-timestamp"
  | "rollback"
  | "noop";

export interface WalMarker {
  kind: WalMarkerKind;
  /** How many of the batch's records come before it. */
  position: number;
  /** log-data: the blob; end-prepare, commit, rollback: the transaction id; else empty. */
  data: Uint8Array;
  /** commit-with-timestamp: the commit timestamp; else empty. */
  timestamp: Uint8Array;
}

/** One write batch as its header says, and where its records are in WalFile.records. */
export interface WalBatch {
  /** The header's sequence number: its first record's. */
  sequence: bigint;
  /** The header's count: its records. */
  count: number;
  /** The file offset of the log record holding it. */
  offset: number;
  /**
   * Its records are WalFile.records[firstRecord, firstRecord + recordCount): `count` of them, or
   * fewer in a malformed batch that LevelDB's recovery inserts up to its bad record.
   */
  firstRecord: number;
  recordCount: number;
  markers: WalMarker[];
}

/**
 * How a WAL ended. "clean": at the end of its data; "torn": a record cut short by a crash (the
 * records before it were read); "old-record": a recycled file's leftovers of an earlier log;
 * "corrupt": a bad record (a checksum mismatch, a bad length, a record too short for a batch);
 * "malformed-batch": a record whose checksum holds but whose write batch is malformed, which
 * RocksDB's recovery refuses outright. For the last two `error` says which. A LevelDB WAL reads
 * past damage instead (WalFile.dropped).
 */
export interface WalEnd {
  kind: "clean" | "torn" | "corrupt" | "malformed-batch" | "old-record";
  offset: number;
  what: string;
}

export interface WalFile {
  /** "000012.log" */
  name: string;
  number: bigint;
  /** In file order (ascending sequence). */
  records: WalRecord[];
  end: WalEnd;
  batches: WalBatch[];
  /** end.kind "corrupt" or "malformed-batch": the typed error (CORRUPT, CHECKSUM_MISMATCH, UNSUPPORTED) naming the file. */
  error: SstFilterError | null;
  /**
   * Read past damage (readPastDamage: LevelDB's default): what was dropped, by offset; the
   * batches read on after it. Otherwise empty: the log stops at damage (`error`). At most 1,000
   * are listed (a hostile file can hold a drop every few bytes); `unlistedDrops` counts the rest.
   * docs/FORMATS.md 6.4.2.
   */
  dropped: WalDrop[];
  unlistedDrops: number;
}

/**
 * The bytes [offset, offset + size) of a WAL that a read past damage drops: a damaged block's
 * rest, a record that lost a fragment, a stray fragment, a record too short for a batch, a
 * malformed batch from its bad record on.
 */
export interface WalDrop {
  offset: number;
  size: number;
  /** What was wrong there (CORRUPT or CHECKSUM_MISMATCH), naming the file. */
  error: SstFilterError;
}

export interface ReadWriteAheadLogOptions {
  /** Which library wrote it (default "rocksdb"): LevelDB's batches hold puts and deletes only. */
  format?: "leveldb" | "rocksdb";
  /** The file's name, "000012.log": its number checks RocksDB's recyclable records. */
  name?: string;
  /**
   * Read past damage, into WalFile.dropped, as a recovery that ignores its reader's reports does:
   * LevelDB's default (paranoid_checks false), RocksDB's kSkipAnyCorruptedRecords or
   * paranoid_checks=false. Default: true for LevelDB, false for RocksDB (its point-in-time
   * recovery stops at damage).
   */
  readPastDamage?: boolean;
}

const MAX_FILE_NUMBER = (1n << 64n) - 1n;

/**
 * The number of a "000012.log" name; null for other names, and for numbers past 2^64 - 1, which
 * RocksDB's and LevelDB's ParseFileName do not take for a file of theirs (util/filename.cc).
 */
export function walNumber(name: string): bigint | null {
  const m = /^(\d+)\.log$/.exec(name);
  if (m?.[1] === undefined) return null;
  const number = BigInt(m[1]);
  return number > MAX_FILE_NUMBER ? null : number;
}

/** @internal Reads a WAL's bytes; see SstFilter.readWriteAheadLog. */
export function readWriteAheadLog(
  heap: WasmHeap,
  bytes: Uint8Array,
  opts: ReadWriteAheadLogOptions = {},
): WalFile {
  if (!(bytes instanceof Uint8Array)) {
    throw new SstFilterError("BAD_OPTIONS", "readWriteAheadLog takes the file's bytes as a Uint8Array");
  }
  if (opts === null || typeof opts !== "object") {
    throw new SstFilterError("BAD_OPTIONS", "readWriteAheadLog options must be an object");
  }
  const format = opts.format ?? "rocksdb";
  if (format !== "leveldb" && format !== "rocksdb") {
    throw new SstFilterError("BAD_OPTIONS", `format must be "leveldb" or "rocksdb", got ${String(format)}`);
  }
  const name = opts.name ?? "";
  const number = walNumber(name) ?? 0n;
  const readPastDamage = opts.readPastDamage ?? format === "leveldb";
  if (typeof readPastDamage !== "boolean") {
    throw new SstFilterError(
      "BAD_OPTIONS",
      `readPastDamage must be a boolean, got ${String(readPastDamage)}`,
    );
  }
  const raw = heap.module.readWriteAheadLog(
    heap.put(bytes),
    bytes.length,
    format,
    number.toString(),
    readPastDamage,
  );
  return walFileOf(raw, name, number);
}

function walFileOf(raw: WalRaw, name: string, number: bigint): WalFile {
  const records: WalRecord[] = [];
  const batches: WalBatch[] = raw.batches.map((b) => {
    const firstRecord = records.length;
    for (const r of b.records) {
      records.push({
        sequence: BigInt(r.sequence),
        columnFamily: r.columnFamily,
        kind: r.kind as WalRecordKind,
        key: r.key,
        value: r.value,
      });
    }
    return {
      sequence: BigInt(b.sequence),
      count: b.count,
      offset: Number(b.offset),
      firstRecord,
      recordCount: b.records.length,
      markers: b.markers.map((m) => ({
        kind: m.kind as WalMarkerKind,
        position: m.position,
        data: m.data,
        timestamp: m.timestamp,
      })),
    };
  });
  const errorOf = (e: { code: string; message: string; offset: string }): SstFilterError =>
    new SstFilterError(
      e.code as SstFilterErrorCode,
      e.message,
      Number(e.offset),
      name === "" ? undefined : name,
    );
  const dropped = raw.dropped.map((d) => ({
    offset: Number(d.offset),
    size: Number(d.size),
    error: errorOf(d.error),
  }));
  if (raw.error !== undefined) {
    const error = errorOf(raw.error);
    const kind = raw.malformedBatch ? "malformed-batch" : "corrupt";
    const end: WalEnd = { kind, offset: Number(raw.error.offset), what: raw.error.message };
    return { name, number, records, batches, end, error, dropped, unlistedDrops: Number(raw.unlistedDrops) };
  }
  const end: WalEnd = { kind: raw.end.kind, offset: Number(raw.end.offset), what: raw.end.what };
  return {
    name,
    number,
    records,
    batches,
    end,
    error: null,
    dropped,
    unlistedDrops: Number(raw.unlistedDrops),
  };
}

/**
 * @internal The WALs a database replays on open, ascending by number: every "<n>.log" numbered at
 * least the smallest log number of a live column family (WALs below it hold nothing unflushed:
 * rocksdb db/db_impl/db_impl_open.cc RecoverLogFiles, leveldb DBImpl::Recover), and the MANIFEST's
 * previous log number (LevelDB's, kept for compatibility).
 */
export function liveWalNames(
  names: readonly string[],
  columnFamilyLogNumbers: readonly bigint[],
  prevLogNumber: bigint,
): string[] {
  if (columnFamilyLogNumbers.length === 0) return [];
  const min = columnFamilyLogNumbers.reduce((a, b) => (b < a ? b : a));
  return names
    .map((name) => ({ name, number: walNumber(name) }))
    .filter(
      (w): w is { name: string; number: bigint } =>
        w.number !== null && (w.number >= min || (prevLogNumber !== 0n && w.number === prevLogNumber)),
    )
    .sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0))
    .map((w) => w.name);
}

/** @internal Reads the named WALs one after the other. */
export async function readWals(
  heap: WasmHeap,
  format: "leveldb" | "rocksdb",
  readPastDamage: boolean,
  names: readonly string[],
  read: (name: string) => Promise<Uint8Array>,
): Promise<WalFile[]> {
  const out: WalFile[] = [];
  for (const name of names)
    out.push(readWriteAheadLog(heap, await read(name), { format, name, readPastDamage }));
  return out;
}
