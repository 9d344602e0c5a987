// The memtable a database's recovery builds from its write-ahead logs (docs/FORMATS.md 6.4), with
// two-phase-commit transactions replayed as a TransactionDB of the default WRITE_COMMITTED policy
// replays them: a prepared section's records are held back and take sequence numbers only where
// the commit marker of their transaction id is read; rolled-back sections and sections never
// committed do not reach the memtable (RocksDB keeps the latter as recovered transactions). Sources:
// rocksdb db/write_batch.cc (MemTableInserter: MarkBeginPrepare, MarkEndPrepare, MarkCommit,
// MarkCommitWithTimestamp, MarkRollback, MaybeAdvanceSeq; WriteBatchInternal::Iterate's checks of
// the begin markers against the write policy), db/db_impl/db_impl_open.cc (RecoverLogFiles: each
// batch starts at its header's sequence, WALs below the MANIFEST's min log number to keep are
// skipped), db/db_impl/db_impl.h (InsertRecoveredTransaction) (7.8.3). Ground truth: the corpus
// section db_twopc.
//
// Damage (docs/FORMATS.md 6.4.2), by RocksDB's wal_recovery_mode: point-in-time recovery (the
// default) replays a log up to its damage (a torn tail counts) and then drops each later log from
// its first batch whose sequence number does not continue the replay; one that does (a database
// reopened and written after such a recovery) resumes it (RecoverLogFiles:
// stop_replay_for_corruption). kTolerateCorruptedTailRecords reads to a torn tail and refuses other
// damage, kAbsoluteConsistency refuses both, kSkipAnyCorruptedRecords and paranoid_checks=false
// read past damage (the logs are read so). A batch whose checksum holds but which
// WriteBatch::Iterate refuses fails the open in every mode. LevelDB's recovery reads past damage
// and replays every log whole. Ground truth: the corpus section db_wal_damage.
import { SstFilterError } from "../core/errors.js";
import type { WalFile, WalMarker, WalRecord } from "./wal.js";

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

const WAL_RECOVERY_MODES: readonly WalRecoveryMode[] = [
  "kPointInTimeRecovery",
  "kTolerateCorruptedTailRecords",
  "kAbsoluteConsistency",
  "kSkipAnyCorruptedRecords",
];

export interface RecoverWalsOptions {
  /** Whose recovery to follow (default "rocksdb"). */
  format?: "leveldb" | "rocksdb";
  /**
   * RocksDB: the recovery mode as it acts on damage (default kPointInTimeRecovery):
   * kSkipAnyCorruptedRecords also for paranoid_checks=false (Database.recoverySettings), whose
   * logs were read past damage.
   */
  mode?: WalRecoveryMode;
  timestampSize?: TimestampSize;
}

/**
 * The user-defined timestamp size of a column family by id (0: none): a commit with timestamp
 * writes its timestamp over the last bytes of such a family's keys.
 */
export type TimestampSize = (columnFamily: number) => number;

const hexOf = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

/** A transaction id as a message shows it: the text where printable, else hex. */
export function xidText(xid: Uint8Array): string {
  return xid.every((b) => b >= 0x20 && b < 0x7f) ? String.fromCharCode(...xid) : `0x${hexOf(xid)}`;
}

/** The begin markers of the other write policies, which a WRITE_COMMITTED recovery refuses. */
const OTHER_POLICY: Partial<Record<WalMarker["kind"], string>> = {
  "begin-persisted-prepare": "WRITE_PREPARED",
  "begin-unprepare": "WRITE_UNPREPARED",
};

/** The replay of one log after another, as MemTableInserter walks their batches. */
class Replay {
  readonly logs: RecoveredLog[] = [];
  /** Prepared and not yet committed or rolled back, by the hex of their id. */
  readonly prepared = new Map<string, PreparedTransaction>();
  /** RocksDB: the damaged log the replay stopped at and has not resumed since. */
  unresumedDamage: { log: string; number: bigint } | null = null;
  #sequence = 0n;
  /** The sequence number after the last batch replayed (none yet: RocksDB's kMaxSequenceNumber). */
  #next: bigint | null = null;
  #section: PreparedTransaction | null = null;
  #out: WalRecord[] = [];

