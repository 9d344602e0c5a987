// @ts-check
// The worker's side of the Stores view (views/stores.mjs): a dropped folder recognised as one of
// Chrome's stores (sf.detectStore) is read whole once, as the page sees it (sf.readIndexedDb,
// readLocalStorage, readSessionStorage), and kept here; the page asks for the tree (groups →
// stores with their counts) and for pages of 100 records, or the page a key seeks to.
import { compareIdbKeys } from "../../dist/esm/platform/browser.js";
/** @import { Database, SstFilter, StoreKind, TaggedJson } from "../../dist/esm/platform/browser.js" */

/**
 * One list of records: an object store, or an origin's (or session area's) items.
 * @typedef {object} StoreRows
 * @property {string} label
 * @property {string} detail
 * @property {{ key: TaggedJson, value: TaggedJson }[]} rows in key order
 */

/**
 * A database (IndexedDB) or an origin / session area (its one store: the items).
 * @typedef {object} StoreGroup
 * @property {string} label
 * @property {string} detail
 * @property {StoreRows[]} stores
 */

/**
 * What the view keeps of the folder.
 * @typedef {object} StoresContents
 * @property {StoreKind} kind
 * @property {StoreGroup[]} groups
 * @property {(a: TaggedJson, b: TaggedJson) => number} compare the rows' key order
 */

/** @type {StoresContents | null} */
let contents = null;

/** The folder changed: what was read of the last one is dropped. */
export function forgetStores() {
  contents = null;
}

/**
 * JavaScript's string order (localStorage and sessionStorage keys).
 * @param {TaggedJson} a
 * @param {TaggedJson} b
 */
const compareStrings = (a, b) => {
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * @param {TaggedJson} keyPath
 * @returns {string}
 */
const keyPathText = (keyPath) => (keyPath === null ? "no key path" : `key path ${JSON.stringify(keyPath)}`);

/**
 * Reads the folder as its store, if it is one.
 * @param {SstFilter} sf
 * @param {Database} db
 * @returns {Promise<StoresContents | null>}
 */
async function read(sf, db) {
  const kind = await sf.detectStore(db);
  if (kind === "indexeddb") {
    const databases = await sf.readIndexedDb(db);
    return {
      kind,
      compare: compareIdbKeys,
      groups: databases.map((d) => ({
        label: d.name,
        detail: `${d.origin} · version ${JSON.stringify(d.version)}`,
        stores: d.objectStores.map((s) => ({
          label: s.name,
          detail:
            `${keyPathText(s.keyPath)}${s.autoIncrement ? " · key generator" : ""}` +
            (s.indexes.length > 0 ? ` · indexes ${s.indexes.map((i) => i.name).join(", ")}` : ""),
          rows: s.records.map((r) => ({ key: r.key, value: r.value })),
        })),
      })),
    };
  }
  if (kind === "localstorage") {
    const origins = await sf.readLocalStorage(db);
    return {
      kind,
      compare: compareStrings,
      groups: origins.map((o) => ({
        label: o.origin,
        detail: "localStorage",
        stores: [{ label: "items", detail: "", rows: o.items }],
      })),
    };
  }
  if (kind === "sessionstorage") {
    const areas = await sf.readSessionStorage(db);
    return {
      kind,
      compare: compareStrings,
      groups: areas.map((a) => ({
        label: a.origin ?? `map ${a.mapId}`,
        detail:
          a.namespace === null ? "sessionStorage, no namespace" : `sessionStorage, namespace ${a.namespace}`,
        stores: [{ label: "items", detail: "", rows: a.items }],
      })),
    };
  }
  return null;
}

/**
 * The ops of the Stores view; `database` gives the open database (null: none).
 * @param {SstFilter} sf
 * @param {() => Database | null} database
 */
export function storesOps(sf, database) {
  return {
    /**
     * Reads the open folder as one of Chrome's stores: its kind and tree, or null when it is none.
     * @param {{}} _args
     */
    async openStores(_args) {
      const db = database();
      contents = null;
      if (db === null) return null;
      contents = await read(sf, db);
      if (contents === null) return null;
      return {
        kind: contents.kind,
        groups: contents.groups.map((g) => ({
          label: g.label,
          detail: g.detail,
          stores: g.stores.map((s) => ({ label: s.label, detail: s.detail, count: s.rows.length })),
        })),
      };
    },

    /**
     * A page of one store's records, keys and values as JSON text: from `offset`, or from the first
     * key at or after `seek` (IndexedDB: the text as JSON, e.g. 42 or ["a", 1] or {"$date": 0}, else
     * as a string).
     * @param {{ group: number, store: number, offset: number, size: number, seek: string | null }} args
     */
    async storeRecords({ group, store, offset, size, seek }) {
      const s = contents?.groups[group]?.stores[store];
      if (contents === null || s === undefined) throw new Error("no such store: open the folder again");
      let start = Math.max(0, Math.min(offset, s.rows.length));
      if (seek !== null) {
        const target = contents.kind === "indexeddb" ? parseKey(seek) : seek;
        let low = 0;
        let high = s.rows.length;
        while (low < high) {
          const mid = (low + high) >> 1;
          if (contents.compare(s.rows[mid].key, target) < 0) low = mid + 1;
          else high = mid;
        }
        start = low;
      }
      return {
        offset: start,
        total: s.rows.length,
        rows: s.rows.slice(start, start + size).map((r, i) => ({
          index: start + i,
          key: JSON.stringify(r.key),
          value: JSON.stringify(r.value),
        })),
      };
    },
  };
}

/**
 * A seek box's text as an IDB key: JSON where it parses as one, else the text as a string.
 * @param {string} text
 * @returns {TaggedJson}
 */
function parseKey(text) {
  try {
    return /** @type {TaggedJson} */ (JSON.parse(text));
  } catch {
    return text;
  }
}
