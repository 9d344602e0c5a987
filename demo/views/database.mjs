// @ts-check
// The viewer's database view: a dropped database folder, or the database under the page's ?db=
// URL, drawn as its LSM tree (a row per level,
// the write-ahead logs above level 0, each file a box sized by its bytes or placed on a key axis
// shared by all levels), a click on a table opening the table view, and a Get box that walks the
// route db.explainGet reports: the logs, then each table consulted, with its filter's answer and
// what it found, ending at the file that decided (its words: database-route.mjs).
import { compareBytes, parseDatabaseFileName } from "../../dist/esm/platform/browser.js";
import {
  byteSize,
  count,
  getStepText,
  getStepVerdict,
  plural,
  printableText,
  toHex,
} from "../../dist/esm/tools/format.js";
import { $, el, keyText } from "../dom.mjs";
import { decidingStep, showResult } from "./database-route.mjs";
/** @import { GetExplanation } from "../../dist/esm/platform/browser.js" */
/** @import { DatabaseFolder, WalSummary } from "../worker/protocol.mjs" */
/** @import { OpResult } from "../worker.mjs" */

/** @typedef {OpResult<"openDatabase">} DatabaseInfo */
/** @typedef {DatabaseInfo["columnFamilies"][number]} FamilyInfo */
/** @typedef {FamilyInfo["levels"][number]} LevelInfo */
/** @typedef {LevelInfo["files"][number]} FileInfo */
/** @typedef {OpResult<"explain">} ExplainAnswer */

/**
 * What the view needs of the page around it.
 * @typedef {object} DatabaseViewHost
 * @property {(folder: DatabaseFolder) => Promise<DatabaseInfo>} open the worker's openDatabase
 * @property {(key: string, hex: boolean, columnFamily: string) => Promise<ExplainAnswer>} explain
 * @property {(file: File | string) => void} openTable shows the table view for one of the
 *   database's tables: a File of the folder, or its URL
 * @property {(error: unknown, context?: string) => void} showError null hides the banner
 */

// How long the route animation dwells on each file consulted, and at most on a whole route (a
// Get through dozens of level-0 files goes faster).
const STEP_MS = 450;
const ROUTE_MS = 6000;
// How many bytes after the keys' common prefix place a key on the axis: 6 fit a double exactly.
const AXIS_BYTES = 6;

// ------------------------------------------------------------------------------------------------
// Geometry: pure functions of the database's files

/**
 * A shared axis for keys: each key's place in [0, 1] between the smallest and the largest of
 * `keys`, read as a base-256 fraction of the bytes after the prefix they all share (so keys
 * spread as far as their bytes do; the order is the bytewise comparator's).
 * @param {Uint8Array[]} keys at least one
 * @returns {{ place: (key: Uint8Array) => number, low: Uint8Array, high: Uint8Array }}
 */
function keyAxis(keys) {
  let low = keys[0];
  let high = keys[0];
  for (const k of keys) {
    if (compareBytes(k, low) < 0) low = k;
    if (compareBytes(k, high) > 0) high = k;
  }
  let prefix = 0;
  while (prefix < low.length && prefix < high.length && low[prefix] === high[prefix]) prefix++;
  /** @param {Uint8Array} key */
  const fraction = (key) => {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < AXIS_BYTES; i++) {
      scale /= 256;
      value += (key[prefix + i] ?? 0) * scale;
    }
    return value;
  };
  const from = fraction(low);
  const span = fraction(high) - from;
  /** @param {Uint8Array} key */
  const place = (key) => (span > 0 ? Math.min(1, Math.max(0, (fraction(key) - from) / span)) : 0);
  return { place, low, high };
}

/**
 * Lanes for intervals that may overlap (level 0's files): each goes to the first lane whose last
 * interval ends before it starts, in the order given.
 * @param {{ from: number, to: number }[]} spans
 * @returns {{ lane: number[], lanes: number }}
 */
function packLanes(spans) {
  /** @type {number[]} */
  const ends = [];
  const lane = spans.map(({ from, to }) => {
    let i = ends.findIndex((end) => end < from);
    if (i < 0) i = ends.push(to) - 1;
    else ends[i] = to;
    return i;
  });
  return { lane, lanes: Math.max(1, ends.length) };
}