  /** RocksDB's mode as it acts on damage; null for LevelDB. */
  readonly #mode: WalRecoveryMode | null;

  constructor(
    opts: RecoverWalsOptions,
    private readonly timestampSize: TimestampSize,
  ) {
    const mode = opts.mode ?? "kPointInTimeRecovery";
    if (!WAL_RECOVERY_MODES.includes(mode)) {
      throw new SstFilterError("UNSUPPORTED", `wal_recovery_mode ${String(mode)} is not one RocksDB has`);
    }
    this.#mode = (opts.format ?? "rocksdb") === "leveldb" ? null : mode;
  }

  log(log: WalFile): void {
    this.#out = [];
    const pointInTime = this.#mode === "kPointInTimeRecovery";
    let stopped: ReplayStop | null = null;
    for (const batch of log.batches) {
      if (pointInTime && this.unresumedDamage !== null) {
        if (batch.sequence === this.#next) {
          this.unresumedDamage = null;
        } else {
          const reached = this.#next === null ? "no batch was replayed" : `the replay reached ${this.#next}`;
          stopped = {
            reason: "sequence-gap",
            offset: batch.offset,
            what: `its batch of sequence ${batch.sequence} does not continue the replay (${reached} and stopped at the damage in ${this.unresumedDamage.log})`,
          };
          break;
        }
      }
      // RecoverLogFiles: every batch starts at its header's sequence number.
      this.#sequence = batch.sequence;
      let next = 0;
      for (let i = 0; i <= batch.recordCount; i++) {
        // Markers at position i come before the batch's record i.
        while (next < batch.markers.length && batch.markers[next]!.position === i) {
          this.#marker(batch.markers[next]!, log, batch.offset);
          next++;
        }
        if (i < batch.recordCount) this.#record(log.records[batch.firstRecord + i]!);
      }
      // A prepared section the batch does not end belongs to no transaction: the batch's
      // MemTableInserter drops it.
      this.#section = null;
      this.#next = this.#sequence;
    }
    if (this.#mode !== null && stopped === null) stopped = this.#damage(log, this.#mode);
    this.logs.push({ name: log.name, number: log.number, records: this.#out, stopped });
  }

  /** A RocksDB log read to its end or damage: where the replay stops, or the open's refusal. */
  #damage(log: WalFile, mode: WalRecoveryMode): ReplayStop | null {
    const refuse = (why: string): never => {
      throw new SstFilterError(
        "CORRUPT",
        `the database does not open: RocksDB's recovery ${why}: ${log.end.what}`,
        log.end.offset,
        log.name,
      );
    };
    // UpdateProtectionInfo's WriteBatch::Iterate refuses it, and RecoverLogFiles returns that.
    if (log.end.kind === "malformed-batch") refuse("refuses a malformed write batch");
    const torn = log.end.kind === "torn";
    if (log.end.kind !== "corrupt" && !torn) return null;
    switch (mode) {
      case "kPointInTimeRecovery":
        // A torn tail is damage too: the log reader reports it in this mode.
        this.unresumedDamage = { log: log.name, number: log.number };
        return { reason: "damage", offset: log.end.offset, what: log.end.what };
      case "kTolerateCorruptedTailRecords":
        // The reader reports no torn tail in this mode; other damage fails the open.
        if (torn) return null;
        return refuse("(kTolerateCorruptedTailRecords) stops at damage other than a torn tail");
      case "kAbsoluteConsistency":
        return refuse("(kAbsoluteConsistency) stops at any damage, a torn tail included");
      case "kSkipAnyCorruptedRecords":
        return null; // read past by the reader; a torn tail ends the log
    }
  }

  #record(record: WalRecord): void {
    if (this.#section !== null) {
      this.#section.records.push(record);
      return;
    }
    // Without seq_per_batch (WRITE_COMMITTED) every record inserted takes the next number.
    this.#out.push({ ...record, sequence: this.#sequence++ });
  }

  #marker(marker: WalMarker, log: WalFile, offset: number): void {
    const refuse = (code: "CORRUPT" | "UNSUPPORTED", what: string): never => {
      throw new SstFilterError(code, `write batch at offset ${offset}: ${what}`, offset, log.name);
    };
    const policy = OTHER_POLICY[marker.kind];
    if (policy !== undefined) {
      refuse(
        "UNSUPPORTED",
        `a ${marker.kind} marker: a ${policy} TransactionDB wrote this WAL; sstfilter replays WALs ` +
          "as the default WRITE_COMMITTED recovery does, which refuses it (RocksDB: NotSupported)",
      );
    }
    switch (marker.kind) {
      case "begin-prepare":
        if (this.#section !== null) refuse("CORRUPT", "begin-prepare inside a prepared section");
        this.#section = { xid: new Uint8Array(), log: log.name, offset, records: [] };
        return;
      case "end-prepare": {
        const section = this.#section;
        if (section === null) return refuse("CORRUPT", "end-prepare without begin-prepare");
        const id = hexOf(marker.data);
        if (this.prepared.has(id)) {
          refuse("UNSUPPORTED", `transaction ${xidText(marker.data)} prepared twice`);
        }
        section.xid = marker.data;
        this.prepared.set(id, section);
        this.#section = null;
        return;
      }
      case "commit":
      case "commit-with-timestamp": {
        const id = hexOf(marker.data);
        const transaction = this.prepared.get(id);
        // Not prepared in the logs read: its section was flushed before (or rolled back).
        if (transaction === undefined) return;
        this.prepared.delete(id);
        for (const r of transaction.records) {
          this.#out.push({ ...r, key: this.#committedKey(r, marker), sequence: this.#sequence++ });
        }
        return;
      }
      case "rollback":
        this.prepared.delete(hexOf(marker.data));
        return;
      default:
        return; // noop, log-data: nothing to insert, no sequence number
    }
  }

  /** WriteBatch::UpdateTimestamps: the commit timestamp over the key's own, where it has one. */
  #committedKey(record: WalRecord, marker: WalMarker): Uint8Array {
    const size = marker.kind === "commit-with-timestamp" ? this.timestampSize(record.columnFamily) : 0;
    if (size === 0) return record.key;
    if (marker.timestamp.length !== size || record.key.length < size) {
      throw new SstFilterError(
        "CORRUPT",
        `commit of ${xidText(marker.data)}: a ${marker.timestamp.length}-byte timestamp for a column family of ${size}-byte timestamps`,
      );
    }
    const key = new Uint8Array(record.key);
    key.set(marker.timestamp, key.length - size);
    return key;
  }
}

/**
 * The memtable recovery builds from `logs` (ascending by number, as a 2PC recovery reads them):
 * per log the records it inserts, with their sequence numbers, and the transactions left prepared.
 * Logs a column family had flushed still count here: their prepared sections can be committed in
 * a later log (the caller skips the records of logs below a family's log number, as recovery does).
 * Throws UNSUPPORTED for WALs of the WRITE_PREPARED and WRITE_UNPREPARED policies, and for a log
 * this reader cannot decode (a compressed WAL).
 */
export function recoverWals(logs: readonly WalFile[], opts: RecoverWalsOptions = {}): WalRecovery {
  const replay = new Replay(opts, opts.timestampSize ?? (() => 0));
  for (const log of logs) {
    // A log this reader cannot decode (a compressed WAL) would read as empty: RocksDB reads it,
    // so the memtable cannot be told.
    if (log.error?.code === "UNSUPPORTED") throw log.error;
    replay.log(log);
  }
  return {
    logs: replay.logs,
    preparedUncommitted: [...replay.prepared.values()],
    unresumedDamage: replay.unresumedDamage,
  };
}
