// Record decoders: what a database's keys and values mean, by name (as Pebble's comparers format
// keys and RocksDB's SliceFormatter prints them). Built in: Chrome's stores (docs/FORMATS.md 7),
// decoded by the core (cpp/chrome/, wasm/chrome_bindings.cc) into the tagged JSON of FORMATS 7.5:
// "indexeddb", "localstorage", "sessionstorage". Users register their own (SstFilter.registerDecoder).
// Here too: detectStore (which of Chrome's stores a database is) and decodedRecords (a database's
// live records through a decoder); the page's view of IndexedDB is ts/api/indexeddb.ts, that of
// localStorage and sessionStorage readLocalStorage / readSessionStorage below.
import type { WasmHeap } from "../core/heap.js";
import type { Database } from "./db.js";
import type { DatabaseScanOptions } from "./db-scan.js";
import { messageWithoutOffset, SstFilterError } from "../core/errors.js";

/**
 * Decodes one record of a database: its user key and its newest value. `decode` returns anything
 * (the built-ins: a JSON object, FORMATS 7.5) and throws for a record it cannot read (the built-ins:
 * SstFilterError with the offset of the byte it is about).
 */
export interface RecordDecoder {
  readonly name: string;
  /** The record as JSON; an SstFilterError with the offset of the byte it is about when it does not decode. */
  decode(key: Uint8Array, value: Uint8Array): unknown;
}

/** The names of the built-in decoders, which are also the stores detectStore recognises. */
export type StoreKind = "indexeddb" | "localstorage" | "sessionstorage";

/** The record decoders every registry has: Chrome's IndexedDB, Local Storage and Session Storage. */
export const BUILTIN_DECODERS: readonly StoreKind[] = ["indexeddb", "localstorage", "sessionstorage"];

/** A record a decoder read: the raw key and value and what the decoder made of them. */
export interface DecodedRecord<T = unknown> {
  key: Uint8Array;
  value: Uint8Array;
  record: T;
}

/** Copies byte arrays one after another into the core's scratch; their addresses. */
function placeAll(heap: WasmHeap, parts: readonly Uint8Array[]): number[] {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const joined = new Uint8Array(total);
  const offsets: number[] = [];
  let at = 0;
  for (const p of parts) {
    offsets.push(at);
    joined.set(p, at);
    at += p.length;
  }
  const base = heap.put(joined);
  return offsets.map((o) => base + o);
}

function checkBytes(bytes: unknown, what: string, caller: string): asserts bytes is Uint8Array {
  if (!(bytes instanceof Uint8Array)) {
    throw new SstFilterError("BAD_OPTIONS", `${caller} takes the ${what} as a Uint8Array`);
  }
}

/** The core's JSON text, parsed; its last error as an SstFilterError when it gave none. */
function parsed(heap: WasmHeap, text: string | null): unknown {
  if (text === null) throw heap.lastError();
  return JSON.parse(text) as unknown;
}

/**
 * One IndexedDB record as a JSON object (FORMATS 7.5: "kind", the ids, "key", "value", ...); with
 * `blobEntry`, the value of the record's blob entry, Blob and File markers carry its details.
 */
export function decodeIndexedDbRecord(
  heap: WasmHeap,
  key: Uint8Array,
  value: Uint8Array,
  blobEntry?: Uint8Array,
): Record<string, unknown> {
  checkBytes(key, "key", "decodeIndexedDbRecord");
  checkBytes(value, "value", "decodeIndexedDbRecord");
  const m = heap.module;
  if (blobEntry === undefined || blobEntry.length === 0) {
    const [k, v] = placeAll(heap, [key, value]);
    return parsed(heap, m.decodeIndexedDbRecord(k!, key.length, v!, value.length)) as Record<string, unknown>;
  }
  const [k, v, b] = placeAll(heap, [key, value, blobEntry]);
  return parsed(
    heap,
    m.decodeIndexedDbRecordWithBlobs(k!, key.length, v!, value.length, b!, blobEntry.length),
  ) as Record<string, unknown>;
}

/** A Blink serialized value (the file of a blob-wrapped IndexedDB value) as tagged JSON. */
export function decodeSerializedScriptValue(heap: WasmHeap, bytes: Uint8Array): unknown {
  checkBytes(bytes, "value", "decodeSerializedScriptValue");
  return parsed(heap, heap.module.decodeSerializedScriptValue(heap.put(bytes), bytes.length));
}

