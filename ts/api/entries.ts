// Records of a table: every entry with its sequence number, type and value, as `sst_dump
// --command=scan` shows them, and the range deletions of its rocksdb.range_del block. The core
// walks the data blocks (cpp/table/table_cursor.cc) and hands over a batch of entries at a time.
import type { CoreModule, EntryBatchRaw, ModuleConstants } from "../core/core-module.js";
import { SstFilterError } from "../core/errors.js";
import { keyBytes, type Key } from "../core/keys.js";

/**
 * RocksDB's ValueType names for what a table holds (LevelDB writes "put" and "delete"); a type this
 * library does not know is its number, in decimal.
 */
export type EntryType =
  | "put"
  | "delete"
  | "single-delete"
  | "merge"
  | "blob-index"
  | "wide-column-entity"
  | "delete-with-timestamp"
  | "value-preferred-seqno"
  | "range-delete"
  | (string & {});

/** One entry of a table, in file order. */
export interface Entry {
  /** The user key; for tables with user-defined timestamps, without the timestamp. */
  key: Uint8Array;
  value: Uint8Array;
  /**
   * The user-defined timestamp, split off the stored key, as stored (comparator
   * leveldb.BytewiseComparator.u64ts: 8 bytes, little-endian); absent for tables without them.
   */
  timestamp?: Uint8Array;
  /** Sequence number and type: absent for tables of user keys (internalKeys: false). */
  seq?: bigint;
  type?: EntryType;
  /** The type's number (RocksDB's ValueType), also for types this library has no name for. */
  typeCode?: number;
}

/**
 * Which entries `t.entries()` walks, by user key, as sst_dump's --from, --to, --prefix, --read_num.
 * With user-defined timestamps the keys are without them and every version of a key is in or out
 * together (as a RocksDB iterator's Seek and bounds take them).
 */
export interface EntryOptions {
  /** From the first entry whose user key is >= from. */
  from?: Key;
  /** Up to the first entry whose user key is >= to (excluded). */
  to?: Key;
  /** Only user keys that start with it (the walk starts there and stops at the first without). */
  prefix?: Key;
  /** At most this many entries. */
  limit?: number;
  /**
   * Embedded blob tables (RocksDB 11.6+ SstFileWriter::OpenWithEmbeddedBlobs): "resolve" (the
   * default) reads each value moved to a blob record of the same file, checked, and gives it as a
   * "put", as RocksDB's Get and iterators return it; "index" keeps the stored "blob-index" entry, as
   * sst_dump prints it.
   */
  embeddedBlobs?: "resolve" | "index";
}

/** A range deletion of the table's rocksdb.range_del block: user keys [start, end) at `seq`. */
export interface RangeDeletion {
  start: Uint8Array;
  end: Uint8Array;
  seq: bigint;
}

/** The range a cursor is asked for (TableHandle.entries). */
export interface EntryRangeRaw {
  from?: Uint8Array;
  to?: Uint8Array;
  prefix?: Uint8Array;
  exact?: boolean;
  limit?: number;
  embeddedBlobs?: "resolve" | "index";
}

/** The options of an entries walk validated and encoded for the core (keys as bytes). */
export function entryRange(opts: EntryOptions | undefined): EntryRangeRaw {
  if (opts === undefined) return {};
  if (opts === null || typeof opts !== "object") {
    throw new SstFilterError("BAD_OPTIONS", "entries() takes an object { from?, to?, prefix?, limit? }");
  }
  const range: EntryRangeRaw = {};
  for (const name of ["from", "to", "prefix"] as const) {
    const key = opts[name];
    if (key !== undefined) range[name] = keyBytes(key);
  }
  if (opts.limit !== undefined) {
    if (!Number.isSafeInteger(opts.limit) || opts.limit < 0) {
      throw new SstFilterError("BAD_OPTIONS", `limit must be a whole number >= 0, got ${opts.limit}`);
    }
    range.limit = opts.limit;
  }
  if (opts.embeddedBlobs !== undefined) {
    if (opts.embeddedBlobs !== "resolve" && opts.embeddedBlobs !== "index") {
      throw new SstFilterError(
        "BAD_OPTIONS",
        `embeddedBlobs must be "resolve" or "index", got ${String(opts.embeddedBlobs)}`,
      );
    }
    range.embeddedBlobs = opts.embeddedBlobs;
  }
  return range;
}

const typeNamesByModule = new WeakMap<ModuleConstants, string[]>();

/** Names by type number, from the core's EntryType (wasm/constants.cc). */
export function entryTypeNames(constants: ModuleConstants): readonly string[] {
  let names = typeNamesByModule.get(constants);
  if (names === undefined) {
    names = [];
    for (const [name, code] of Object.entries(constants.entryTypes)) names[code] = name;
    typeNamesByModule.set(constants, names);
  }
  return names;
}