/**
 * The levels the picture shows: level 0 to the deepest level with files (empty levels between
 * them stay as empty rows: they say where the tree has no data).
 * @param {FamilyInfo} family
 */
function shownLevels(family) {
  let deepest = 0;
  family.levels.forEach((l) => l.files.length > 0 && (deepest = l.level));
  return family.levels.filter((l) => l.level <= deepest);
}

// ------------------------------------------------------------------------------------------------
// The view

/** @type {DatabaseViewHost | null} */
let host = null;
/** @type {DatabaseInfo | null} */
let info = null;
/** @type {Map<string, File | string>} the tables a click opens: Files, or URLs */
let filesByName = new Map();
/** @type {"size" | "keys"} */
let mode = "size";
let family = 0; // index into info.columnFamilies
/**
 * The route drawn last and how many of its steps are shown so far (the animation adds them one
 * by one); a redraw of the picture paints them again.
 * @type {{ explanation: GetExplanation, shown: number } | null}
 */
let route = null;
let routeRun = 0; // bumps with every route drawn (and every database): older animations stop

/**
 * Wires the view's controls (once, when the page loads).
 * @param {DatabaseViewHost} h
 */
export function initDatabaseView(h) {
  host = h;
  $("cf-select").addEventListener("change", (event) => {
    family = Number(/** @type {HTMLSelectElement} */ (event.target).value);
    clearRoute();
  });
  for (const button of document.querySelectorAll("#lsm-mode button")) {
    button.addEventListener("click", () => {
      mode = /** @type {"size" | "keys"} */ (/** @type {HTMLElement} */ (button).dataset.mode);
      drawPicture();
    });
  }
  $("get-form").addEventListener("submit", (event) => {
    event.preventDefault();
    runGet();
  });
  const picture = $("lsm");
  picture.addEventListener("mouseover", (event) => showTip(/** @type {Element} */ (event.target)));
  picture.addEventListener("focusin", (event) => showTip(/** @type {Element} */ (event.target)));
  picture.addEventListener("mouseleave", () => ($("lsm-tip").hidden = true));
  picture.addEventListener("focusout", () => ($("lsm-tip").hidden = true));
  picture.addEventListener("click", (event) => {
    const box = /** @type {HTMLElement | null} */ (
      /** @type {Element} */ (event.target).closest(".lsm-file")
    );
    const file = box?.dataset.level !== undefined ? filesByName.get(box.dataset.file ?? "") : undefined;
    if (file !== undefined) host?.openTable(file);
  });
}

/**
 * The tables a click opens, by name: the folder's Files, or the URLs the worker gave.
 * @param {DatabaseFolder} folder
 * @param {DatabaseInfo} opened
 * @returns {Map<string, File | string>}
 */
function openableTables(folder, opened) {
  /** @type {Map<string, File | string>} */
  const out = new Map();
  if (Array.isArray(folder)) for (const f of folder) out.set(f.name, f);
  for (const l of opened.columnFamilies.flatMap((cf) => cf.levels)) {
    for (const f of l.files) if (f.url !== null) out.set(f.name, f.url);
  }
  return out;
}

/**
 * Opens a database, a folder's files or a URL's, and draws it.
 * @param {DatabaseFolder} folder the folder's files (only base names count), or its URL
 * @param {string} name the folder's name, for the heading
 * @returns {Promise<boolean>} whether it opened
 */
export async function openDatabaseFolder(folder, name) {
  if (host === null) throw new Error("initDatabaseView first");
  routeRun++;
  $("db-name").textContent = name;
  $("db-facts").textContent = "";
  setStatus("opening…", "");
  try {
    info = await host.open(folder);
  } catch (error) {
    info = null;
    host.showError(error, name);
    return false;
  }
  filesByName = openableTables(folder, info);
  family = 0;
  const d = info;
  const tables = d.columnFamilies.reduce((n, cf) => n + cf.levels.reduce((m, l) => m + l.files.length, 0), 0);
  $("db-facts").textContent =
    `${d.format === "rocksdb" ? "RocksDB" : "LevelDB"} · ${d.manifest} (${count(d.editCount)} edits` +
    `${d.manifestEnd.kind === "torn" ? `, torn tail at byte ${count(d.manifestEnd.offset)}` : ""}) · ` +
    `${count(tables)} live tables · last sequence ${count(d.lastSequence)}`;
  setStatus("open", "ok");
  const select = /** @type {HTMLSelectElement} */ ($("cf-select"));
  select.replaceChildren(
    ...d.columnFamilies.map((cf, i) => el("option", { value: String(i), textContent: cf.name })),
  );
  /** @type {HTMLElement} */ ($("cf-label")).hidden = d.columnFamilies.length < 2;
  clearRoute();
  return true;
}

