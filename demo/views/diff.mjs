// @ts-check
// The Diff cards, each comparing in a worker of its own (worker/diff-ops.mjs) with the merge's
// progress and a Cancel, and showing the command line's words. The table view's: the open table
// (A) against a second one (B), picked, dropped on the card or named by the page's ?diff=
// (sf.diffTables; the lines `sstfilter diff A B` prints, sstfilter/tools' tableDiffLines). The
// database view's: the open database folder (A) against a second folder (B), picked or dropped
// on its card (sf.diffDatabases; the lines `sstfilter diff DIR DIR` prints, databaseDiffLines).
import { count, databaseDiffLines, tableDiffLines } from "../../dist/esm/tools/format.js";
import { $, el } from "../dom.mjs";
import { showError } from "../error-banner.mjs";
import { droppedFiles, inputFolder } from "../folder.mjs";
import { callInOwnWorker } from "../worker-calls.mjs";
import { tableName, tableView } from "./table-state.mjs";
/** @import { DatabaseDiffProgress, DiffProgress } from "../../dist/esm/platform/browser.js" */
/** @import { ErrorLike } from "../error-banner.mjs" */
/** @import { Folder } from "../folder.mjs" */
/** @import { OpArgs, OpProgress } from "../worker/protocol.mjs" */
/** @import { OpResult } from "../worker.mjs" */

/**
 * A Diff card: the prefix its elements' ids share (`${prefix}-result`, -progress, -bar, ...) and
 * the running diff's cancel (null: none runs; one diff at a time per card, the newest).
 * @typedef {{ prefix: string, cancelRunning: (() => void) | null }} Card
 */

/** @type {Card} */
const tableCard = { prefix: "diff", cancelRunning: null };
/** @type {Card} */
const databaseCard = { prefix: "db-diff", cancelRunning: null };

/** @type {Folder | null} */
let databaseA = null; // the database view's folder: A of its card
let databaseGeneration = 0; // bumps with every folder the database view opens

/**
 * An element of `card`.
 * @param {Card} card
 * @param {"result" | "progress" | "progress-box" | "bar" | "cancel" | "name"} part
 */
const partOf = (card, part) => $(`${card.prefix}-${part}`);

/**
 * How far a table merge is: the entries read of each table, the differences found among them.
 * @param {DiffProgress} p
 */
function tableProgressText(p) {
  return `${count(p.countA)} entries of A, ${count(p.countB)} of B read · ${count(p.onlyInA)} only in A, ${count(p.onlyInB)} only in B, ${count(p.changed)} changed`;
}

/**
 * How far a database merge is: the column family being compared, its records read and differences.
 * @param {DatabaseDiffProgress} p
 */
function databaseProgressText(p) {
  return `column family ${p.columnFamily}: ${count(p.countA)} records of A, ${count(p.countB)} of B read · ${count(p.onlyInA)} only in A, ${count(p.onlyInB)} only in B, ${count(p.changed)} changed`;
}

/**
 * One diff on `card`: its progress (a line, and a bar where `fraction` knows the total), then its
 * lines; errors (B corrupt, or in another key order) go to the banner, as every view's do.
 * @template {"diff" | "diffDatabases"} K
 * @param {Card} card
 * @param {{
 *   op: K,
 *   args: OpArgs[K],
 *   name: string,
 *   shown: () => boolean,
 *   progressText: (p: OpProgress<K>) => string,
 *   fraction: (p: OpProgress<K>) => number | null,
 *   lines: (d: OpResult<K>) => string[],
 * }} run `shown`: whether A is still the one the view shows
 */
async function runDiff(card, run) {
  card.cancelRunning?.();
  const bar = partOf(card, "bar");
  const status = partOf(card, "progress");
  partOf(card, "progress-box").hidden = false;
  partOf(card, "cancel").hidden = false;
  partOf(card, "result").hidden = true;
  partOf(card, "name").textContent = `B: ${run.name}`;
  bar.style.width = "0%";
  status.textContent = "";
  const started = performance.now();
  const running = callInOwnWorker(run.op, run.args, (p) => {
    if (!current()) return;
    const fraction = run.fraction(p);
    if (fraction !== null) bar.style.width = `${Math.min(100, 100 * fraction).toFixed(1)}%`;
    status.textContent = run.progressText(p);
  });
  card.cancelRunning = running.cancel;
  // Whether this diff is still the one the card shows (not another A's, not a newer diff's).
  const current = () => run.shown() && card.cancelRunning === running.cancel;
  try {
    const d = await running.result;
    if (!current()) return;
    bar.style.width = "100%";
    status.textContent = `${((performance.now() - started) / 1000).toFixed(2)} s`;
    renderLines(card, run.lines(d));
  } catch (error) {
    if (!current()) return;
    const { code } = /** @type {ErrorLike} */ (error);
    status.textContent = code === "AbortError" ? "cancelled" : "";
    if (code !== "AbortError") showError(error, `diff with ${run.name}`);
  } finally {
    if (current()) {
      partOf(card, "cancel").hidden = true;
      card.cancelRunning = null;
    }
  }
}

