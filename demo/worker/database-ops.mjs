// @ts-check
// The database view's ops: the dropped database folder or the database under the page's ?db= URL
// (one at a time), its MANIFEST and logs as the LSM picture draws them, and Gets with their route
// (db.explainGet); the Stores view reads the same database (stores-ops.mjs).
import { parseDatabaseFileName } from "../../dist/esm/platform/browser.js";
import { sf } from "./backend.mjs";
import { keyBytes, plainError, VALUE_PREVIEW_BYTES } from "./protocol.mjs";
import { forgetStores, storesOps } from "./stores-ops.mjs";
/** @import { Database, DatabaseSource } from "../../dist/esm/platform/browser.js" */
/** @import { DatabaseFolder, OpArgs, WalSummary } from "./protocol.mjs" */

/** @type {Database | null} */
let database = null; // the dropped database folder, or the database under a URL

/**
 * `source` with the size of every file it opens or reads whole noted in `sizes`: HTTP lists no
 * sizes, and a log's is known once the replay opens it.
 * @param {DatabaseSource} source
 * @param {Map<string, number>} sizes
 * @returns {DatabaseSource}
 */
function notingSizes(source, sizes) {
  const { open } = source;
  return {
    ...source,
    read: async (name) => {
      const bytes = await source.read(name);
      sizes.set(name, bytes.length);
      return bytes;
    },
    open:
      open &&
      (async (name) => {
        const opened = await open.call(source, name);
        sizes.set(name, opened.source.size);
        return opened;
      }),
  };
}

/**
 * The database `folder` names, opened, with the sizes of its files known so far and the URL of
 * each file (null for a dropped folder's: the view opens those as Files).
 * @param {DatabaseFolder} folder
 */
async function openFolder(folder) {
  if (Array.isArray(folder)) {
    const sizes = new Map(folder.map((f) => [f.name, f.size]));
    return { db: await sf.openDatabase(folder), sizes, urlOf: () => null };
  }
  /** @type {Map<string, number>} */
  const sizes = new Map();
  const source = await sf.httpDatabaseSource(
    folder.url,
    folder.files === null ? {} : { files: folder.files },
  );
  const db = await sf.openDatabase(notingSizes(source, sizes));
  return { db, sizes, urlOf: (/** @type {string} */ name) => source.fileUrl(name) };
}

/**
 * The database's live write-ahead logs with their record counts, from the memtable the core
 * replays for Gets (the records stay in wasm memory: a log of hundreds of megabytes fits); when
 * the replay fails (the picture still shows the tables), every *.log file of the folder with the
 * error.
 * @param {Database} db
 * @param {Map<string, number>} sizes file sizes by name
 * @returns {Promise<WalSummary[]>}
 */
async function walSummaries(db, sizes) {
  try {
    return (await db.memtableLogs()).map((log) => ({
      name: log.name,
      size: sizes.get(log.name) ?? 0,
      records: log.records,
      end: log.end,
      error: log.stopped === null ? null : `replay stopped (${log.stopped.reason}): ${log.stopped.what}`,
    }));
  } catch (thrown) {
    const { code, message } = plainError(thrown);
    return db.fileNames
      .filter((name) => parseDatabaseFileName(name)?.kind === "wal")
      .map((name) => ({
        name,
        size: sizes.get(name) ?? 0,
        records: null,
        end: null,
        error: `${code}: ${message}`,
      }));
  }
}

export const databaseOps = {
  // The Stores view's: openStores, storeRecords (stores-ops.mjs).
  ...storesOps(sf, () => database),

  /**
   * Opens a dropped database folder or the database under a URL: the MANIFEST's live files per
   * column family and level, the logs, and whether a Get can be explained.
   * @param {OpArgs["openDatabase"]} args
   */
  async openDatabase({ folder }) {
    database?.dispose(); // the tables its Gets opened
    database = null;
    forgetStores();
    const { db, sizes, urlOf } = await openFolder(folder);
    const wals = await walSummaries(db, sizes);
    const present = new Set(db.fileNames);
    database = db;
    return {
      format: db.format,
      manifest: db.manifest,
      manifestEnd: db.manifestEnd,
      lastSequence: db.lastSequence,
      editCount: db.editCount,
      columnFamilies: db.columnFamilies.map((cf) => ({
        id: cf.id,
        name: cf.name,
        comparator: cf.comparator,
        levels: cf.levels.map((l) => ({
          level: l.level,
          bytes: l.bytes,
          files: l.files.map((f) => ({
            name: f.name,
            size: f.size,
            smallestKey: f.smallestKey,
            largestKey: f.largestKey,
            smallestSeqno: f.smallestSeqno,
            largestSeqno: f.largestSeqno,
            present: present.has(f.name),
            url: urlOf(f.name),
          })),
        })),
      })),
      wals,
    };
  },

  /**
   * db.explainGet for a key typed as text or hex, in one column family.
   * @param {OpArgs["explain"]} args
   */
  async explain({ key, hex, columnFamily }) {
    if (database === null) throw new Error("no database is open");
    const explanation = await database.explainGet(keyBytes(key, hex), { columnFamily });
    const value = explanation.result.value;
    return {
      ...explanation,
      result: { ...explanation.result, value: value?.slice(0, VALUE_PREVIEW_BYTES) ?? null },
      valueSize: value?.length ?? 0,
    };
  },
};