/**
 * @param {string} text
 * @param {string} kind
 */
function setStatus(text, kind) {
  const pill = $("db-status");
  pill.textContent = text;
  pill.className = `pill ${kind}`;
}

/** Draws the picture for the database, column family and mode chosen, and the route so far. */
function drawPicture() {
  if (info === null) return;
  const cf = info.columnFamilies[family];
  for (const button of document.querySelectorAll("#lsm-mode button")) {
    button.setAttribute("aria-pressed", String(/** @type {HTMLElement} */ (button).dataset.mode === mode));
  }
  const levels = shownLevels(cf);
  // The logs belong to every column family: they sit above level 0 in each picture.
  const walRow = levelRow(
    "WAL",
    `${plural(info.wals.length, "log")} · ${byteSize(info.wals.reduce((n, w) => n + w.size, 0))}`,
    info.wals.map(walBox),
    "wal",
  );
  const rows = levels.map((l) =>
    levelRow(
      `L${l.level}`,
      l.files.length === 0 ? "empty" : `${plural(l.files.length, "file")} · ${byteSize(l.bytes)}`,
      l.files.map((f) => fileBox(f, l.level)),
      "",
    ),
  );
  const picture = $("lsm");
  picture.className = `lsm by-${mode}`;
  picture.replaceChildren(walRow, ...rows);
  if (mode === "size") layOutBySize(info.wals, levels, walRow, rows);
  else layOutByKeys(levels, walRow, rows);
  for (let i = 0; i < (route?.shown ?? 0); i++) paintStep(i);
  $("lsm-caption").textContent =
    mode === "size"
      ? "widths: bytes, one scale for every row · click a table to open it"
      : "each table from its smallest to its largest key, one axis for all · click a table to open it";
}

/**
 * @param {string} name
 * @param {string} note
 * @param {HTMLElement[]} boxes
 * @param {string} className
 */
function levelRow(name, note, boxes, className) {
  return el(
    "div",
    { className: `lsm-row ${className}` },
    el("div", { className: "lsm-head" }, el("b", { textContent: name }), el("span", { textContent: note })),
    el("div", { className: "lsm-track" }, ...boxes),
  );
}

/**
 * A box's label: the file's number without its zeros ("000012.sst": "12").
 * @param {string} name
 */
const fileNumber = (name) => String(parseDatabaseFileName(name)?.number ?? name);

/** @param {WalSummary} wal */
function walBox(wal) {
  const box = el(
    "div",
    { className: "lsm-file wal", tabIndex: 0 },
    el("span", { className: "lsm-label", textContent: fileNumber(wal.name) }),
    el("small", {
      textContent: wal.records === null ? byteSize(wal.size) : `${count(wal.records)} records`,
    }),
  );
  box.dataset.file = wal.name;
  box.dataset.bytes = String(wal.size);
  return box;
}

/**
 * @param {FileInfo} f
 * @param {number} level
 */
function fileBox(f, level) {
  const box = el(
    "button",
    { className: `lsm-file${f.present ? "" : " missing"}`, type: "button", disabled: !f.present },
    el("span", { className: "lsm-label", textContent: fileNumber(f.name) }),
    el("small", { textContent: byteSize(f.size) }),
  );
  box.dataset.file = f.name;
  box.dataset.level = String(level);
  box.dataset.bytes = String(f.size);
  box.setAttribute("aria-label", `${f.name}, level ${level}, ${byteSize(f.size)}`);
  return box;
}