function storageDecoder(heap: WasmHeap, kind: "localstorage" | "sessionstorage"): RecordDecoder {
  return {
    name: kind,
    decode(key, value) {
      checkBytes(key, "key", `the ${kind} decoder`);
      checkBytes(value, "value", `the ${kind} decoder`);
      const [k, v] = placeAll(heap, [key, value]);
      const m = heap.module;
      const text =
        kind === "localstorage"
          ? m.decodeLocalStorageRecord(k!, key.length, v!, value.length)
          : m.decodeSessionStorageRecord(k!, key.length, v!, value.length);
      return parsed(heap, text);
    },
  };
}

/** What registerDecoder takes: a RecordDecoder, or a bare decode function. */
export type DecoderOption = RecordDecoder | ((key: Uint8Array, value: Uint8Array) => unknown);

/** @internal The decoders of one SstFilter instance: the built-ins and the caller's. */
export class DecoderRegistry {
  readonly #decoders = new Map<string, RecordDecoder>();

  constructor(heap: WasmHeap) {
    this.#decoders.set("indexeddb", {
      name: "indexeddb",
      decode: (key, value) => decodeIndexedDbRecord(heap, key, value),
    });
    this.#decoders.set("localstorage", storageDecoder(heap, "localstorage"));
    this.#decoders.set("sessionstorage", storageDecoder(heap, "sessionstorage"));
  }

  /** Adds (or replaces) a decoder under `name`: a function or `{ name, decode }`; BAD_OPTIONS for a built-in name. */
  register(name: string, decoder: DecoderOption): RecordDecoder {
    if (typeof name !== "string" || name === "") {
      throw new SstFilterError("BAD_OPTIONS", "a decoder's name must be a non-empty string");
    }
    if ((BUILTIN_DECODERS as readonly string[]).includes(name)) {
      throw new SstFilterError(
        "BAD_OPTIONS",
        `"${name}" is a built-in decoder; register yours under another name`,
      );
    }
    const decode =
      typeof decoder === "function" ? decoder : (decoder as Partial<RecordDecoder> | null)?.decode;
    if (typeof decode !== "function") {
      throw new SstFilterError(
        "BAD_OPTIONS",
        "a decoder is a function (key, value) => unknown or { name, decode }",
      );
    }
    const registered: RecordDecoder = {
      name,
      decode: typeof decoder === "function" ? decoder : (key, value) => decoder.decode(key, value),
    };
    this.#decoders.set(name, registered);
    return registered;
  }

  /** The decoder named `name`; BAD_OPTIONS naming the known ones when there is none. */
  get(name: string): RecordDecoder {
    const decoder = this.#decoders.get(name);
    if (decoder === undefined) {
      throw new SstFilterError(
        "BAD_OPTIONS",
        `no decoder named ${JSON.stringify(name)} (there are: ${this.names().join(", ")})`,
      );
    }
    return decoder;
  }

  /** The names of the decoders registered, built-in ones first. */
  names(): string[] {
    return [...this.#decoders.keys()];
  }
}

/** decodedRecords's options: db.scan's, and what to yield for a record that does not decode. */
export interface DecodedRecordsOptions extends DatabaseScanOptions {
  /** What to yield as the record of a key the decoder throws for (undefined: skip the record). */
  onError?: (error: unknown, key: Uint8Array) => unknown;
}

/**
 * The live records of `db` (db.scan(): newest versions, deletions dropped, in the database's order)
 * with what `decoder` makes of each. A record the decoder throws for ends the walk with that error
 * (an SstFilterError names the key in hex) unless `onError` takes it: then it returns what to
 * yield as the record instead (or undefined to skip the record).
 */
export async function* decodedRecords(
  db: Database,
  decoder: RecordDecoder,
  opts: DecodedRecordsOptions = {},
): AsyncGenerator<DecodedRecord, void, undefined> {
  const { onError, ...scan } = opts;
  for await (const r of db.scan(scan)) {
    let record: unknown;
    try {
      record = decoder.decode(r.key, r.value);
    } catch (error) {
      if (onError === undefined) throw aboutKey(error, r.key);
      record = onError(error, r.key);
      if (record === undefined) continue;
    }
    yield { key: r.key, value: r.value, record };
  }
}

/** @internal The error, an SstFilterError saying which record (key in hex) it is about. */
export function aboutKey(error: unknown, key: Uint8Array): unknown {
  if (!(error instanceof SstFilterError)) return error;
  const hex = Array.from(key, (b) => b.toString(16).padStart(2, "0")).join("");
  let message = messageWithoutOffset(error.message, error.offset);
  if (error.file !== undefined && message.startsWith(`${error.file}: `))
    message = message.slice(error.file.length + 2);
  return new SstFilterError(error.code, `record 0x${hex}: ${message}`, error.offset, error.file);
}

