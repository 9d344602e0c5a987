// A point lookup through a whole database (docs/FORMATS.md 6.6), as DB::Get takes it, resolved
// by the core (sstfilter/db_get.h DbGet, through wasm/db_get_bindings.cc): the memtable the core's
// replay built (ts/api/wal-recovery.ts), then level 0's files newest first, then on each deeper
// level the one file whose key range can hold the key. This file drives it: it opens the tables
// the core asks for (as AsyncTables, each read with the column family's table options:
// db-table-options.ts, docs/FORMATS.md 6.6.1), reads the bytes their lookups need, and reads a
// blob file's value when a blob index decides (ts/api/db-blob.ts). It keeps the public shapes.
import { inFile, SstFilterError } from "../core/errors.js";
import type { WasmHeap } from "../core/heap.js";
import type { BlockCacheHandle, ManifestHandle } from "../core/core-module.js";
import { WasmObject } from "../core/wasm-object.js";
import type { ByteSource } from "../core/byte-sources.js";
import { runAsync } from "../core/io-driver.js";
import { tableReadRaw, type AsyncTable } from "./table.js";
import type { CoreComparator } from "./comparators.js";
import type { DatabaseTableOptions } from "./db-table-options.js";
import type { MemtableReplay } from "./wal-recovery.js";
import type { ColumnFamily, DatabaseFile, DatabaseFormat } from "./db-types.js";
import { keyBytes, type Key } from "../core/keys.js";

/** Which column family a database Get reads (the default one when absent). */
export interface DatabaseGetOptions {
  /** The column family by name; default "default". */
  columnFamily?: string;
  /**
   * For a column family with user-defined timestamps (a ".u64ts" comparator): the timestamp to read
   * at, as RocksDB's ReadOptions::timestamp (versions and range deletions at newer timestamps are
   * not seen); default the newest, 2^64 - 1. A table written without its keys' timestamps
   * (persist_user_defined_timestamps = false) has them all visible, as RocksDB reads it.
   */
  readTimestamp?: bigint;
}

const NEWEST_TIMESTAMP = (1n << 64n) - 1n;

/** The read timestamp as the core takes it: a u64 in decimal, "" for the newest. */
function readTimestampOf(opts: DatabaseGetOptions): string {
  const ts = opts.readTimestamp;
  if (ts === undefined) return "";
  if (typeof ts !== "bigint" || ts < 0n || ts > NEWEST_TIMESTAMP) {
    throw new SstFilterError("BAD_OPTIONS", "readTimestamp must be a bigint from 0 to 2^64 - 1");
  }
  return ts.toString();
}

/** How a database Get ended: a value, a deletion, nothing, or a merge chain's operands. */
export type GetOutcome = "found" | "deleted" | "not-found" | "merge-operands";

/** What a database Get answers, as DB::Get does: the outcome, the value and the entry that decided. */
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

/** One file a Get consulted (a memtable log or a table): its range, filter answer, entry and blocks read. */
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
  /**
   * Blocks this step read from the file, as RocksDB's PerfContext block_read_count counts them:
   * the filter partition probed, the data blocks the index names that the block cache did not
   * hold.
   */
  blocksRead: number;
  /**
   * Data blocks of this step the database's block cache held (OpenDatabaseOptions.blockCacheBytes),
   * as PerfContext block_cache_hit_count counts them; 0 for the memtable and without a cache.
   */
  blockCacheHits: number;
  /** The blob file the deciding value was read from, when the entry was a blob index. */
  blobFile?: string;
}

/** db.explainGet's answer: the result and the route of steps that led to it. */
export interface GetExplanation {
  key: Uint8Array;
  columnFamily: string;
  result: GetResult;
  /** In the order consulted. */
  steps: RouteStep[];
  /** The table options every table was read with (the newest OPTIONS file's, or the tables' own). */
  tableOptions: DatabaseTableOptions;
  /**
   * Present when the deciding entry is a wide-column entity (result.value is then its default
   * column): the entity's bytes (sf.decodeWideColumns), columns kept in a table's own blob records
   * already read, those in blob files still blob indexes (db.getEntity reads them).
   */
  entity?: Uint8Array;
}

/** @internal The MANIFEST's state in wasm memory, which the core's Gets read the files of. */
export class ManifestForGets extends WasmObject<ManifestHandle> {
  /** @internal */
  constructor(handle: ManifestHandle) {
    super(handle, "database");
  }