/**
 * Compares the open table with `file` and shows the diff.
 * @param {File | string} file a File, or an http(s) URL read with ranged requests
 */
export async function diffWith(file) {
  const opened = tableView.opened;
  if (!opened) return;
  const mine = tableView.generation;
  const entriesOfA = opened.info.properties["rocksdb.num.entries"];
  await runDiff(tableCard, {
    op: "diff",
    args: { a: opened.file, b: file, internalKeys: !$("user-keys").checked },
    name: tableName(file),
    shown: () => mine === tableView.generation,
    progressText: tableProgressText,
    // A's entries read, of those A records (rocksdb.num.entries; LevelDB records none, and its
    // bar stays empty beside the counts). The merge reads both tables side by side.
    fraction: (p) => (typeof entriesOfA === "number" && entriesOfA > 0 ? p.countA / entriesOfA : null),
    lines: tableDiffLines,
  });
}

/**
 * Compares the database view's folder with `folder` and shows the diff, every column family.
 * @param {Folder} folder
 */
export async function diffDatabaseWith(folder) {
  if (databaseA === null) return;
  const mine = databaseGeneration;
  await runDiff(databaseCard, {
    op: "diffDatabases",
    args: { a: databaseA.files, b: folder.files },
    name: folder.name,
    shown: () => mine === databaseGeneration,
    progressText: databaseProgressText,
    // A scan's records are not counted before it ends: the line says how far it is.
    fraction: () => null,
    // The command line's default: no field ignored, the live files counted.
    lines: (d) => databaseDiffLines(d, false),
  });
}

/**
 * The diff's lines under the verdict, as the command line prints them: each line a row, its kind
 * (a heading, only in A or B, a change's A and B) a class for its colour.
 * @param {Card} card
 * @param {string[]} all
 */
function renderLines(card, all) {
  const [verdict, ...lines] = all;
  partOf(card, "result").replaceChildren(
    el("div", {
      className: `verdict ${verdict === "A and B are equal" ? "no" : "bad"}`,
      textContent: verdict,
    }),
    ...lines.map((line) => el("div", { className: `diff-line ${lineKind(line)}`, textContent: line })),
  );
  partOf(card, "result").hidden = false;
}

/**
 * What a line says, by its indent and first words (a database's families indent their lines).
 * @param {string} line
 */
function lineKind(line) {
  if (!line.startsWith(" ")) return "diff-head";
  if (/^ +(only in A|A):/.test(line)) return "diff-a";
  if (/^ +(only in B|B):/.test(line)) return "diff-b";
  return "";
}

/**
 * Wires a card's drop zone: dragging over it marks it, a drop on it goes to `dropped`.
 * @param {Card} card
 * @param {(data: DataTransfer) => void} dropped
 */
function wireDrop(card, dropped) {
  const zone = $(`${card.prefix}-drop`);
  for (const type of ["dragenter", "dragover"]) {
    zone.addEventListener(type, (event) => {
      event.preventDefault();
      zone.classList.add("over");
    });
  }
  for (const type of ["dragleave", "drop"]) zone.addEventListener(type, () => zone.classList.remove("over"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    if (event.dataTransfer) dropped(event.dataTransfer);
  });
  partOf(card, "cancel").addEventListener("click", () => card.cancelRunning?.());
}

/** Wires both cards: their pickers, the drop zones they are, and Cancel. */
export function initDiff() {
  $("diff-file").addEventListener("change", () => {
    const file = $("diff-file").files?.[0];
    $("diff-file").value = ""; // the same file picked again diffs again
    if (file) diffWith(file);
  });
  wireDrop(tableCard, (data) => {
    const file = data.files[0];
    if (file) diffWith(file);
  });
  $("db-diff-folder").addEventListener("change", () => {
    const list = $("db-diff-folder").files;
    if (list && list.length > 0) diffDatabaseWith(inputFolder(list));
    $("db-diff-folder").value = "";
  });
  wireDrop(databaseCard, (data) => {
    const { folder, files } = droppedFiles(data);
    files.then(
      (list) => diffDatabaseWith({ name: folder ?? `${list.length} dropped files`, files: list }),
      (error) => showError(error, "reading the dropped folder"),
    );
  });
}

/**
 * Cancels a card's running diff and hides its last one.
 * @param {Card} card
 */
function clearCard(card) {
  card.cancelRunning?.();
  card.cancelRunning = null;
  partOf(card, "result").hidden = true;
  partOf(card, "progress").textContent = "";
  partOf(card, "name").textContent = "";
  partOf(card, "progress-box").hidden = true;
  partOf(card, "cancel").hidden = true;
}

/** Cancels the table view's running diff and hides the last one (another table is opening). */
export function clearDiff() {
  clearCard(tableCard);
}

/**
 * The database view's folder, A of its card (null: none open); its last diff goes.
 * @param {Folder | null} folder
 */
export function setDiffDatabase(folder) {
  databaseGeneration++;
  databaseA = folder;
  clearCard(databaseCard);
}
