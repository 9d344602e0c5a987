// The shapes of a database (docs/FORMATS.md 6): where its files come from (DatabaseSource), its
// live files per level per column family as the MANIFEST describes them, and how its recovery
// treats damaged logs. Plain data, held apart from the Database class (db.ts) so that the modules
// it drives (get, scan, verify, blob files, the MANIFEST's decoding) can name them without
// importing it back.
import type { VerifyProgress, VerifyReport } from "./table-verify.js";
import type { ByteSource } from "../core/byte-sources.js";
import type { LibraryFormat } from "../core/library-format.js";
import type { CompareFunction, Comparator } from "./comparators.js";
import type { WalRecoveryMode } from "./wal-recovery.js";

/** A database's files by name (no directories): what openDatabase reads. */
export interface DatabaseSource {
  /** The file names in the database directory. */
  names: string[];
  /** A whole file's bytes. */
  read(name: string): Promise<Uint8Array>;
  /**
   * Optional: ranged reads of one file (tables are read block by block this way), and what
   * releases it. Without it, a table is read whole through `read`.
   */
  open?(name: string): Promise<OpenedFile>;
  /** Optional: threads db.verify may verify tables on (Node's directories: worker_threads). */
  threads?: TableVerifyThreads;
}

/** A file opened for ranged reads; `close` releases it (a file handle, say). */
export interface OpenedFile {
  source: ByteSource;
  /** Releases the file (a Node file descriptor; nothing for in-memory sources). */
  close(): void;
}

/** Which library's database a folder is: the LibraryFormat of its tables and logs. */
export type DatabaseFormat = LibraryFormat;

/** How openDatabase reads a folder: its format, its comparators by name, a block cache budget. */
export interface OpenDatabaseOptions {
  /**
   * Which library wrote the database. Default: "rocksdb" when the directory holds RocksDB's
   * IDENTITY or an OPTIONS-* file (LevelDB writes neither), else "leveldb".
   */
  format?: DatabaseFormat;
  /**
   * Comparators of your own, by the name the MANIFEST records (RocksDB's Comparator::Name):
   * `{ "my.Order": (a, b) => ... }` or `{ "my.Order": { name: "my.Order", compare } }`. The
   * built-in ones (bytewise, reverse bytewise, their .u64ts form, Chromium's idb_cmp1) need none.
   * A database whose comparator is neither: inspect and walks work, table probes are conservative,
   * get and explainGet are UNSUPPORTED naming the comparator.
   */
  comparators?: Record<string, CompareFunction | Comparator>;
  /**
   * The byte budget of the block cache get and explainGet keep the data blocks they read in (RocksDB's
   * block_cache; its default capacity is 32 MiB in RocksDB 10, 8 MiB in LevelDB). Default 0: no
   * cache, every Get reads its blocks from the files, as RocksDB with no_block_cache. explainGet's
   * steps count the blocks the cache held (blockCacheHits) apart from those read (blocksRead).
   */
  blockCacheBytes?: number;
}

/** A live table file as the MANIFEST describes it. */
export interface DatabaseFile {
  /** The file's number; its name is `name`. */
  number: bigint;
  /** "000012.sst" (RocksDB), "000012.ldb" (LevelDB; ".sst" where that is the file present). */
  name: string;
  /** Index into RocksDB's db_paths (0: the database directory). */
  pathId: number;
  size: number;
  /** User keys (without the 8-byte sequence/type trailer). */
  smallestKey: Uint8Array;
  largestKey: Uint8Array;
  /** The internal keys as stored: user key, then sequence << 8 | type, little-endian. */
  smallestInternalKey: Uint8Array;
  largestInternalKey: Uint8Array;
  /** RocksDB's recorded sequence number range; LevelDB's MANIFEST has none (null). */
  smallestSeqno: bigint | null;
  largestSeqno: bigint | null;
  markedForCompaction: boolean;
  /** RocksDB's metadata (0 / empty where the MANIFEST has none). */
  oldestBlobFileNumber: bigint;
  oldestAncesterTime: bigint;
  fileCreationTime: bigint;
  epochNumber: bigint;
  fileChecksum: Uint8Array;
  fileChecksumFuncName: string;
  temperature: number;
  uniqueId: [bigint, bigint] | null;
}

