// Whole databases (docs/FORMATS.md 6): CURRENT names the MANIFEST, whose edits the core applies
// (cpp/db/manifest.cc) to give the live table files per level per column family. The files come
// from a DatabaseSource: a directory on Node (ts/platform/node-files.ts), a set of Files in
// browsers (a dropped folder, showDirectoryPicker), or anything that lists names and reads them.
// The logs' replay in the core is driven by ts/api/db-replay.ts, Gets by ts/api/db-get.ts.
import type { WasmHeap } from "../core/heap.js";
import type { BlockCacheHandle } from "../core/core-module.js";
import {
  explainGet,
  ManifestForGets,
  valueOf,
  type DatabaseGetOptions,
  type GetExplanation,
} from "./db-get.js";
import { verifyDatabase, type DatabaseVerifyOptions, type DatabaseVerifyReport } from "./db-verify.js";
import { inFile, SstFilterError } from "../core/errors.js";
import { checkLibraryFormat } from "../core/library-format.js";
import { CURRENT_FILE } from "./db-file-names.js";
import { parseOptionsFile, newestOptionsFile, type DatabaseOptions } from "./options-file.js";
import { tableOptionsOf, type DatabaseTableOptions } from "./db-table-options.js";
import { keyBytes, type Key } from "../core/keys.js";
import type { AsyncTable } from "./table.js";
import type { OpenTableOptions } from "./table-types.js";
import {
  comparatorsByName,
  compareFunctionFor,
  type CompareFunction,
  type CoreComparator,
} from "./comparators.js";
import { readWals, type WalFile } from "./wal.js";
import type { MemtableLog, MemtableReplay, ReplayLog, WalRecovery, WalRecoveryMode } from "./wal-recovery.js";
import { entityColumns, iteratorValue, readBlobValue } from "./db-blob.js";
import type { WideColumn } from "./values.js";
import { scanDatabase, type DatabaseRecord, type DatabaseScanOptions } from "./db-scan.js";
import { detectDatabaseFormat, openSourceTable, readSourceFile } from "./db-source.js";
import { DatabaseReplay, type SingleReplay } from "./db-replay.js";
import { forgetOnFailure } from "./forget-on-failure.js";
import type {
  ColumnFamily,
  DatabaseFile,
  DatabaseFormat,
  DatabaseLevel,
  DatabaseSource,
  ManifestEnd,
  ManifestState,
  OpenDatabaseOptions,
  WalRecoverySettings,
} from "./db-types.js";

/** A database directory as its MANIFEST describes it. */
export class Database {
  readonly format: DatabaseFormat;
  /** The MANIFEST CURRENT names, e.g. "MANIFEST-000005". */
  readonly manifest: string;
  /** The column families, by id; "default" (id 0) first. */
  readonly columnFamilies: ColumnFamily[];
  /** The default column family's levels (LevelDB: the only ones). */
  readonly levels: DatabaseLevel[];
  readonly comparator: string;
  readonly nextFileNumber: bigint;
  readonly lastSequence: bigint;
  readonly prevLogNumber: bigint;
  readonly minLogNumberToKeep: bigint;
  readonly dbId: string | null;
  /** VersionEdit records read. */
  readonly editCount: number;
  readonly manifestEnd: ManifestEnd;
  /** The names of every file in the database. */
  readonly fileNames: readonly string[];
  readonly #heap: WasmHeap;
  readonly #source: DatabaseSource;
  #wals: Promise<WalFile[]> | undefined;
  /** The core's replays of the logs; the memtable get and explainGet use is kept until dispose(). */
  readonly #replay: DatabaseReplay;
  /** The MANIFEST's state in wasm memory for get and explainGet, kept until dispose(). */
  #manifestForGets: Promise<ManifestForGets> | undefined;
  /** Gets running: the core reads the memtable and the MANIFEST's state until they end. */
  #running = 0;
  /** What dispose() let go while Gets were running, freed once they end. */
  #retired: Promise<{ dispose(): void }>[] = [];
  #options: Promise<DatabaseOptions | null> | undefined;
  /** The live tables get and explainGet opened, kept open until dispose(). */
  readonly #tables = new Map<string, Promise<AsyncTable>>();
  /** The folder's file names, as a Get hands them to the core. */
  readonly #names: ReadonlySet<string>;
  /** Each column family's live table files by number (by family id), for the tables a Get asks for. */
  readonly #liveTables: ReadonlyMap<number, ReadonlyMap<bigint, DatabaseFile>>;