const latin1 = (bytes: Uint8Array): string => String.fromCharCode(...bytes.subarray(0, 512));

const LOCAL_STORAGE = /^(VERSION$|META:|METAACCESS:|_[^\0]*\0)/s;
const SESSION_STORAGE = /^(version$|next-map-id$|namespace-|map-\d+-)/s;

/**
 * Which of Chrome's stores `db` is, or null: "indexeddb" when its comparator is idb_cmp1;
 * "localstorage" when every key it shows (each table's smallest and largest, each key in the live
 * logs) is `VERSION`, `META:…`, `METAACCESS:…` or `_<origin>\0…`; "sessionstorage" when every one
 * is `version`, `next-map-id`, `namespace-…` or `map-<id>-…`. Reads the logs, not the tables.
 */
export async function detectStore(heap: WasmHeap, db: Database): Promise<StoreKind | null> {
  if (db.comparator === heap.constants.comparatorNames.indexedDb) return "indexeddb";
  const keys: string[] = [];
  for (const level of db.levels) {
    for (const f of level.files) keys.push(latin1(f.smallestKey), latin1(f.largestKey));
  }
  try {
    for (const log of (await db.recoverLogs()).logs) {
      for (const r of log.records) if (r.columnFamily === 0) keys.push(latin1(r.key));
    }
  } catch {
    // A log that does not replay says nothing either way: the tables' keys decide.
  }
  if (keys.length === 0) return null;
  if (keys.every((k) => LOCAL_STORAGE.test(k))) return "localstorage";
  if (keys.every((k) => SESSION_STORAGE.test(k))) return "sessionstorage";
  return null;
}

/** One origin's localStorage as the page sees it. */
export interface LocalStorageOrigin {
  origin: string;
  /** The items, by key (JavaScript's string order). */
  items: { key: string; value: string }[];
}

/** One sessionStorage area: a tab's namespace for an origin, and its items. */
export interface SessionStorageArea {
  /** The namespace's id (a GUID with underscores), null for a map no namespace names. */
  namespace: string | null;
  origin: string | null;
  mapId: number;
  /** The items, by key (JavaScript's string order). */
  items: { key: string; value: string }[];
}

interface StorageItem {
  kind: string;
  origin?: string;
  namespace?: string;
  mapId?: number;
  key?: string;
  value?: string;
}

const byKey = (a: { key: string }, b: { key: string }): number =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : 0;

/** A localStorage database (detectStore "localstorage") as origin → key → value. */
export async function readLocalStorage(db: Database, decoder: RecordDecoder): Promise<LocalStorageOrigin[]> {
  const origins = new Map<string, { key: string; value: string }[]>();
  for await (const { record } of decodedRecords(db, decoder)) {
    const r = record as StorageItem;
    if (r.kind !== "item") continue;
    const items = origins.get(r.origin!) ?? [];
    items.push({ key: r.key!, value: r.value! });
    origins.set(r.origin!, items);
  }
  return [...origins].map(([origin, items]) => ({ origin, items: items.sort(byKey) }));
}

/**
 * A sessionStorage database (detectStore "sessionstorage") as areas (namespace and origin) → key →
 * value. A map several namespaces share (a cloned tab) is listed under each of them.
 */
export async function readSessionStorage(
  db: Database,
  decoder: RecordDecoder,
): Promise<SessionStorageArea[]> {
  const maps = new Map<number, { key: string; value: string }[]>();
  const namespaces: { namespace: string; origin: string; mapId: number }[] = [];
  for await (const { record } of decodedRecords(db, decoder)) {
    const r = record as StorageItem;
    if (r.kind === "namespace")
      namespaces.push({ namespace: r.namespace!, origin: r.origin!, mapId: r.mapId! });
    if (r.kind !== "item") continue;
    const items = maps.get(r.mapId!) ?? [];
    items.push({ key: r.key!, value: r.value! });
    maps.set(r.mapId!, items);
  }
  for (const items of maps.values()) items.sort(byKey);
  const out: SessionStorageArea[] = namespaces.map((n) => ({ ...n, items: maps.get(n.mapId) ?? [] }));
  const named = new Set(namespaces.map((n) => n.mapId));
  for (const [mapId, items] of maps) {
    if (!named.has(mapId)) out.push({ namespace: null, origin: null, mapId, items });
  }
  return out;
}