/**
 * @internal A batch of entries as the core hands it over (its own copies of the bytes), with the
 * names of its type codes: for walks that compare entries in place (ts/api/entries-diff.ts) and
 * make Entry objects only of the few they report.
 */
export interface EntryBatch extends Omit<EntryBatchRaw, "blocks"> {
  typeNames: readonly string[];
}

/** @internal A batch's tags as 64-bit words (null for tables of user keys). */
export function tagWordsOf(batch: Omit<EntryBatchRaw, "blocks">): BigUint64Array | null {
  const { tags, keys } = batch;
  // The tags' bytes are a copy of their own: aligned for a 64-bit view.
  return tags === null ? null : new BigUint64Array(tags.buffer, tags.byteOffset, keys.offsets.length - 1);
}

/** @internal Entry `i` of a batch, its bytes views of the batch's; `tagWords`: tagWordsOf(batch). */
export function entryOf(
  batch: Omit<EntryBatchRaw, "blocks">,
  i: number,
  typeNames: readonly string[],
  tagWords: BigUint64Array | null,
): Entry {
  const { keys, values, timestamps, timestampSize } = batch;
  const entry: Entry = {
    key: keys.data.subarray(keys.offsets[i], keys.offsets[i + 1]),
    value: values.data.subarray(values.offsets[i], values.offsets[i + 1]),
  };
  if (timestamps !== null) entry.timestamp = timestamps.subarray(i * timestampSize, (i + 1) * timestampSize);
  if (tagWords !== null) {
    const tag = tagWords[i]!;
    const code = Number(tag & 0xffn);
    entry.seq = tag >> 8n;
    entry.type = typeNames[code] ?? String(code);
    entry.typeCode = code;
  }
  return entry;
}

/** The entries of a batch the core handed over. */
export function entriesOf(batch: Omit<EntryBatchRaw, "blocks">, typeNames: readonly string[]): Entry[] {
  const count = batch.keys.offsets.length - 1;
  const out = new Array<Entry>(count);
  const tagWords = tagWordsOf(batch);
  for (let i = 0; i < count; i++) out[i] = entryOf(batch, i, typeNames, tagWords);
  return out;
}

/** Bytewise order (leveldb.BytewiseComparator): memcmp, then the shorter first. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * What a table's point lookup finds: the key's entries (newest first, as stored) and the range
 * deletions covering it, as entries of type "range-delete" (key: the range's start, value: its
 * end), merged by sequence number, newest first.
 */
export function lookupResult(entries: Entry[], covering: RangeDeletion[], rangeDeleteCode: number): Entry[] {
  if (covering.length === 0) return entries;
  const deletions: Entry[] = covering.map((d) => ({
    key: d.start,
    value: d.end,
    seq: d.seq,
    type: "range-delete",
    typeCode: rangeDeleteCode,
  }));
  return [...entries, ...deletions].sort((a, b) => (a.seq! > b.seq! ? -1 : a.seq! < b.seq! ? 1 : 0));
}

const MAX_SEQUENCE = (1n << 56n) - 1n;
const NO_TIMESTAMP = new Uint8Array(0);

/**
 * The lines `sst_dump --command=scan` prints for `entries` (hex: --output_hex, escape: bytes
 * escaped, as ScanTextOptions says), formatted by the core as t.scanText() formats a walk. Entries
 * without a sequence number and type (tables of user keys) show 0 for both; a timestamp follows
 * the key, as sst_dump shows the stored key.
 */
export function formatScanLines(
  module: CoreModule,
  entries: Iterable<Entry>,
  shown: { hex: boolean; escape: boolean },
): Uint8Array {
  const lines: Uint8Array[] = [];
  for (const e of entries) {
    const seq = e.seq ?? 0n;
    const type = e.typeCode ?? 0;
    if (typeof seq !== "bigint" || seq < 0n || seq > MAX_SEQUENCE) {
      throw new SstFilterError(
        "BAD_OPTIONS",
        `an entry's seq must be a bigint from 0 to 2^56 - 1, got ${seq}`,
      );
    }
    if (!Number.isInteger(type) || type < 0 || type > 0xff) {
      throw new SstFilterError("BAD_OPTIONS", `an entry's typeCode must be a byte, got ${type}`);
    }
    const timestamp = e.timestamp === undefined ? NO_TIMESTAMP : keyBytes(e.timestamp);
    lines.push(
      module.formatScanLine(
        keyBytes(e.key),
        timestamp,
        seq,
        type,
        keyBytes(e.value),
        shown.hex,
        shown.escape,
      ),
    );
  }
  const out = new Uint8Array(lines.reduce((n, line) => n + line.length, 0));
  let at = 0;
  for (const line of lines) {
    out.set(line, at);
    at += line.length;
  }
  return out;
}
