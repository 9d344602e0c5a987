// A Database's write-ahead logs replayed by the core (ts/api/wal-recovery.ts): which logs recovery
// reads (docs/FORMATS.md 6.4), each fed from the DatabaseSource in pieces so that JavaScript holds
// at most one piece of a log, with the settings and key orders the database's recovery uses. It
// keeps what the Database keeps of a replay: the records recoverLogs() lists, and the memtable
// get and explainGet look keys up in, in wasm memory until the Database lets it go.
import type { WasmHeap } from "../core/heap.js";
import { inFile } from "../core/errors.js";
import { coreComparator, type CompareFunction, type CoreComparator } from "./comparators.js";
import { liveWalNames } from "./wal.js";
import { walNumber } from "./db-file-names.js";
import {
  replayLogs,
  type MemtableReplay,
  type ReplayLog,
  type ReplayOptions,
  type WalRecovery,
} from "./wal-recovery.js";
import { readSourceFile } from "./db-source.js";
import { forgetOnFailure } from "./forget-on-failure.js";
import type {
  ColumnFamily,
  DatabaseFormat,
  DatabaseSource,
  OpenedFile,
  WalRecoverySettings,
} from "./db-types.js";

// The pieces a log is fed to the core's replay in: JavaScript holds at most one at a time.
const LOG_PIECE_BYTES = 1 << 20;

/** What a replay reads of its Database (db.ts, which holds the replay and so is not imported here). */
export interface ReplayedDatabase {
  readonly format: DatabaseFormat;
  readonly fileNames: readonly string[];
  readonly columnFamilies: readonly ColumnFamily[];
  readonly prevLogNumber: bigint;
  readonly minLogNumberToKeep: bigint;
  /** The recovery mode and paranoid checks the OPTIONS file sets (the library's defaults without one). */
  recoverySettings(): Promise<WalRecoverySettings>;
}

/** What a replay for one use replays: other logs than the database's, or one key's versions. */
export interface SingleReplay {
  logs?: readonly ReplayLog[];
  onlyKey?: ReplayOptions["onlyKey"];
}

/** @internal The core's replays of a Database's logs, and the ones it keeps. */
export class DatabaseReplay {
  readonly #heap: WasmHeap;
  readonly #source: DatabaseSource;
  readonly #db: ReplayedDatabase;
  readonly #comparators: ReadonlyMap<string, CompareFunction>;
  #recovery: Promise<WalRecovery> | undefined;
  #memtable: Promise<MemtableReplay> | undefined;

  constructor(
    heap: WasmHeap,
    source: DatabaseSource,
    db: ReplayedDatabase,
    comparators: ReadonlyMap<string, CompareFunction>,
  ) {
    this.#heap = heap;
    this.#source = source;
    this.#db = db;
    this.#comparators = comparators;
  }

