// @ts-check
// The table view's Diff: the open table (A) against a second one (B), picked, dropped on the card or
// named by the page's ?diff=, compared in a worker of its own (worker/diff-ops.mjs: sf.diffTables)
// with the merge's progress and a Cancel, and shown in the command line's words: the lines
// `sstfilter diff A B` prints (sstfilter/tools' tableDiffLines).
import { count, tableDiffLines } from "../../dist/esm/tools/format.js";
import { $, el } from "../dom.mjs";
import { showError } from "../error-banner.mjs";
import { callInOwnWorker } from "../worker-calls.mjs";
import { tableName, tableView } from "./table-state.mjs";
/** @import { DiffProgress, TableDiff } from "../../dist/esm/platform/browser.js" */
/** @import { ErrorLike } from "../error-banner.mjs" */

/**
 * How far the merge is: the entries read of each table, the differences found among them.
 * @param {DiffProgress} p
 */
function progressText(p) {
  return `${count(p.countA)} entries of A, ${count(p.countB)} of B read · ${count(p.onlyInA)} only in A, ${count(p.onlyInB)} only in B, ${count(p.changed)} changed`;
}

/** @type {(() => void) | null} */
let cancelRunning = null; // the running diff's cancel (null: none runs)

/**
 * Compares the open table with `file` and shows the diff; errors (B corrupt, or in another key
 * order) go to the banner, as every view's do.
 * @param {File | string} file a File, or an http(s) URL read with ranged requests
 */
export async function diffWith(file) {
  if (!tableView.opened) return;
  cancelRunning?.(); // one diff at a time: the newest
  const mine = tableView.generation;
  const name = tableName(file);
  const bar = $("diff-bar");
  const status = $("diff-progress");
  const entriesOfA = tableView.opened.info.properties["rocksdb.num.entries"];
  $("diff-progress-box").hidden = false;
  $("diff-cancel").hidden = false;
  $("diff-result").hidden = true;
  $("diff-name").textContent = `B: ${name}`;
  bar.style.width = "0%";
  status.textContent = "";
  const started = performance.now();
  const internalKeys = !$("user-keys").checked;
  const running = callInOwnWorker("diff", { a: tableView.opened.file, b: file, internalKeys }, (p) => {
    if (!current()) return;
    // The bar: A's entries read, of those A records (rocksdb.num.entries; LevelDB records none,
    // and its bar stays empty beside the counts). The merge reads both tables side by side.
    if (typeof entriesOfA === "number" && entriesOfA > 0) {
      bar.style.width = `${Math.min(100, (100 * p.countA) / entriesOfA).toFixed(1)}%`;
    }
    status.textContent = progressText(p);
  });
  cancelRunning = running.cancel;
  // Whether this diff is still the one the card shows (not another table's, not a newer diff's).
  const current = () => mine === tableView.generation && cancelRunning === running.cancel;
  try {
    const d = await running.result;
    if (!current()) return;
    bar.style.width = "100%";
    status.textContent = `${((performance.now() - started) / 1000).toFixed(2)} s`;
    renderDiff(d);
  } catch (error) {
    if (!current()) return;
    const { code } = /** @type {ErrorLike} */ (error);
    status.textContent = code === "AbortError" ? "cancelled" : "";
    if (code !== "AbortError") showError(error, `diff with ${name}`);
  } finally {
    if (current()) {
      $("diff-cancel").hidden = true;
      cancelRunning = null;
    }
  }
}

/**
 * The diff's lines under the verdict, as `sstfilter diff A B` prints them: each line a row, its
 * kind (a count, only in A or B, a change's A and B) a class for its colour.
 * @param {TableDiff} d
 */
function renderDiff(d) {
  const [verdict, ...lines] = tableDiffLines(d);
  $("diff-result").replaceChildren(
    el("div", { className: `verdict ${d.equal ? "no" : "bad"}`, textContent: verdict }),
    ...lines.map((line) => el("div", { className: `diff-line ${lineKind(line)}`, textContent: line })),
  );
  $("diff-result").hidden = false;
}

/**
 * What a line of tableDiffLines says, by its indent and first words.
 * @param {string} line
 */
function lineKind(line) {
  if (!line.startsWith(" ")) return "diff-head";
  if (/^ {2}only in A:|^ {4}A:/.test(line)) return "diff-a";
  if (/^ {2}only in B:|^ {4}B:/.test(line)) return "diff-b";
  return "";
}

/** Wires the card: its file picker, the drop zone it is, and Cancel. */
export function initDiff() {
  const zone = $("diff-drop");
  $("diff-file").addEventListener("change", () => {
    const file = $("diff-file").files?.[0];
    $("diff-file").value = ""; // the same file picked again diffs again
    if (file) diffWith(file);
  });
  for (const type of ["dragenter", "dragover"]) {
    zone.addEventListener(type, (event) => {
      event.preventDefault();
      zone.classList.add("over");
    });
  }
  for (const type of ["dragleave", "drop"]) zone.addEventListener(type, () => zone.classList.remove("over"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    const file = event.dataTransfer?.files[0];
    if (file) diffWith(file);
  });
  $("diff-cancel").addEventListener("click", () => cancelRunning?.());
}

/** Cancels a running diff and hides the last one (another table is opening). */
export function clearDiff() {
  cancelRunning?.();
  cancelRunning = null;
  $("diff-result").hidden = true;
  $("diff-progress").textContent = "";
  $("diff-name").textContent = "";
  $("diff-progress-box").hidden = true;
  $("diff-cancel").hidden = true;
}
