// The memtable a database's recovery builds from its write-ahead logs (docs/FORMATS.md 6.4), as
// the core replays it (sstfilter/wal_recovery.h WalReplay, through wasm/recovery_bindings.cc): the
// logs are fed piece by piece into wasm memory, where the memtable stays until disposed, and
// JavaScript holds neither a whole log nor its records. Two-phase-commit transactions are replayed
// as a TransactionDB of the default WRITE_COMMITTED policy replays them (committed sections take
// their sequence numbers at the commit marker; those never committed are reported as prepared),
// damage by RocksDB's wal_recovery_mode (6.4.2). Ground truth: the corpus sections db_twopc and
// db_wal_damage. This file keeps the public shapes of what the replay reports.
import { SstFilterError } from "../core/errors.js";
import type { WasmHeap } from "../core/heap.js";
import type { LibraryFormat } from "../core/library-format.js";
import type { ReplayHandle } from "../core/core-module.js";
import { WasmObject } from "../core/wasm-object.js";
import type { CoreComparator } from "./comparators.js";
import { throwComparatorFault } from "../core/comparator-faults.js";
import type { WalRecord } from "./wal.js";

/** One log's part of the memtable. */
export interface RecoveredLog {
  /** "000012.log" */
  name: string;
  number: bigint;
  /**
   * The records the memtable takes while this log is replayed, in that order, with the sequence
   * numbers recovery gives them: a committed transaction's records where its commit marker is.
   */
  records: WalRecord[];
  /** Where RocksDB's point-in-time recovery left this log before its end; null when it read all of it. */
  stopped: ReplayStop | null;
}

/**
 * "damage": at the log's corruption or torn tail (the records after it are lost). "sequence-gap":
 * at the batch whose sequence number does not follow the last one replayed, after an earlier
 * log's damage (the rest of this log is dropped).
 */
export interface ReplayStop {
  reason: "damage" | "sequence-gap";
  /** The file offset of the damage, or of the batch. */
  offset: number;
  what: string;
}

/** A transaction prepared in the logs and neither committed nor rolled back in them. */
export interface PreparedTransaction {
  /** Its id (the transaction's name), as its end-prepare marker holds it. */
  xid: Uint8Array;
  /** The log holding its prepared section, and the file offset of that section's batch. */
  log: string;
  offset: number;
  /** Its records, numbered as the log lists them (they take sequence numbers only at a commit). */
  records: WalRecord[];
}

/** The replay of the live logs into the memtable, as recovery does it: per log what it took and where it stopped, and the transactions left prepared. */
export interface WalRecovery {
  /** Ascending by number. */
  logs: RecoveredLog[];
  /** In the order they were prepared. */
  preparedUncommitted: PreparedTransaction[];
  /**
   * RocksDB: the damaged log after which the replay never resumed (null if none). DB::Open then
   * fails when a column family with tables has a log number above it: its tables hold writes the
   * lost records preceded ("SST file is ahead of WALs").
   */
  unresumedDamage: { log: string; number: bigint } | null;
}

/** RocksDB's WALRecoveryMode, as an OPTIONS file names it (wal_recovery_mode). */
export type WalRecoveryMode =
  | "kPointInTimeRecovery"
  | "kTolerateCorruptedTailRecords"
  | "kAbsoluteConsistency"
  | "kSkipAnyCorruptedRecords";

const hexOf = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

/** A transaction id as a message shows it: the text where printable, else hex (XidText in the core). */
export function xidText(xid: Uint8Array): string {
  return xid.every((b) => b >= 0x20 && b < 0x7f) ? String.fromCharCode(...xid) : `0x${hexOf(xid)}`;
}

/** @internal A log to replay: its name, its number, and its bytes piece by piece. */
export interface ReplayLog {
  name: string;
  number: bigint;
  /** The log's bytes, in pieces as read. */
  pieces(): AsyncIterable<Uint8Array>;
}

/** @internal A column family whose records the memtable keeps. */
export interface ReplayColumnFamily {
  id: number;
  name: string;
  /** Logs below it were flushed for the family: their records of it are not kept. */
  logNumber: bigint;
  /** Its key order as the core takes it ("" and null: bytewise). */
  comparator: CoreComparator;
  /** It holds table files (DB::Open's "SST file is ahead of WALs" check looks at those). */
  hasTables: boolean;
}