  readonly #comparators: ReadonlyMap<string, CompareFunction>;
  /** The block cache get and explainGet keep data blocks in (OpenDatabaseOptions.blockCacheBytes). */
  #blockCache: BlockCacheHandle | null;

  /** @internal */
  constructor(
    heap: WasmHeap,
    source: DatabaseSource,
    manifest: string,
    state: ManifestState,
    comparators: ReadonlyMap<string, CompareFunction> = new Map(),
    blockCacheBytes = 0,
  ) {
    const names = source.names;
    this.#blockCache = blockCacheBytes > 0 ? heap.module.createBlockCache(BigInt(blockCacheBytes)) : null;
    this.#heap = heap;
    this.#source = source;
    this.#comparators = comparators;
    this.format = state.format;
    this.manifest = manifest;
    this.columnFamilies = state.columnFamilies;
    const defaultFamily = this.columnFamilies.find((cf) => cf.id === 0);
    this.levels = defaultFamily?.levels ?? [];
    this.comparator = defaultFamily?.comparator ?? "";
    this.nextFileNumber = state.nextFileNumber;
    this.lastSequence = state.lastSequence;
    this.prevLogNumber = state.prevLogNumber;
    this.minLogNumberToKeep = state.minLogNumberToKeep;
    this.dbId = state.dbId;
    this.editCount = state.editCount;
    this.manifestEnd = state.manifestEnd;
    this.fileNames = [...names].sort();
    this.#names = new Set(this.fileNames);
    this.#liveTables = new Map(
      this.columnFamilies.map((cf) => [
        cf.id,
        new Map(cf.levels.flatMap((l) => l.files).map((f) => [f.number, f])),
      ]),
    );
    this.#replay = new DatabaseReplay(heap, source, this, comparators);
  }

  /**
   * The live write-ahead logs, ascending by number: those numbered at least the smallest live
   * column family's log number, and the MANIFEST's previous log (docs/FORMATS.md 6.4). Read on the
   * first call and kept.
   */
  writeAheadLogs(): Promise<WalFile[]> {
    this.#wals ??= forgetOnFailure(
      this.recoverySettings().then((settings) =>
        readWals(this.#heap, this.format, settings.readPastDamage, this.#replay.liveWalNames(), (name) =>
          this.#read(name),
        ),
      ),
      () => (this.#wals = undefined),
    );
    return this.#wals;
  }

  /**
   * How recovery treats damaged WALs (docs/FORMATS.md 6.4.2): RocksDB's wal_recovery_mode and
   * paranoid_checks from the newest OPTIONS file (its defaults without one, or when it cannot be
   * read, as tableOptions falls back); LevelDB's defaults (paranoid_checks false: read past damage).
   */
  async recoverySettings(): Promise<WalRecoverySettings> {
    if (this.format === "leveldb") {
      return {
        mode: null,
        paranoidChecks: false,
        readPastDamage: true,
        allow2pc: false,
        trackAndVerifyWals: false,
      };
    }
    const db = (await this.options().catch(() => null))?.dbOptions ?? {};
    const mode = (db["wal_recovery_mode"] ?? "kPointInTimeRecovery") as WalRecoveryMode;
    const paranoidChecks = db["paranoid_checks"] !== "false";
    return {
      mode,
      paranoidChecks,
      readPastDamage: mode === "kSkipAnyCorruptedRecords" || !paranoidChecks,
      allow2pc: db["allow_2pc"] === "true",
      trackAndVerifyWals: db["track_and_verify_wals"] === "true",
    };
  }

  /**
   * The memtable a TransactionDB (default WRITE_COMMITTED policy) recovers (docs/FORMATS.md 6.4), as
   * the core replays it (ts/api/wal-recovery.ts): per log the records it inserts with the sequence
   * numbers recovery gives them, committed transactions at their commit, and the transactions left
   * prepared. It reads the live logs and the older ones a two-phase-commit recovery still reads for
   * their prepared sections (numbered at least the MANIFEST's min log number to keep). Damaged logs
   * are replayed as recoverySettings() says RocksDB or LevelDB would (6.4.2: where the replay
   * stopped is each log's `stopped`). Throws CORRUPT where DB::Open would refuse the database,
   * UNSUPPORTED for logs a WRITE_PREPARED or WRITE_UNPREPARED TransactionDB wrote. Replayed on the
   * first call and kept: every record as a JavaScript object (get and explainGet keep the core's
   * memtable in wasm memory instead).
   */
  recoverLogs(): Promise<WalRecovery> {
    return this.#replay.recovery();
  }

  /**
   * The former name of recoverLogs (the same recovery).
   * @deprecated Use recoverLogs.
   */
  recoverMemtable(): Promise<WalRecovery> {
    return this.recoverLogs();
  }

  /**
   * The newest OPTIONS-<n> file, parsed (docs/FORMATS.md 6.5); null when there is none (LevelDB
   * writes none). Read on the first call and kept.
   */
  options(): Promise<DatabaseOptions | null> {
    const file = newestOptionsFile(this.fileNames);
    if (file === null) return Promise.resolve(null);
    this.#options ??= forgetOnFailure(
      this.#read(file).then((bytes) => {
        try {
          return parseOptionsFile(bytes, file);
        } catch (error) {
          throw inFile(error, file);
        }
      }),
      () => (this.#options = undefined),
    );
    return this.#options;
  }

  #read(name: string): Promise<Uint8Array> {
    return readSourceFile(this.#source, name);
  }

  /** A whole file of the database, e.g. a WAL or an OPTIONS file. */
  readFile(name: string): Promise<Uint8Array> {
    if (!this.fileNames.includes(name)) {
      return Promise.reject(
        new SstFilterError("BAD_OPTIONS", `the database has no file named ${name}`, undefined, name),
      );
    }
    return this.#read(name);
  }

  /**
   * Opens one of the database's tables (a live file, or any table file by name) lazily, as
   * openTableFrom does; dispose it when done. Errors name the file.
   */
  async openTable(file: DatabaseFile | string): Promise<AsyncTable> {
    const name = typeof file === "string" ? file : file.name;
    if (!this.fileNames.includes(name)) {
      // A live file the MANIFEST lists but the folder lacks is the database's fault, as db.verify
      // reports it; a name the caller made up is the caller's.
      if (typeof file !== "string") {
        throw new SstFilterError(
          "TRUNCATED",
          "the MANIFEST lists this table, but the file is missing",
          undefined,
          name,
        );
      }
      throw new SstFilterError("BAD_OPTIONS", `the database has no file named ${name}`, undefined, name);
    }
    return openSourceTable(this.#heap, this.#source, name, this.tableOpenOptions(name));
  }

  /**
   * @internal How table `name` is opened: in the order of the comparator the MANIFEST names for its
   * column family (the default family's for a file no family lists), the caller's function for it
   * where OpenDatabaseOptions.comparators has one.
   */
  tableOpenOptions(name: string): OpenTableOptions {
    const family =
      this.columnFamilies.find((cf) => cf.levels.some((l) => l.files.some((f) => f.name === name))) ??
      this.columnFamilies.find((cf) => cf.id === 0);
    const comparator = family?.comparator ?? "";
    if (comparator === "") return {};
    const supplied = this.#comparators.get(comparator);
    return supplied !== undefined
      ? { comparator: { name: comparator, compare: supplied } }
      : { manifestComparator: comparator };
  }

  /**
   * @internal The size of the user-defined timestamps a column family's keys carry: RocksDB's
   * timestamp comparators are named with the ".u64ts" suffix (8-byte timestamps); others, none.
   */
  timestampSizeOf(family: ColumnFamily): number {
    const { comparatorNames, formatSizes } = this.#heap.constants;
    return family.comparator.endsWith(comparatorNames.u64TsSuffix) ? formatSizes.u64Timestamp : 0;
  }

  /**
   * @internal The order of a column family's keys for get: the caller's comparator or a built-in
   * one; UNSUPPORTED naming the comparator and the option otherwise.
   */
  compareFor(family: ColumnFamily): CompareFunction {
    // A MANIFEST that records no comparator: the libraries' default, bytewise.
    const name = family.comparator === "" ? this.#heap.constants.comparatorNames.bytewise : family.comparator;
    const compare = compareFunctionFor(this.#heap, name, this.#comparators.get(name));
    if (compare === null) {
      throw new SstFilterError(
        "UNSUPPORTED",
        `get: the keys are ordered by the comparator "${name}", which is not built in; supply it as openDatabase's comparators option ({ "${name}": (a, b) => number })`,
      );
    }
    return compare;
  }

  /**
   * Verifies every live file: the MANIFEST, the live WALs, every table (each block's checksum,
   * each key against the filter), tables on several threads where there are any (ts/api/db-verify.ts).
   */
  verify(opts: DatabaseVerifyOptions = {}): Promise<DatabaseVerifyReport> {
    return verifyDatabase(this, this.#heap, this.#source, opts);
  }

  /**
   * @internal db.verify's recovery check: the live logs replayed as recovery replays them, keeping
   * one key's versions only (the empty key's: memory bounded by those whatever the logs' size);
   * rejects as recoverLogs() would.
   */
  async checkRecovery(): Promise<void> {
    const replay = await this.#replay.replayOnce({ onlyKey: { key: new Uint8Array(0), columnFamily: 0 } });
    replay.dispose();
  }

  /** What DB::Get returns for `key`: the value, or null when deleted or absent (db-get.ts). */
  async get(key: Key, opts?: DatabaseGetOptions): Promise<Uint8Array | null> {
    return valueOf(await this.explainGet(key, opts));
  }

  /**
   * What DB::GetEntity returns for `key`: a wide-column entity's columns in name order (each kept
   * in a blob file read from it), a plain value as the one default column (the empty name), or
   * null when deleted or absent. Throws as get() does.
   */
  async getEntity(key: Key, opts?: DatabaseGetOptions): Promise<WideColumn[] | null> {
    const explanation = await this.explainGet(key, opts);
    const value = valueOf(explanation);
    if (value === null) return null;
    if (explanation.entity === undefined) return [{ name: new Uint8Array(0), value }];
    const family = this.columnFamilies.find((cf) => cf.name === explanation.columnFamily)!;
    return entityColumns(this.#heap, this.#source, family, explanation.key, explanation.entity, value);
  }

  /**
   * The database's logical contents: every live user key of a column family once, with its newest
   * version across the live logs and tables (deletions and range-deleted keys dropped), in the
   * family's comparator order (ts/api/db-scan.ts). The tables are merged as they are walked: memory
   * holds the memtable the logs rebuild, the range deletions and one open table per level, not
   * the database's data.
   */
  scan(opts?: DatabaseScanOptions): AsyncIterableIterator<DatabaseRecord> {
    return scanDatabase(this, opts);
  }

  /** @internal scan's values "read": the value RocksDB's iterator reads for `record` (db-blob.ts). */
  iteratorValue(family: ColumnFamily, record: DatabaseRecord): Promise<Uint8Array> {
    return iteratorValue(this.#heap, this.#source, family, record.key, record.type, record.value);
  }

  /**
   * The memtable get and explainGet look keys up in, per log: its record count, how it ended,
   * where the replay stopped; the records stay in the core (recoverLogs() lists them). Replayed on
   * the first call (or Get) and kept until dispose(); throws as recoverLogs() does.
   */
  async memtableLogs(): Promise<MemtableLog[]> {
    return (await this.#replay.memtable()).logs();
  }

  /** The route of a Get for `key`: the memtable, every file consulted, filter answers, the result. */
  async explainGet(key: Key, opts?: DatabaseGetOptions): Promise<GetExplanation> {
    return this.#explain(key, opts, await this.#replay.memtable());
  }

  /**
   * The former name of explainGet (the same route).
   * @deprecated Use explainGet.
   */
  explain(key: Key, opts?: DatabaseGetOptions): Promise<GetExplanation> {
    return this.explainGet(key, opts);
  }

  /**
   * @internal explainGet() for a single Get that keeps nothing (the CLI's db get): the logs are
   * streamed once keeping only the key's versions, in memory bounded by those, then freed.
   */
  async explainOnce(key: Key, opts?: DatabaseGetOptions): Promise<GetExplanation> {
    const name = typeof opts === "object" && opts !== null ? (opts.columnFamily ?? "default") : undefined;
    const family = this.columnFamilies.find((cf) => cf.name === name);
    // Kept already, or options explainGet() refuses.
    if (this.#replay.keepsMemtable() || family === undefined) return this.explainGet(key, opts);
    return this.#explainOver(key, opts, { onlyKey: { key: keyBytes(key), columnFamily: family.id } });
  }

  /**
   * @internal explainGet() over another memtable: the tables alone (null), or the core's replay of
   * `logs` in place of the database's own (replayed as its own are, then freed).
   */
  async explainWith(
    key: Key,
    opts: DatabaseGetOptions | undefined,
    logs: readonly ReplayLog[] | null,
  ): Promise<GetExplanation> {
    if (logs === null) return this.#explain(key, opts, null);
    return this.#explainOver(key, opts, { logs });
  }

  /** explainGet() over a memtable replayed for it alone (DatabaseReplay.replayOnce), freed after. */
  async #explainOver(
    key: Key,
    opts: DatabaseGetOptions | undefined,
    what: SingleReplay,
  ): Promise<GetExplanation> {
    const replay = await this.#replay.replayOnce(what);
    try {
      return await this.#explain(key, opts, replay);
    } finally {
      replay.dispose();
    }
  }

  async #explain(
    key: Key,
    opts: DatabaseGetOptions | undefined,
    memtable: MemtableReplay | null,
  ): Promise<GetExplanation> {
    this.#manifestForGets ??= forgetOnFailure(this.#readManifestForGets(), () => {
      this.#manifestForGets = undefined;
    });
    const source = {
      heap: this.#heap,
      format: this.format,
      columnFamilies: this.columnFamilies,
      names: this.#names,
      liveTables: this.#liveTables,
      manifest: await this.#manifestForGets,
      comparator: (family: ColumnFamily) => this.#getComparator(family),
      blockCache: this.#blockCache,
      table: (f: DatabaseFile) => this.#table(f),
      tableOptions: (columnFamily: string) => this.tableOptions(columnFamily),
      readBlob: (family: ColumnFamily, key: Uint8Array, index: Uint8Array) =>
        readBlobValue(this.#heap, this.#source, family, key, index),
    };
    this.#running++;
    try {
      return await explainGet(source, memtable, key, opts);
    } finally {
      if (--this.#running === 0) this.#freeRetired();
    }
  }

  #freeRetired(): void {
    for (const object of this.#retired.splice(0))
      object.then(
        (o) => o.dispose(),
        () => undefined,
      );
  }

  /** The MANIFEST read again, its state kept in wasm memory for the core's Gets. */
  async #readManifestForGets(): Promise<ManifestForGets> {
    const bytes = await this.#read(this.manifest);
    const handle = this.#heap.module.createManifestHandle(this.#heap.put(bytes), bytes.length, this.format);
    if (handle === null) throw this.#heap.lastError(this.manifest);
    return new ManifestForGets(handle);
  }

  /** A column family's key order for a Get, as compareFor checks it: UNSUPPORTED where unknown. */
  #getComparator(family: ColumnFamily): CoreComparator {
    this.compareFor(family);
    return this.#replay.comparator(family);
  }

  /**
   * The table options get and explainGet read the column family's tables with (docs/FORMATS.md
   * 6.6.1): the newest OPTIONS file's (filter_policy, whole_key_filtering, prefix_extractor), as
   * RocksDB reads every table with the options it is opened with; without an OPTIONS file (LevelDB)
   * or one that cannot be read, each table as it describes itself. `notes` names what was not
   * understood (the tables' own view stands for it).
   */
  async tableOptions(columnFamily = "default"): Promise<DatabaseTableOptions> {
    let options: DatabaseOptions | null;
    try {
      options = await this.options();
    } catch (error) {
      const what = error instanceof Error ? error.message : String(error);
      return { source: "tables", file: null, read: {}, notes: [`the OPTIONS file cannot be read: ${what}`] };
    }
    return tableOptionsOf(options, columnFamily);
  }

  /** Closes the tables get and explainGet keep open and frees the memtable they keep in wasm memory. */
  dispose(): void {
    this.#retired.push(...this.#tables.values());
    const memtable = this.#replay.release();
    if (memtable !== undefined) this.#retired.push(memtable);
    if (this.#manifestForGets !== undefined) this.#retired.push(this.#manifestForGets);
    const cache = this.#blockCache;
    if (cache !== null) this.#retired.push(Promise.resolve({ dispose: () => cache.delete() }));
    this.#blockCache = null;
    this.#tables.clear();
    this.#manifestForGets = undefined;
    // A Get still running reads them: the last one to end frees them.
    if (this.#running === 0) this.#freeRetired();
  }

  #table(file: DatabaseFile): Promise<AsyncTable> {
    let table = this.#tables.get(file.name);
    if (table === undefined) {
      table = this.openTable(file);
      this.#tables.set(file.name, table);
      table.catch(() => this.#tables.delete(file.name));
    }
    return table;
  }
}

/** Reads CURRENT and the MANIFEST it names; SstFilterError (with the file) when either is bad. */
export async function openDatabase(
  heap: WasmHeap,
  source: DatabaseSource,
  opts: OpenDatabaseOptions = {},
): Promise<Database> {
  if (opts === null || typeof opts !== "object") {
    throw new SstFilterError("BAD_OPTIONS", "openDatabase options must be an object");
  }
  const cacheBytes = opts.blockCacheBytes ?? 0;
  if (!Number.isSafeInteger(cacheBytes) || cacheBytes < 0) {
    throw new SstFilterError(
      "BAD_OPTIONS",
      `blockCacheBytes must be a whole number of bytes, 0 or more, got ${String(cacheBytes)}`,
    );
  }
  const format = checkLibraryFormat(opts.format ?? detectDatabaseFormat(source.names));
  if (!source.names.includes(CURRENT_FILE)) {
    throw new SstFilterError(
      "BAD_OPTIONS",
      `not a database: no ${CURRENT_FILE} file`,
      undefined,
      CURRENT_FILE,
    );
  }
  const current = await source.read(CURRENT_FILE);
  const manifest = heap.module.parseCurrentFile(heap.put(current), current.length);
  if (manifest === null) throw heap.lastError(CURRENT_FILE);
  if (!source.names.includes(manifest)) {
    throw new SstFilterError(
      "CORRUPT",
      `${CURRENT_FILE} names ${manifest}, which is missing`,
      undefined,
      CURRENT_FILE,
    );
  }
  const bytes = await source.read(manifest);
  // The core names the table files as they are in the folder (LevelDB's .ldb or .sst).
  const state = heap.module.readManifest(heap.put(bytes), bytes.length, format, new Set(source.names));
  if (state === null) throw heap.lastError(manifest);
  return new Database(
    heap,
    source,
    manifest,
    state as ManifestState,
    comparatorsByName(opts.comparators),
    cacheBytes,
  );
}
