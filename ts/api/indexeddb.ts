// A Chrome IndexedDB folder as the page reads it (docs/FORMATS.md 7): databases → object stores →
// records (IDB key, value) and index entries, from the database's live records decoded by the
// core. Three things the page sees that the records do not hold are done here as Chromium and
// Blink do on reads (FORMATS 7.3 end; tests/cpp/chrome_stores_test.cc does the same):
// - a store with a key generator and a key path gets the generated key written into each value
//   at the key path (Blink's IDBRequest, InjectV8KeyIntoV8Value), where the value lacks it;
// - an index entry counts only while its version is its record's (the exists entry's): entries of
//   overwritten and deleted records stay in the files until cleaned;
// - a value Blink wrapped into a blob is read from the blob folder (`<origin>.indexeddb.blob`):
//   with ReadIndexedDbOptions.blobs; without, the value stays the {"$blob": …} marker.
import type { WasmHeap } from "../core/heap.js";
import type { Database } from "./db.js";
import { aboutKey, decodeIndexedDbRecord, decodeSerializedScriptValue } from "./decoders.js";
import { inFile } from "../core/errors.js";

/** The files of an IndexedDB blob folder, by path relative to it ("2/00/5"). */
export interface BlobFolder {
  /** The bytes of the file at `path` under the blob folder (e.g. `1/00/3`). */
  read(path: string): Promise<Uint8Array>;
}

/** Where readIndexedDb finds the blob folder of values Blink wrapped into blobs. */
export interface ReadIndexedDbOptions {
  /** The blob folder, to read blob-wrapped values from (Node: NodeSstFilter takes `blobDir`). */
  blobs?: BlobFolder;
}

/** An IDB key or a value in the tagged JSON of docs/FORMATS.md 7.5. */
export type TaggedJson = unknown;

/** One record of an object store as the page reads it: key and value in tagged JSON. */
export interface IndexedDbRecord {
  key: TaggedJson;
  value: TaggedJson;
  /** The record's version (its exists entry's). */
  version: number;
  /** How Blink stored the value: "snappy" (compressed) or "blob" (in the blob folder). */
  wrapping?: "snappy" | "blob";
}

/** One live entry of an index: the index key and the record's primary key. */
export interface IndexedDbIndexEntry {
  key: TaggedJson;
  primaryKey: TaggedJson;
}

/** An index of an object store, with its live entries in key order. */
export interface IndexedDbIndex {
  id: number;
  name: string;
  keyPath: TaggedJson;
  unique: boolean;
  multiEntry: boolean;
  /** The live entries, in index order (index key, then primary key). */
  entries: IndexedDbIndexEntry[];
}

/** An object store: its key path, key generator, records and indexes. */
export interface IndexedDbObjectStore {
  id: number;
  name: string;
  /** null, a string or an array of strings. */
  keyPath: TaggedJson;
  autoIncrement: boolean;
  /** In key order. */
  records: IndexedDbRecord[];
  indexes: IndexedDbIndex[];
}

/** An IndexedDB database of an origin, with its object stores. */
export interface IndexedDbDatabase {
  id: number;
  /** The origin (storage key) the database belongs to. */
  origin: string;
  name: string;
  /** The version the page gave indexedDB.open. */
  version: TaggedJson;
  objectStores: IndexedDbObjectStore[];
}

type Decoded = Record<string, unknown> & {
  kind: string;
  databaseId?: number;
  objectStoreId?: number;
  indexId?: number;
  metadata?: string;
};

/** The three ids of a key's prefix (FORMATS 7.1), and where the prefix ends; null: too short. */
function prefixOf(key: Uint8Array): { indexId: number; end: number } | null {
  if (key.length === 0) return null;
  const dbBytes = ((key[0]! >> 5) & 7) + 1;
  const storeBytes = ((key[0]! >> 2) & 7) + 1;
  const indexBytes = (key[0]! & 3) + 1;
  const end = 1 + dbBytes + storeBytes + indexBytes;
  if (key.length < end) return null;
  let indexId = 0;
  for (let i = indexBytes - 1; i >= 0; i--) indexId = indexId * 256 + key[1 + dbBytes + storeBytes + i]!;
  return { indexId, end };
}

/** The key of an object store record's blob entry: index id 1 (one byte) replaced by 3. */
function blobEntryKeyOf(key: Uint8Array, prefixEnd: number): Uint8Array {
  const out = key.slice();
  out[prefixEnd - 1] = 3;
  return out;
}

const hexOf = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