/** @internal How to replay. */
export interface ReplayOptions {
  format: LibraryFormat;
  /**
   * RocksDB's recovery mode as it acts on damage: kSkipAnyCorruptedRecords also for
   * paranoid_checks=false (Database.recoverySettings). LevelDB's recovery ignores it.
   */
  mode: WalRecoveryMode;
  /** track_and_verify_wals: predecessor records checked (Database.recoverySettings). */
  trackAndVerifyWals?: boolean;
  columnFamilies: ReplayColumnFamily[];
  /** Keep only this stored key's versions in this family (a single Get over logs of any size). */
  onlyKey?: { key: Uint8Array; columnFamily: number };
  /** Keep every record replayed as a WalRecord, per log (recoverLogs); else only count them. */
  listRecords: boolean;
}

/** @internal A replay's memtable in wasm memory, until disposed. */
/** One log's part of the memtable get and explainGet use, without its records (Database.memtableLogs). */
export interface MemtableLog {
  /** "000012.log" */
  name: string;
  number: bigint;
  /** The records given sequence numbers while it was replayed (of every column family). */
  records: number;
  /** How the log reader ended it: "clean", "torn" by a crash, or "old-record" in a recycled file. */
  end: "clean" | "torn" | "old-record";
  /** Where the replay stopped before its end; null when it read all of it. */
  stopped: ReplayStop | null;
}

export class MemtableReplay extends WasmObject<ReplayHandle> {
  /** @internal */
  constructor(handle: ReplayHandle) {
    super(handle, "memtable");
  }

  /** @internal The core's handle (ts/api/db-get.ts looks keys up in its memtable). */
  coreHandle(): ReplayHandle {
    return this.live();
  }

  /** What the replay reports; the logs' records as listed (ReplayOptions.listRecords). */
  recovery(): WalRecovery {
    const handle = this.live();
    return {
      logs: handle.logs() as RecoveredLog[],
      preparedUncommitted: handle.preparedUncommitted() as PreparedTransaction[],
      unresumedDamage: handle.unresumedDamage() as WalRecovery["unresumedDamage"],
    };
  }

  /** Each log's record count and end. */
  logs(): MemtableLog[] {
    return this.live().summaries() as MemtableLog[];
  }

  /** The bytes the memtable holds in wasm memory. */
  memoryUsage(): number {
    return this.live().memoryUsage();
  }
}

/**
 * @internal Replays `logs` (ascending by number) in the core. Throws CORRUPT where DB::Open would
 * refuse the database (a log's damage as the mode refuses it, or a family's tables ahead of an
 * unresumed point-in-time stop), UNSUPPORTED for logs of the WRITE_PREPARED and WRITE_UNPREPARED
 * policies and for a log the core cannot decode (a compressed WAL); errors name the log.
 */
export async function replayLogs(
  heap: WasmHeap,
  logs: readonly ReplayLog[],
  opts: ReplayOptions,
): Promise<MemtableReplay> {
  const handle = heap.module.createWalReplay({
    format: opts.format,
    mode: opts.mode,
    paranoidChecks: true,
    trackAndVerifyWals: opts.trackAndVerifyWals ?? false,
    columnFamilies: opts.columnFamilies.map((cf) => ({
      id: cf.id,
      logNumber: cf.logNumber,
      comparator: cf.comparator.name,
      compare: cf.comparator.compare,
    })),
    ...(opts.onlyKey !== undefined
      ? { onlyKey: opts.onlyKey.key, onlyColumnFamily: opts.onlyKey.columnFamily }
      : {}),
    listRecords: opts.listRecords,
  });
  if (handle === null) throw heap.lastError();
  const replay = new MemtableReplay(handle);
  try {
    for (const log of logs) {
      handle.beginLog(log.name, log.number);
      for await (const piece of log.pieces()) {
        handle.append(heap.put(piece), piece.length);
      }
      const ended = handle.endLog();
      // A caller's comparator ordered the log's range deletions: what it threw, first.
      throwComparatorFault();
      if (!ended) throw heap.lastError(log.name);
    }
    const withTables = opts.columnFamilies
      .filter((cf) => cf.hasTables)
      .map((cf) => ({ id: cf.id, name: cf.name, logNumber: cf.logNumber }));
    if (!handle.finish(withTables)) {
      const damage = handle.unresumedDamage() as WalRecovery["unresumedDamage"];
      throw heap.lastError(damage?.log);
    }
    return replay;
  } catch (error) {
    replay.dispose();
    throw error;
  }
}