  /** Database.recoverLogs: every record replayed, as JavaScript objects; replayed once and kept. */
  recovery(): Promise<WalRecovery> {
    this.#recovery ??= forgetOnFailure(
      this.#replay(true).then((replay) => {
        try {
          return replay.recovery();
        } finally {
          replay.dispose();
        }
      }),
      () => (this.#recovery = undefined),
    );
    return this.#recovery;
  }

  /** The memtable get and explainGet look keys up in: replayed on the first call, kept until release(). */
  memtable(): Promise<MemtableReplay> {
    this.#memtable ??= forgetOnFailure(this.#replay(false), () => (this.#memtable = undefined));
    return this.#memtable;
  }

  /** Whether memtable() holds one (replayed or under way). */
  keepsMemtable(): boolean {
    return this.#memtable !== undefined;
  }

  /**
   * The kept memtable, handed over for the caller to free once no Get reads it; the next
   * memtable() replays again.
   */
  release(): Promise<MemtableReplay> | undefined {
    const memtable = this.#memtable;
    this.#memtable = undefined;
    return memtable;
  }

  /**
   * A memtable replayed for one use and not kept (the caller disposes it): of `logs` in place of
   * the database's own, or keeping only `onlyKey`'s versions (memory bounded by those).
   */
  replayOnce(what: SingleReplay): Promise<MemtableReplay> {
    return this.#replay(false, what.logs, what.onlyKey);
  }

  /**
   * The live write-ahead logs' names: those numbered at least the smallest live column family's
   * log number, and the MANIFEST's previous log (docs/FORMATS.md 6.4).
   */
  liveWalNames(): string[] {
    return liveWalNames(
      this.#db.fileNames,
      this.#db.columnFamilies.map((cf) => cf.logNumber),
      this.#db.prevLogNumber,
    );
  }

  /**
   * A column family's key order as the core takes it (the replay's range deletions, a Get): the
   * caller's comparator or a built-in one; bytewise where neither (a Get then refuses the family:
   * Database.compareFor).
   */
  comparator(family: ColumnFamily): CoreComparator {
    const name = family.comparator === "" ? this.#heap.constants.comparatorNames.bytewise : family.comparator;
    const supplied = this.#comparators.get(name);
    if (supplied !== undefined) return coreComparator({ name, compare: supplied });
    return this.#heap.module.builtinComparatorNames().includes(name)
      ? { name, compare: null }
      : { name: "", compare: null };
  }

  /** The core's replay of `logs`, by default those recovery reads, fed piece by piece. */
  async #replay(
    listRecords: boolean,
    logs?: readonly ReplayLog[],
    onlyKey?: ReplayOptions["onlyKey"],
  ): Promise<MemtableReplay> {
    const db = this.#db;
    const settings = await db.recoverySettings();
    return replayLogs(this.#heap, logs ?? this.#recoveryLogs(settings.allow2pc), {
      format: db.format,
      // paranoid_checks=false ignores what the reader reports, as kSkipAnyCorruptedRecords does.
      mode: settings.readPastDamage ? "kSkipAnyCorruptedRecords" : (settings.mode ?? "kPointInTimeRecovery"),
      trackAndVerifyWals: settings.trackAndVerifyWals,
      columnFamilies: db.columnFamilies.map((cf) => ({
        id: cf.id,
        name: cf.name,
        logNumber: cf.logNumber,
        comparator: this.comparator(cf),
        hasTables: cf.levels.some((l) => l.bytes > 0),
      })),
      listRecords,
      ...(onlyKey !== undefined ? { onlyKey } : {}),
    });
  }

  /**
   * The logs recovery reads, ascending by number: the live ones and, for a two-phase-commit
   * recovery, the older ones down to the MANIFEST's min log number to keep (RecoverLogFiles:
   * without allow_2pc it skips every log below the smallest one holding unflushed data).
   */
  #recoveryLogs(allow2pc: boolean): ReplayLog[] {
    const db = this.#db;
    const live = this.liveWalNames();
    const older =
      db.format === "leveldb" || !allow2pc
        ? []
        : db.fileNames.filter((name) => {
            const number = walNumber(name);
            return number !== null && number >= db.minLogNumberToKeep && !live.includes(name);
          });
    return [...older, ...live]
      .map((name) => ({ name, number: walNumber(name)!, pieces: () => this.#pieces(name) }))
      .sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
  }

  /**
   * A file's bytes in pieces of at most LOG_PIECE_BYTES: read piece by piece where the source
   * opens files for ranged reads, else read whole and handed over piece by piece.
   */
  async *#pieces(name: string): AsyncGenerator<Uint8Array> {
    if (this.#source.open === undefined) {
      const bytes = await readSourceFile(this.#source, name);
      for (let at = 0; at < bytes.length; at += LOG_PIECE_BYTES) {
        yield bytes.subarray(at, at + LOG_PIECE_BYTES);
      }
      return;
    }
    let opened: OpenedFile;
    try {
      opened = await this.#source.open(name);
    } catch (error) {
      throw inFile(error, name);
    }
    try {
      for (let at = 0; at < opened.source.size; at += LOG_PIECE_BYTES) {
        const length = Math.min(LOG_PIECE_BYTES, opened.source.size - at);
        let piece: Uint8Array;
        try {
          piece = await opened.source.read(at, length);
        } catch (error) {
          throw inFile(error, name);
        }
        yield piece;
        if (piece.length < length) return; // the file ended early
      }
    } finally {
      opened.close();
    }
  }
}
