// @ts-check
// The Diffs, each in a worker of its own (worker-calls.mjs' callInOwnWorker). The table view's:
// both tables opened here, A as the table view opened it (a File, or the page's ?url=), B picked,
// dropped or the page's ?diff=, and compared as `sstfilter diff A B` compares them (sf.diffTables,
// its default ignore list and number of samples). The database view's: both folders' files opened
// as databases and compared as `sstfilter diff DIR DIR` compares them (sf.diffDatabases, every
// column family). Cancel terminates this worker: a merge reading blocks already in memory never
// yields to a message, so a cancel message could not stop it.
import { httpSource } from "../../dist/esm/platform/browser.js";
import { sf } from "./backend.mjs";
/** @import { AsyncTable, Database, DiffProgress, HttpSource } from "../../dist/esm/platform/browser.js" */
/** @import { OpProgress } from "./protocol.mjs" */
/** @import { OpArgs } from "./protocol.mjs" */

// The merge's progress reaches the page at most ~20 times a second: it only redraws a line and a bar.
const PROGRESS_INTERVAL_MS = 50;

/**
 * `progress` called at most once per PROGRESS_INTERVAL_MS.
 * @template P
 * @param {(progress: P) => void} progress
 * @returns {(progress: P) => void}
 */
function throttled(progress) {
  let last = 0;
  return (p) => {
    const now = performance.now();
    if (now - last > PROGRESS_INTERVAL_MS) {
      last = now;
      progress(p);
    }
  };
}

export const diffOps = {
  /**
   * @param {OpArgs["diff"]} args
   * @param {(progress: DiffProgress) => void} progress
   */
  async diff({ a, b, internalKeys }, progress) {
    /** @type {HttpSource[]} */
    const remotes = [];
    /** @type {AsyncTable[]} */
    const tables = [];
    try {
      for (const file of [a, b]) {
        // A URL is read through an httpSource: its size comes with the first answer.
        const bytes = typeof file === "string" ? await httpSource(file) : file;
        if (!(bytes instanceof Blob)) remotes.push(bytes);
        tables.push(await sf.openTableFrom(bytes, { internalKeys }));
      }
      return await sf.diffTables(tables[0], tables[1], { onProgress: throttled(progress) });
    } finally {
      for (const t of tables) t.dispose();
      for (const r of remotes) r.close();
    }
  },

  /**
   * @param {OpArgs["diffDatabases"]} args
   * @param {(progress: OpProgress<"diffDatabases">) => void} progress
   */
  async diffDatabases({ a, b }, progress) {
    /** @type {Database[]} */
    const databases = [];
    try {
      for (const files of [a, b]) databases.push(await sf.openDatabase(files));
      return await sf.diffDatabases(databases[0], databases[1], { onProgress: throttled(progress) });
    } finally {
      for (const db of databases) db.dispose();
    }
  },
};
