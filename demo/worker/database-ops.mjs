// @ts-check
// The database view's ops: the dropped database folder (one at a time), its MANIFEST and logs as
// the LSM picture draws them, and Gets with their route (db.explainGet); the Stores view reads the
// same folder (stores-ops.mjs).
import { parseDatabaseFileName } from "../../dist/esm/platform/browser.js";
import { sf } from "./backend.mjs";
import { keyBytes, plainError, VALUE_PREVIEW_BYTES } from "./protocol.mjs";
import { forgetStores, storesOps } from "./stores-ops.mjs";
/** @import { Database } from "../../dist/esm/platform/browser.js" */
/** @import { OpArgs, WalSummary } from "./protocol.mjs" */

/** @type {Database | null} */
let database = null; // the dropped database folder

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
   * Opens a dropped database folder: the MANIFEST's live files per column family and level, the
   * logs, and whether a Get can be explained.
   * @param {OpArgs["openDatabase"]} args
   */
  async openDatabase({ files }) {
    database?.dispose(); // the tables its Gets opened
    database = null;
    forgetStores();
    const db = await sf.openDatabase(files);
    const sizes = new Map(files.map((f) => [f.name, f.size]));
    const wals = await walSummaries(db, sizes);
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
            present: sizes.has(f.name),
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
