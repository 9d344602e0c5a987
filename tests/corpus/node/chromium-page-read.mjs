// @ts-check
// The reading half of the page chromium.mjs serves to Chromium (chromium-page.mjs writes): every
// IndexedDB database, localStorage and sessionStorage of the origin read back through the web APIs
// (readIndexedDB, readStorage), with keys and values in the tagged JSON of tests/corpus/README.md
// (section chromium_stores). Moved out of chromium-page.mjs; runs in the browser only.

/**
 * Opens `name` at `version`, running `upgrade` in its versionchange transaction.
 * @param {string} name
 * @param {number | undefined} version
 * @param {(db: IDBDatabase, tx: IDBTransaction, oldVersion: number) => void} [upgrade]
 * @returns {Promise<IDBDatabase>}
 */
export function open(name, version, upgrade) {
  return new Promise((resolve, reject) => {
    const request = version === undefined ? indexedDB.open(name) : indexedDB.open(name, version);
    request.onupgradeneeded = (event) => {
      if (upgrade)
        upgrade(request.result, /** @type {IDBTransaction} */ (request.transaction), event.oldVersion);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error(`opening ${name} is blocked`));
  });
}

// ---- Reading back, in tagged JSON ----

const hex = (/** @type {Uint8Array} */ bytes) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** A number in tagged JSON. */
function number(/** @type {number} */ n) {
  if (Number.isNaN(n)) return { $number: "NaN" };
  if (n === Infinity) return { $number: "Infinity" };
  if (n === -Infinity) return { $number: "-Infinity" };
  if (Object.is(n, -0)) return { $number: "-0" };
  return n;
}

/** An IndexedDB key in tagged JSON. @returns {any} */
function taggedKey(/** @type {any} */ key) {
  if (typeof key === "number") return number(key);
  if (typeof key === "string") return key;
  if (key instanceof Date) return { $date: number(key.getTime()) };
  if (key instanceof ArrayBuffer) return { $binary: hex(new Uint8Array(key)) };
  if (Array.isArray(key)) return key.map(taggedKey);
  throw new Error(`not a key: ${String(key)}`);
}

/**
 * A structured-clone value in tagged JSON. `blobs` counts the Blobs and Files met so far in this
 * value (their index in the value's list of external objects).
 * @returns {any}
 */
function taggedValue(/** @type {any} */ v, blobs = { n: 0 }) {
  if (v === null) return null;
  switch (typeof v) {
    case "undefined":
      return { $undefined: true };
    case "boolean":
    case "string":
      return v;
    case "number":
      return number(v);
    case "bigint":
      return { $bigint: v.toString() };
  }
  if (Array.isArray(v)) {
    const out = [];
    for (let i = 0; i < v.length; i++) out.push(i in v ? taggedValue(v[i], blobs) : { $hole: true });
    return out;
  }
  if (v instanceof Date) return { $date: number(v.getTime()) };
  if (v instanceof RegExp) return { $regexp: { source: v.source, flags: v.flags } };
  if (v instanceof Map)
    return { $map: [...v].map(([k, x]) => [taggedValue(k, blobs), taggedValue(x, blobs)]) };
  if (v instanceof Set) return { $set: [...v].map((x) => taggedValue(x, blobs)) };
  if (v instanceof ArrayBuffer) return { $arraybuffer: hex(new Uint8Array(v)) };
  if (ArrayBuffer.isView(v))
    return {
      $view: { type: v.constructor.name, hex: hex(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)) },
    };
  if (v instanceof File)
    return { $blob: { kind: "file", index: blobs.n++, type: v.type, size: v.size, name: v.name } };
  if (v instanceof Blob) return { $blob: { kind: "blob", index: blobs.n++, type: v.type, size: v.size } };
  const cls = Object.prototype.toString.call(v);
  if (["[object Number]", "[object String]", "[object Boolean]", "[object BigInt]"].includes(cls))
    return { $boxed: taggedValue(v.valueOf(), blobs) };
  /** @type {Record<string, any>} */
  const out = {};
  const names = Object.keys(v);
  for (const name of names) out[name] = taggedValue(v[name], blobs);
  return names.length === 1 && names[0].startsWith("$") ? { $object: out } : out;
}

/** Every record of a cursor's walk, as `row(cursor)` gives it. @template T */
function walk(/** @type {IDBRequest<IDBCursor | null>} */ request, /** @type {(c: any) => T} */ row) {
  return /** @type {Promise<T[]>} */ (
    new Promise((resolve, reject) => {
      /** @type {T[]} */
      const rows = [];
      request.onsuccess = () => {
        const cursor = request.result;
        if (!cursor) return resolve(rows);
        rows.push(row(cursor));
        cursor.continue();
      };
      request.onerror = () => reject(request.error);
    })
  );
}

/** Every IndexedDB database of the origin: its stores and their records, its indexes and their entries. */
export async function readIndexedDB() {
  const infos = (await indexedDB.databases()).sort((a, b) => ((a.name ?? "") < (b.name ?? "") ? -1 : 1));
  const databases = [];
  for (const info of infos) {
    const db = await open(/** @type {string} */ (info.name), undefined);
    const stores = [];
    for (const storeName of Array.from(db.objectStoreNames)) {
      const tx = db.transaction(storeName, "readonly");
      const store = tx.objectStore(storeName);
      const records = await walk(store.openCursor(), (c) => ({
        key: taggedKey(c.key),
        primary_key: taggedKey(c.primaryKey),
        value: taggedValue(c.value),
      }));
      const indexes = [];
      for (const indexName of Array.from(store.indexNames)) {
        const index = db.transaction(storeName, "readonly").objectStore(storeName).index(indexName);
        const entries = await walk(index.openKeyCursor(), (c) => ({
          key: taggedKey(c.key),
          primary_key: taggedKey(c.primaryKey),
        }));
        indexes.push({
          name: index.name,
          key_path: index.keyPath,
          unique: index.unique,
          multi_entry: index.multiEntry,
          count: entries.length,
          entries,
        });
      }
      stores.push({
        name: store.name,
        key_path: store.keyPath,
        auto_increment: store.autoIncrement,
        count: records.length,
        records,
        indexes,
      });
    }
    databases.push({ name: db.name, version: db.version, object_stores: stores });
    db.close();
  }
  return { origin: location.origin, user_agent: navigator.userAgent, indexeddb: databases };
}

/** Every item of a Storage, sorted by key (UTF-16 code units). */
function items(/** @type {Storage} */ storage) {
  /** @type {[string, string][]} */
  const out = [];
  for (let i = 0; i < storage.length; i++) {
    const key = /** @type {string} */ (storage.key(i));
    out.push([key, /** @type {string} */ (storage.getItem(key))]);
  }
  return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** localStorage and this session's sessionStorage. */
export function readStorage() {
  return { local_storage: items(localStorage), session_storage: items(sessionStorage) };
}