/** One level of a column family: its files in the library's order (docs/FORMATS.md 6.3). */
export interface DatabaseLevel {
  level: number;
  files: DatabaseFile[];
  /** The files' sizes added up. */
  bytes: number;
}

/** A live blob file of a column family, as the MANIFEST records it. */
export interface DatabaseBlobFile {
  number: bigint;
  totalBlobCount: bigint;
  totalBlobBytes: bigint;
  garbageBlobCount: bigint;
  garbageBlobBytes: bigint;
  checksumMethod: string;
  checksumValue: Uint8Array;
}

/** A column family: its id, name, comparator, live tables per level and blob files. */
export interface ColumnFamily {
  id: number;
  name: string;
  comparator: string;
  /** WALs numbered below this hold nothing for this column family. */
  logNumber: bigint;
  levels: DatabaseLevel[];
  blobFiles: DatabaseBlobFile[];
}

/** How a database's recovery treats damaged WALs (docs/FORMATS.md 6.4.2). */
export interface WalRecoverySettings {
  /** RocksDB's wal_recovery_mode (null for LevelDB). */
  mode: WalRecoveryMode | null;
  paranoidChecks: boolean;
  /** The logs are read past damage (WalFile.dropped) rather than stopping at it. */
  readPastDamage: boolean;
  /**
   * allow_2pc (a TransactionDB's): recovery also reads the logs below the live ones down to the
   * MANIFEST's min log number to keep, for their prepared sections (6.4.1).
   */
  allow2pc: boolean;
  /**
   * track_and_verify_wals (RocksDB 9.11 and later): recovery checks each WAL's predecessor record
   * against the WAL replayed before it, a mismatch being damage there (6.4.2).
   */
  trackAndVerifyWals: boolean;
}

/** How the MANIFEST's log ended: "torn" is a record cut short by a crash (the rest was read). */
export interface ManifestEnd {
  kind: "clean" | "torn" | "old-record";
  offset: number;
  what: string;
}

/**
 * @internal A MANIFEST's state as the core reads it (cpp/db/manifest.cc), in the public shapes:
 * what wasm/db_bindings.cc readManifest builds (wasm/marshal.h), the Database's fields.
 */
export interface ManifestState {
  format: DatabaseFormat;
  dbId: string | null;
  nextFileNumber: bigint;
  lastSequence: bigint;
  prevLogNumber: bigint;
  minLogNumberToKeep: bigint;
  maxColumnFamily: number;
  editCount: number;
  manifestEnd: ManifestEnd;
  unfinishedAtomicGroup: number;
  columnFamilies: ColumnFamily[];
}

/** Further threads that can verify whole tables of the database, each opening the files itself. */
export interface TableVerifyThreads {
  /** How many may run at once (db.verify's default jobs is this plus its own thread). */
  count: number;
  /** Starts one: db.verify starts up to jobs - 1 and closes them when done. */
  start(): TableVerifyThread;
}

/** A thread verifying tables one after another (its start-up is paid once). */
export interface TableVerifyThread {
  /**
   * Verifies table `name` of the database there (meta blocks included), as verifyTable would
   * here, read in the order of `manifestComparator` (OpenTableOptions): resolves with its report, rejects with SstFilterError when the table does not open, and
   * stops the thread when `signal` aborts.
   */
  verify(
    name: string,
    onProgress: (p: VerifyProgress) => void,
    signal: AbortSignal,
    manifestComparator?: string,
  ): Promise<VerifyReport>;
  /** Ends the thread. */
  close(): void;
}