/**
 * Widths proportional to bytes, one scale for all rows: the fullest row fills the track.
 * @param {WalSummary[]} wals
 * @param {LevelInfo[]} levels
 * @param {HTMLElement} walRow
 * @param {HTMLElement[]} rows
 */
function layOutBySize(wals, levels, walRow, rows) {
  const walBytes = wals.reduce((n, w) => n + w.size, 0);
  const scale = Math.max(1, walBytes, ...levels.map((l) => l.bytes));
  /** @param {HTMLElement} row */
  const size = (row) => {
    for (const box of row.querySelectorAll(".lsm-file")) {
      const bytes = Number(/** @type {HTMLElement} */ (box).dataset.bytes);
      /** @type {HTMLElement} */ (box).style.width = `${((100 * bytes) / scale).toFixed(4)}%`;
    }
  };
  size(walRow);
  rows.forEach(size);
}

/**
 * Each table from its smallest to its largest key on one axis; overlapping files (level 0) in
 * lanes. The logs hold any key: they span the axis.
 * @param {LevelInfo[]} levels
 * @param {HTMLElement} walRow
 * @param {HTMLElement[]} rows
 */
function layOutByKeys(levels, walRow, rows) {
  /**
   * @param {HTMLElement} row
   * @param {{ from: number, to: number }[]} spans
   */
  const lay = (row, spans) => {
    const { lane, lanes } = packLanes(spans);
    const track = /** @type {HTMLElement} */ (row.querySelector(".lsm-track"));
    track.style.setProperty("--lanes", String(lanes));
    [...track.children].forEach((child, i) => {
      const box = /** @type {HTMLElement} */ (child);
      // A box of a few pixels (the minimum width) at the axis' end stays inside the track.
      box.style.left = `min(${(spans[i].from * 100).toFixed(4)}%, 100% - 3px)`;
      box.style.width = `${((spans[i].to - spans[i].from) * 100).toFixed(4)}%`;
      box.style.setProperty("--lane", String(lane[i]));
    });
  };
  lay(
    walRow,
    [...walRow.querySelectorAll(".lsm-file")].map(() => ({ from: 0, to: 1 })),
  );
  const files = levels.flatMap((l) => l.files);
  if (files.length === 0) return; // no keys, no axis
  const { place, low, high } = keyAxis(files.flatMap((f) => [f.smallestKey, f.largestKey]));
  levels.forEach((l, i) =>
    lay(
      rows[i],
      // The axis is bytewise: under a reversing comparator a file's smallest key lies right.
      l.files.map((f) => {
        const [a, b] = [place(f.smallestKey), place(f.largestKey)];
        return { from: Math.min(a, b), to: Math.max(a, b) };
      }),
    ),
  );
  const picture = $("lsm");
  picture.append(
    el(
      "div",
      { className: "lsm-axis" },
      el("span", { textContent: keyText(low, "utf8").text }),
      el("span", { textContent: keyText(high, "utf8").text }),
    ),
  );
  // Where the Get's key lies.
  if (route !== null) {
    picture.append(el("div", { className: "lsm-key-marker", style: `--at:${place(route.explanation.key)}` }));
  }
}

// ------------------------------------------------------------------------------------------------
// Tooltips

/**
 * A key as text where printable, and always in hex.
 * @param {Uint8Array} key
 */
function keyBoth(key) {
  const text = printableText(key);
  const hex = key.length === 0 ? "(empty)" : toHex(key);
  return text === null || text === "" ? hex : `“${text}” · ${hex}`;
}