/** Is `v` a plain object (not a tagged value, FORMATS 7.5)? Its members' holder if so. */
function objectMembers(v: unknown): Record<string, unknown> | null {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  const names = Object.keys(v);
  if (names.length === 1 && names[0]!.startsWith("$")) {
    return names[0] === "$object" ? objectMembers((v as Record<string, unknown>)["$object"]) : null;
  }
  return v as Record<string, unknown>;
}

/**
 * The value with `key` written at the string key path `path` where it has nothing there, as Blink
 * injects a generated key (intermediate objects are made); the value as it was where it is not an
 * object along the path.
 */
export function injectKey(value: TaggedJson, path: string, key: TaggedJson): TaggedJson {
  const root = objectMembers(value);
  if (root === null) return value;
  const parts = path.split(".");
  let at = root;
  for (const part of parts.slice(0, -1)) {
    if (!(part in at)) at[part] = {}; // Blink makes the objects on the way
    const next = objectMembers(at[part]);
    if (next === null) return value;
    at = next;
  }
  const last = parts[parts.length - 1]!;
  if (last in at) return value;
  at[last] = key;
  // A one-member object wrapped as {"$object": …} has more members now: unwrapped.
  return root;
}

/** The path of blob `number` of database `databaseId` in its blob folder. */
export function blobPath(databaseId: number, number: bigint): string {
  return `${databaseId}/${((number >> 8n) & 0xffn).toString(16).padStart(2, "0")}/${number.toString(16)}`;
}

const storeKey = (r: Decoded): string => `${r.databaseId}/${r.objectStoreId}`;
const recordKey = (r: Decoded, key: unknown): string =>
  `${r.databaseId}/${r.objectStoreId}/${JSON.stringify(key)}`;

/** Reads an IndexedDB database folder (comparator idb_cmp1) as the page sees it. */
export async function readIndexedDb(
  heap: WasmHeap,
  db: Database,
  opts: ReadIndexedDbOptions = {},
): Promise<IndexedDbDatabase[]> {
  const raw: { key: Uint8Array; value: Uint8Array }[] = [];
  const blobEntries = new Map<string, Uint8Array>();
  for await (const r of db.scan()) {
    raw.push(r);
    if (prefixOf(r.key)?.indexId === 3) blobEntries.set(hexOf(r.key), r.value);
  }
  const records: Decoded[] = [];
  for (const { key, value } of raw) {
    const prefix = prefixOf(key);
    const blobEntry =
      prefix !== null && prefix.indexId === 1
        ? blobEntries.get(hexOf(blobEntryKeyOf(key, prefix.end)))
        : undefined;
    try {
      records.push(decodeIndexedDbRecord(heap, key, value, blobEntry) as Decoded);
    } catch (error) {
      throw aboutKey(error, key);
    }
  }
  raw.length = 0;

  const databases = new Map<number, IndexedDbDatabase>();
  const stores = new Map<string, IndexedDbObjectStore>();
  const indexes = new Map<string, IndexedDbIndex>();
  const existsVersions = new Map<string, unknown>();
  const blobLists = new Map<string, { blobNumber: number | string }[]>();
  const storeOf = (r: Decoded): IndexedDbObjectStore => {
    let s = stores.get(storeKey(r));
    if (s === undefined) {
      s = { id: r.objectStoreId!, name: "", keyPath: null, autoIncrement: false, records: [], indexes: [] };
      stores.set(storeKey(r), s);
    }
    return s;
  };
  const indexOf = (r: Decoded): IndexedDbIndex => {
    const id = `${storeKey(r)}/${r.indexId}`;
    let index = indexes.get(id);
    if (index === undefined) {
      index = { id: r.indexId!, name: "", keyPath: null, unique: false, multiEntry: false, entries: [] };
      indexes.set(id, index);
      storeOf(r).indexes.push(index);
    }
    return index;
  };
  const indexData: Decoded[] = [];
  for (const r of records) {
    switch (r.kind) {
      case "databaseName":
        databases.set(r.databaseId!, {
          id: r.databaseId!,
          origin: r["origin"] as string,
          name: r["name"] as string,
          version: null,
          objectStores: [],
        });
        break;
      case "objectStoreMetadata": {
        const s = storeOf(r);
        if (r.metadata === "name") s.name = r["value"] as string;
        if (r.metadata === "keyPath") s.keyPath = r["value"];
        if (r.metadata === "autoIncrement") s.autoIncrement = r["value"] === true;
        break;
      }
      case "indexMetadata": {
        const index = indexOf(r);
        if (r.metadata === "name") index.name = r["value"] as string;
        if (r.metadata === "keyPath") index.keyPath = r["value"];
        if (r.metadata === "unique") index.unique = r["value"] === true;
        if (r.metadata === "multiEntry") index.multiEntry = r["value"] === true;
        break;
      }
      case "existsEntry":
        existsVersions.set(recordKey(r, r["key"]), r["version"]);
        break;
      case "blobEntry":
        blobLists.set(recordKey(r, r["key"]), r["blobs"] as { blobNumber: number | string }[]);
        break;
      case "indexData":
        indexData.push(r);
        break;
      default:
        break;
    }
  }
  for (const r of records) {
    if (r.kind === "databaseMetadata" && r.metadata === "userVersion") {
      const d = databases.get(r.databaseId!);
      if (d !== undefined) d.version = r["value"];
    }
  }

  for (const r of records) {
    if (r.kind !== "objectStoreData") continue;
    const store = storeOf(r);
    let value = r["value"];
    const wrapping = r["wrapping"] as "snappy" | "blob" | undefined;
    if (wrapping === "blob" && opts.blobs !== undefined) {
      value = await unwrapBlob(heap, opts.blobs, r, blobLists.get(recordKey(r, r["key"])) ?? []);
    }
    if (store.autoIncrement && typeof store.keyPath === "string")
      value = injectKey(value, store.keyPath, r["key"]);
    const record: IndexedDbRecord = { key: r["key"], value, version: r["version"] as number };
    if (wrapping !== undefined) record.wrapping = wrapping;
    store.records.push(record);
  }
  for (const r of indexData) {
    if (existsVersions.get(recordKey(r, r["primaryKey"])) !== r["version"]) continue; // stale
    indexOf(r).entries.push({ key: r["key"], primaryKey: r["primaryKey"] });
  }

  for (const [id, store] of stores) {
    const database = databases.get(Number(id.split("/")[0]));
    if (database !== undefined) database.objectStores.push(store);
  }
  const out = [...databases.values()].sort((a, b) => a.id - b.id);
  for (const d of out) {
    d.objectStores.sort((a, b) => a.id - b.id);
    for (const s of d.objectStores) s.indexes.sort((a, b) => a.id - b.id);
  }
  return out;
}