  /** @internal The handle the core's Gets are created over (createDbGet). */
  coreHandle(): ManifestHandle {
    return this.live();
  }
}

/** @internal What a Get needs of a database: its files, its tables opened once, its blob files. */
export interface GetSource {
  heap: WasmHeap;
  format: DatabaseFormat;
  columnFamilies: readonly ColumnFamily[];
  /** The folder's file names (the core names the table files as they are there). */
  names: ReadonlySet<string>;
  /** Each column family's live table files by number, by family id (the tables the core asks for). */
  liveTables: ReadonlyMap<number, ReadonlyMap<bigint, DatabaseFile>>;
  manifest: ManifestForGets;
  /** The family's key order as the core takes it; throws UNSUPPORTED for one no one supplied. */
  comparator(family: ColumnFamily): CoreComparator;
  /** The database's block cache; null: none. */
  blockCache: BlockCacheHandle | null;
  /** The live table `file`, opened once and kept open for later Gets. */
  table(file: DatabaseFile): Promise<AsyncTable>;
  /** The table options the column family's tables are read with. */
  tableOptions(columnFamily: string): Promise<DatabaseTableOptions>;
  /** The value the blob index `index` of `key` names, and the blob file it was read from. */
  readBlob(
    family: ColumnFamily,
    key: Uint8Array,
    index: Uint8Array,
  ): Promise<{ value: Uint8Array; file: string }>;
}

/** Where the core asks for no bytes: before the first table is open. */
const NO_BYTES: ByteSource = {
  size: 0,
  read: () => Promise.reject(new SstFilterError("CORRUPT", "get: bytes asked for before a table was opened")),
};

/**
 * @internal The route of a Get for `key` and its answer, over `memtable` (null: the tables alone).
 */
export async function explainGet(
  source: GetSource,
  memtable: MemtableReplay | null,
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
  const readTimestamp = readTimestampOf(opts);
  const comparator = source.comparator(family);
  const tableOptions = await source.tableOptions(name);
  const { heap } = source;
  const [ptr, size] = heap.putKey(key);
  const get = heap.module.createDbGet(
    source.manifest.coreHandle(),
    memtable === null ? 0 : memtable.coreHandle().replayAddress(),
    family.id,
    comparator.name,
    comparator.compare,
    tableReadRaw(tableOptions.read),
    source.format,
    source.names,
    source.blockCache === null ? 0 : source.blockCache.address(),
    source.blockCache === null ? 0 : source.blockCache.owner(),
    readTimestamp,
    ptr,
    size,
  );
  if (get === null) throw heap.lastError();
  let result: GetResult & { valueInBlobFile?: boolean; entity?: Uint8Array | null };
  let steps: RouteStep[];
  try {
    let bytes = NO_BYTES;
    let file: string | undefined;
    for (;;) {
      try {
        await runAsync(heap, get, bytes);
      } catch (error) {
        throw file === undefined ? error : inFile(error, file);
      }
      if (get.done()) break;
      const number = get.tableNeeded();
      const wanted = number === null ? undefined : source.liveTables.get(family.id)?.get(number);
      if (wanted === undefined) {
        throw new SstFilterError(
          "CORRUPT",
          `get: the core asked for table ${String(number)}, which the family lacks`,
        );
      }
      const reader = (await source.table(wanted)).coreReader();
      if (!get.setTable(reader.handle.readerAddress())) throw heap.lastError(wanted.name);
      bytes = reader.source;
      file = wanted.name;
    }
    result = get.result() as GetResult & { valueInBlobFile: boolean; entity: Uint8Array | null };
    steps = get.steps() as RouteStep[];
  } finally {
    get.delete();
  }
  const inBlobFile = result.valueInBlobFile === true;
  const entity = result.entity ?? undefined;
  delete result.valueInBlobFile;
  delete result.entity;
  if (inBlobFile && result.value !== null) {
    // Version::GetBlob: the value the index names, read when the index decides.
    const blob = await source.readBlob(family, key, result.value);
    result.value = blob.value;
    steps[steps.length - 1]!.blobFile = blob.file;
  }
  return {
    key,
    columnFamily: name,
    result,
    steps,
    tableOptions,
    ...(entity === undefined ? {} : { entity }),
  };
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