/** @param {Element} target */
function showTip(target) {
  const box = /** @type {HTMLElement | null} */ (target.closest(".lsm-file"));
  const tip = $("lsm-tip");
  if (box === null || info === null) {
    tip.hidden = true;
    return;
  }
  const name = box.dataset.file ?? "";
  /** @type {string[]} */
  let lines;
  if (box.dataset.level === undefined) {
    const wal = info.wals.find((w) => w.name === name);
    if (wal === undefined) return;
    lines = [
      `${name} · write-ahead log · ${byteSize(wal.size)}`,
      wal.records === null
        ? `the logs could not be read: ${wal.error}`
        : `${plural(wal.records, "record")} · ${wal.end} end${wal.error === null ? "" : `: ${wal.error}`}`,
    ];
  } else {
    const level = Number(box.dataset.level);
    const f = info.columnFamilies[family].levels[level].files.find((x) => x.name === name);
    if (f === undefined) return;
    const seqnos =
      f.smallestSeqno === null
        ? "no sequence numbers recorded (LevelDB)"
        : `seqno ${f.smallestSeqno} .. ${f.largestSeqno}`;
    lines = [
      `${name} · L${level} · ${count(f.size)} bytes${f.present ? "" : " · MISSING from the folder"}`,
      `smallest ${keyBoth(f.smallestKey)}`,
      `largest  ${keyBoth(f.largestKey)}`,
      seqnos,
    ];
  }
  tip.replaceChildren(...lines.map((line) => el("div", { textContent: line })));
  const card = /** @type {HTMLElement} */ (tip.parentElement);
  const at = box.getBoundingClientRect();
  const origin = card.getBoundingClientRect();
  tip.style.left = `${Math.max(0, Math.min(at.left - origin.left, origin.width - 420))}px`;
  tip.style.top = `${at.bottom - origin.top + 6}px`;
  tip.hidden = false;
}

// ------------------------------------------------------------------------------------------------
// Get: the route through logs, levels and filters

async function runGet() {
  if (host === null || info === null) return;
  const key = /** @type {HTMLInputElement} */ ($("get-key")).value;
  const hex = /** @type {HTMLSelectElement} */ ($("get-mode")).value === "hex";
  const cf = info.columnFamilies[family].name;
  try {
    const answer = await host.explain(key, hex, cf);
    host.showError(null);
    await showRoute(answer);
  } catch (error) {
    host.showError(error, "get");
  }
}

/** Takes the route off the picture and empties the Get's answer. */
function clearRoute() {
  routeRun++;
  route = null;
  $("get-route").replaceChildren();
  $("get-summary").textContent = "";
  $("get-result").hidden = true;
  drawPicture();
}

/**
 * The box of the file a route step consulted, if the picture shows it.
 * @param {string} file
 * @returns {HTMLElement | null}
 */
const boxOf = (file) => document.querySelector(`#lsm .lsm-file[data-file="${CSS.escape(file)}"]`);

/**
 * Marks the box of step `i` of the route with what the file answered.
 * @param {number} i
 */
function paintStep(i) {
  if (route === null) return;
  const step = route.explanation.steps[i];
  const box = boxOf(step.file);
  if (box === null) return;
  const { verdict, badge } = getStepVerdict(step);
  box.append(el("span", { className: "route-badge", textContent: badge }));
  box.classList.add(`route-${verdict}`);
  if (i === decidingStep(route.explanation)) box.classList.add("route-decided");
}

const wait = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Draws a Get's route on the picture: each file consulted lights up in turn (all at once when
 * the user prefers reduced motion) with its filter's answer and what it found, then the result.
 * Exported for tests, which draw stubbed explanations.
 * @param {GetExplanation & { valueSize?: number }} explanation
 */
export async function showRoute(explanation) {
  clearRoute();
  const run = routeRun;
  const current = { explanation, shown: 0 };
  route = current;
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (mode === "keys") drawPicture(); // the key's marker
  const list = $("get-route");
  const decided = decidingStep(explanation);
  const dwell = Math.min(STEP_MS, ROUTE_MS / Math.max(1, explanation.steps.length));
  for (const [i, step] of explanation.steps.entries()) {
    const item = el("li", {
      className: `route-${getStepVerdict(step).verdict}`,
      textContent: getStepText(step),
    });
    if (i === decided) item.classList.add("route-decided");
    item.dataset.file = step.file;
    list.append(item);
    const box = boxOf(step.file);
    if (box !== null && !still) {
      box.classList.add("route-active");
      box.scrollIntoView({ block: "nearest", inline: "nearest" });
      await wait(dwell);
      if (run !== routeRun) return;
      boxOf(step.file)?.classList.remove("route-active"); // the picture may have been redrawn
    }
    current.shown = i + 1;
    paintStep(i);
  }
  showResult(explanation);
}