/** A blob-wrapped value read from its file in the blob folder and decoded. */
async function unwrapBlob(
  heap: WasmHeap,
  folder: BlobFolder,
  r: Decoded,
  blobs: { blobNumber: number | string }[],
): Promise<TaggedJson> {
  const marker = (r["value"] as { $blob?: { index?: number } } | null)?.$blob;
  const blob = marker?.index === undefined ? undefined : blobs[marker.index];
  if (blob === undefined) return r["value"];
  const path = blobPath(r.databaseId!, BigInt(blob.blobNumber));
  let bytes: Uint8Array;
  try {
    bytes = await folder.read(path);
  } catch (error) {
    throw inFile(error, path);
  }
  try {
    return decodeSerializedScriptValue(heap, bytes);
  } catch (error) {
    throw inFile(error, path);
  }
}

/** The rank of a tagged IDB key's type in IndexedDB's order (FORMATS 7.2): number < date < string < binary < array. */
function keyRank(k: TaggedJson): number {
  if (typeof k === "number") return 1;
  if (typeof k === "string") return 3;
  if (Array.isArray(k)) return 5;
  if (k !== null && typeof k === "object") {
    if ("$number" in k) return 1;
    if ("$date" in k) return 2;
    if ("$binary" in k) return 4;
  }
  return 6;
}

function keyNumber(k: TaggedJson): number {
  if (typeof k === "number") return k;
  const o = k as { $number?: string; $date?: unknown };
  if (o.$number !== undefined) return Number(o.$number);
  return keyNumber(o.$date);
}

/** Compares two IDB keys in tagged JSON as IndexedDB orders them (indexedDB.cmp): -1, 0 or 1. */
export function compareIdbKeys(a: TaggedJson, b: TaggedJson): number {
  const ra = keyRank(a);
  const rb = keyRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 1:
    case 2: {
      const x = keyNumber(a);
      const y = keyNumber(b);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 3:
      return a! < b! ? -1 : a! > b! ? 1 : 0; // UTF-16 code units, as IndexedDB
    case 4: {
      const x = (a as { $binary: string }).$binary;
      const y = (b as { $binary: string }).$binary;
      return x < y ? -1 : x > y ? 1 : 0; // lower-case hex orders as the bytes
    }
    case 5: {
      const x = a as unknown[];
      const y = b as unknown[];
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compareIdbKeys(x[i], y[i]);
        if (c !== 0) return c;
      }
      return x.length < y.length ? -1 : x.length > y.length ? 1 : 0;
    }
    default:
      return 0;
  }
}
