// Write-ahead logs (docs/FORMATS.md 6.4): the write batches a WAL (.log) file holds, read by the
// core (cpp/db/write_batch.cc) as each library's default recovery reads them: RocksDB's
// (kPointInTimeRecovery) every batch up to a torn tail or a bad record, which ends the log;
// LevelDB's (paranoid_checks=false) every batch it can, reading past damage (6.4.2).
import type { WasmHeap } from "../core/heap.js";
import { SstFilterError, type SstFilterErrorCode } from "../core/errors.js";
import { checkLibraryFormat, type LibraryFormat } from "../core/library-format.js";
import { walNumber } from "./db-file-names.js";

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

/** One record of a write-ahead log's batches: sequence, column family, kind, key and value. */
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

/** A batch's transaction or log-data marker (no key of its own). */
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

/** One write-ahead log read as recovery reads it: records, batches, how it ended, damage dropped. */
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
  /**
   * The log's predecessor record (RocksDB 9.11 and later with track_and_verify_wals write one,
   * first in each log): the WAL written before it, as its writer saw it. Null without one.
   */
  predecessor: WalPredecessor | null;
}

/**
 * A predecessor record (record types 130 and 131, docs/FORMATS.md 6.1): the previous WAL's number,
 * its size in bytes and the sequence number of its last write batch (0: it had none), as the
 * writer recorded them when it switched logs. Recovery with track_and_verify_wals checks them
 * against the logs it replayed.
 */
export interface WalPredecessor {
  /** The file offset of the record's header. */
  offset: number;
  number: bigint;
  size: bigint;
  lastSequence: bigint;
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

/** readWriteAheadLog's options: the format, the file's name, and whether to read past damage. */
export interface ReadWriteAheadLogOptions {
  /** Which library wrote it (default "rocksdb"): LevelDB's batches hold puts and deletes only. */
  format?: LibraryFormat;
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
  const format = checkLibraryFormat(opts.format ?? "rocksdb");
  const name = opts.name ?? "";
  const number = walNumber(name) ?? 0n;
  const readPastDamage = opts.readPastDamage ?? format === "leveldb";
  if (typeof readPastDamage !== "boolean") {
    throw new SstFilterError(
      "BAD_OPTIONS",
      `readPastDamage must be a boolean, got ${String(readPastDamage)}`,
    );
  }
  // The core builds the WalFile (wasm/db_bindings.cc); its errors name the file.
  const file = name === "" ? undefined : name;
  return heap.module.readWriteAheadLog(
    heap.put(bytes),
    bytes.length,
    format,
    name,
    number,
    readPastDamage,
    (code, message, offset) => new SstFilterError(code as SstFilterErrorCode, message, offset, file),
  ) as WalFile;
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
  format: LibraryFormat,
  readPastDamage: boolean,
  names: readonly string[],
  read: (name: string) => Promise<Uint8Array>,
): Promise<WalFile[]> {
  const out: WalFile[] = [];
  for (const name of names)
    out.push(readWriteAheadLog(heap, await read(name), { format, name, readPastDamage }));
  return out;
}
