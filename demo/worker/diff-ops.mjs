// @ts-check
// The table view's Diff, in a worker of its own (worker-calls.mjs' callInOwnWorker): both tables
// opened here, A as the table view opened it (a File, or the page's ?url=), B picked, dropped or the
// page's ?diff=, and compared as `sstfilter diff A B` compares them (sf.diffTables, its default
// ignore list and number of samples). Cancel terminates this worker: a merge reading blocks
// already in memory never yields to a message, so a cancel message could not stop it.
import { httpSource } from "../../dist/esm/platform/browser.js";
import { sf } from "./backend.mjs";
/** @import { AsyncTable, DiffProgress, HttpSource } from "../../dist/esm/platform/browser.js" */
/** @import { OpArgs } from "./protocol.mjs" */

// The merge's progress reaches the page at most ~20 times a second: it only redraws a line and a bar.
const PROGRESS_INTERVAL_MS = 50;

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
      let last = 0;
      return await sf.diffTables(tables[0], tables[1], {
        onProgress(p) {
          const now = performance.now();
          if (now - last > PROGRESS_INTERVAL_MS) {
            last = now;
            progress(p);
          }
        },
      });
    } finally {
      for (const t of tables) t.dispose();
      for (const r of remotes) r.close();
    }
  },
};
