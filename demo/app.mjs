// @ts-check
// The SST viewer page. It only renders: opening, probing, walking keys, verifying and building all
// run in worker.mjs, which reads the dropped File in slices (Blob.slice) as the wasm core asks.
import {
  byteSize,
  count,
  keyOrderText,
  percent,
  printableText,
  toHex,
  withoutOffset,
} from "../dist/esm/tools/format.js";
import { initDatabaseView, openDatabaseFiles } from "./database-view.mjs";
import { hideStoresView, initStoresView, openStoresView } from "./stores-view.mjs";
import { el, keyText } from "./dom.mjs";
import { drawFileMap, hitTest as mapHitTest, REGION_COLORS, span } from "./filemap.mjs";
import { canPickFolders, droppedFiles, inputFolder, pickFolder } from "./folder.mjs";
import { drawHeatMap, heatColor, hitTest } from "./heatmap.mjs";
/** @import { BlobIndex, FilterFormat, FilterSummary, LookupRoute, VerifyProgress, VerifyReport, WriteOptions } from "../dist/esm/platform/browser.js" */
/** @import { MapLayout } from "./filemap.mjs" */
/** @import { HeatLayout } from "./heatmap.mjs" */
/** @import { Folder } from "./folder.mjs" */
/** @import { DecodedValue, EntryRow, MapRegion, OpArgs, OpName, OpResult, SeekText, WorkerMessage } from "./worker.mjs" */

/**
 * The elements of index.html that are more than an HTMLElement to this file, by id.
 * @typedef {{
 *   file: HTMLInputElement,
 *   folder: HTMLInputElement,
 *   "user-keys": HTMLInputElement,
 *   "probe-form": HTMLFormElement,
 *   "probe-key": HTMLInputElement,
 *   "probe-mode": HTMLSelectElement,
 *   heat: HTMLCanvasElement,
 *   verify: HTMLButtonElement,
 *   map: HTMLCanvasElement,
 *   "keys-mode": HTMLSelectElement,
 *   "values-mode": HTMLSelectElement,
 *   "seek-form": HTMLFormElement,
 *   "seek-kind": HTMLSelectElement,
 *   "seek-key": HTMLInputElement,
 *   "seek-mode": HTMLSelectElement,
 *   "entries-first": HTMLButtonElement,
 *   "entries-prev": HTMLButtonElement,
 *   "entries-next": HTMLButtonElement,
 *   "index-prev": HTMLButtonElement,
 *   "index-next": HTMLButtonElement,
 *   "props-filter": HTMLInputElement,
 *   "build-keys": HTMLTextAreaElement,
 *   "build-format": HTMLSelectElement,
 *   "build-bits": HTMLInputElement,
 *   "build-hex": HTMLInputElement,
 *   download: HTMLAnchorElement,
 *   "built-probe-key": HTMLInputElement,
 *   "write-lines": HTMLTextAreaElement,
 *   "write-format": HTMLSelectElement,
 *   "write-filter": HTMLSelectElement,
 *   "write-compression": HTMLSelectElement,
 *   "verify-jobs": HTMLSelectElement,
 *   "write-sort": HTMLInputElement,
 *   "write-hex": HTMLInputElement,
 *   "write-download": HTMLAnchorElement,
 * }} Elements
 */

/**
 * @template {string} Id
 * @typedef {Id extends keyof Elements ? Elements[Id] : HTMLElement} ElementById
 */

/**
 * The element with this id (every id this file asks for is in index.html).
 * @template {string} Id
 * @param {Id} id
 * @returns {ElementById<Id>}
 */
const $ = (id) => /** @type {ElementById<Id>} */ (/** @type {unknown} */ (document.getElementById(id)));
const PAGE_SIZE = 100; // entries per page of the contents view
const INDEX_PAGE_SIZE = 100; // index entries per page

// ------------------------------------------------------------------------------------------------
// Formatting

/** @type {(handle: [number, number]) => string} */
const handleText = ([offset, size]) => `@ ${count(offset)}, ${count(size)} B`;

/** @typedef {[term: string, value: string, title?: string]} FactRow */

/**
 * @param {HTMLElement} dl
 * @param {FactRow[]} rows
 */
function facts(dl, rows) {
  dl.replaceChildren(
    ...rows.flatMap(([term, value, title]) => [
      el("dt", { textContent: term }),
      el("dd", { textContent: value, title: title ?? "" }),
    ]),
  );
}

// ------------------------------------------------------------------------------------------------
// Errors: every failure shows its code and offset, the page stays usable.

/**
 * What showError reads of an error: an Error, an SstFilterError, the worker's PlainError.
 * @typedef {{ code?: unknown, message?: string, offset?: number | null }} ErrorLike
 */

/**
 * Shows `error` (whatever was thrown; null hides the banner), saying what failed in `context`.
 * @param {unknown} error
 * @param {string} [context]
 */
function showError(error, context) {
  const banner = $("error");
  if (!error) {
    banner.hidden = true;
    return;
  }
  const e = /** @type {ErrorLike} */ (error);
  const where = e.offset !== null && e.offset !== undefined ? ` at byte ${count(e.offset)}` : "";
  banner.replaceChildren(
    el("strong", { textContent: `${e.code ?? "ERROR"}${where}` }),
    document.createTextNode(
      ` — ${context ? `${context}: ` : ""}${withoutOffset(String(e.message ?? error))}`,
    ),
  );
  // The usual cause: a table a bare TableBuilder wrote (user keys without tags), read as a database's.
  if (/internal-key tag/.test(String(e.message)) && !$("user-keys").checked) {
    banner.append(
      el("div", {
        className: "hint",
        textContent: "Tick “keys carry no sequence/type tag” below if a bare TableBuilder wrote this file.",
      }),
    );
  }
  banner.hidden = false;
}

window.addEventListener("error", (event) => showError({ code: "ERROR", message: event.message }));
window.addEventListener("unhandledrejection", (event) =>
  showError({ code: event.reason?.code ?? "ERROR", message: String(event.reason?.message ?? event.reason) }),
);

// ------------------------------------------------------------------------------------------------
// The worker

const worker = new Worker(new URL("./worker.mjs", import.meta.url), { type: "module" });
/**
 * A call the worker has not answered yet. (resolve is a method so that each call's own resolve,
 * which takes that op's result, fits: TypeScript checks method parameters bivariantly.)
 * @typedef {{
 *   resolve(value: unknown): void,
 *   reject(reason: unknown): void,
 *   onProgress: ((progress: VerifyProgress) => void) | undefined,
 * }} Pending
 */
/** @type {Map<number, Pending>} */
const pending = new Map();
let nextId = 1;

/** @type {Promise<void>} */
const ready = new Promise((resolve) => {
  worker.addEventListener("message", (/** @type {MessageEvent<WorkerMessage>} */ { data }) => {
    if (data.ready) {
      $("backend").textContent = data.ready;
      resolve();
      return;
    }
    const call = pending.get(data.id);
    if (!call) return;
    if (data.progress) {
      call.onProgress?.(data.progress);
      return;
    }
    pending.delete(data.id);
    if (data.error) call.reject(data.error);
    else call.resolve(data.result);
  });
});
worker.addEventListener("error", (event) => {
  $("backend").textContent = "failed";
  showError({ code: "WASM_LOAD", message: event.message || "the worker could not start" });
});

/**
 * Runs `op` in the worker; `onProgress` receives verify's progress.
 * @template {OpName} K
 * @param {K} op
 * @param {OpArgs[K]} [args]
 * @param {(progress: VerifyProgress) => void} [onProgress]
 * @returns {Promise<OpResult<K>>}
 */
async function call(op, args = /** @type {OpArgs[K]} */ ({}), onProgress) {
  await ready;
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject, onProgress });
    worker.postMessage({ id, op, ...args });
  });
}

// ------------------------------------------------------------------------------------------------
// Opening a file

/** @typedef {OpResult<"open">} TableInfo */

/**
 * @typedef {object} Opened
 * @property {File} file
 * @property {TableInfo} info
 * @property {FilterSummary | null} [summary] the filter summary with the key counts Verify found
 * @property {number} [verifiedKeys] the entries Verify counted
 */

/** @type {Opened | null} */
let opened = null; // { file, info } of the table shown
let generation = 0; // bumps with every file: answers about an older file are dropped

/**
 * @param {string} text
 * @param {string} [kind]
 */
function setStatus(text, kind = "") {
  const pill = $("status");
  pill.textContent = text;
  pill.className = `pill ${kind}`;
}

/**
 * Opens a table file in the table view.
 * @param {File} file
 * @param {boolean} [ofDatabase] a table of the database view's folder: the view offers a way back
 */
async function openFile(file, ofDatabase = false) {
  const mine = ++generation;
  showError(null);
  $("database").hidden = true;
  $("back-to-db").hidden = !ofDatabase;
  $("table").hidden = false;
  $("drop").classList.add("compact");
  $("file-name").textContent = file.name;
  $("file-size").textContent = byteSize(file.size);
  setStatus("opening…");
  resetViews();
  try {
    const info = await call("open", { file, internalKeys: !$("user-keys").checked });
    if (mine !== generation) return;
    opened = { file, info };
    renderTable(info);
    setStatus("open", "ok");
    $("seek-key").value = "";
    await startView(null);
    await showMap();
    await showRangeDeletions();
  } catch (error) {
    if (mine !== generation) return;
    opened = null;
    $("table").hidden = true;
    $("database").hidden = !ofDatabase; // a table of a database that fails to open: back to the tree
    showError(error, file.name);
  }
}

function resetViews() {
  for (const id of ["probe-result", "verify-result"]) $(id).hidden = true;
  for (const id of ["entries-body", "regions-body", "range-dels-body", "index-body"]) $(id).replaceChildren();
  for (const id of ["range-dels", "index-card"]) $(id).hidden = true;
  regions = [];
  mapLayout = null;
  rangeDeletions = { rows: [], total: 0 };
  $("verify-progress").textContent = "";
  /** @type {HTMLElement} */ (document.querySelector(".progress")).hidden = true;
}

$("file").addEventListener("change", (event) => {
  const file = /** @type {HTMLInputElement} */ (event.target).files?.[0];
  if (file) openFile(file);
});
$("user-keys").addEventListener("change", () => opened && openFile(opened.file, !$("back-to-db").hidden));

// ------------------------------------------------------------------------------------------------
// Opening a database folder: database-view.mjs draws it; a click on a table opens it here.

initDatabaseView({
  open: (files) => call("openDatabase", { files }),
  explain: (key, hex, columnFamily) => call("explain", { key, hex, columnFamily }),
  openTable: (file) => openFile(file, true),
  showError,
});

initStoresView({
  open: () => call("openStores", {}),
  records: (args) => call("storeRecords", args),
  showError,
});

/** @param {Folder} folder */
async function openFolder(folder) {
  if (!folder.files.some((f) => f.name === "CURRENT")) {
    showError({ code: "BAD_OPTIONS", message: "no CURRENT file: not a database folder" }, folder.name);
    return;
  }
  generation++; // answers about the table shown before are dropped
  showError(null);
  $("drop").classList.add("compact");
  $("table").hidden = true;
  $("back-to-db").hidden = true;
  $("back-to-db").textContent = `← ${folder.name}`;
  hideStoresView();
  const opened = await openDatabaseFiles(folder.files, folder.name);
  $("database").hidden = !opened;
  // One of Chrome's stores (an IndexedDB, Local Storage or Session Storage folder): its records.
  if (opened) await openStoresView();
}

function backToDatabase() {
  generation++;
  $("table").hidden = true;
  $("back-to-db").hidden = true;
  $("database").hidden = false;
}
$("back-to-db").addEventListener("click", backToDatabase);

$("choose-folder").addEventListener("click", async () => {
  if (!canPickFolders()) {
    $("folder").click();
    return;
  }
  try {
    const folder = await pickFolder();
    if (folder) await openFolder(folder);
  } catch (error) {
    showError(error, "choosing a folder");
  }
});
$("folder").addEventListener("change", () => {
  const list = $("folder").files;
  if (list && list.length > 0) openFolder(inputFolder(list));
});

const drop = $("drop");
for (const type of ["dragenter", "dragover"]) {
  drop.addEventListener(type, (event) => {
    event.preventDefault();
    drop.classList.add("over");
  });
}
for (const type of ["dragleave", "drop"]) drop.addEventListener(type, () => drop.classList.remove("over"));
drop.addEventListener("drop", (event) => {
  event.preventDefault();
  if (!event.dataTransfer) return;
  // A folder, or several files with CURRENT among them, is a database; else the first file a table.
  const { folder, files } = droppedFiles(event.dataTransfer);
  files.then(
    (list) => {
      if (folder !== null || (list.length > 1 && list.some((f) => f.name === "CURRENT"))) {
        openFolder({ name: folder ?? `${list.length} dropped files`, files: list });
      } else if (list[0]) openFile(list[0]);
    },
    (error) => showError(error, "reading the dropped folder"),
  );
});
// A file dropped outside the drop zone would make the browser navigate away from the viewer.
window.addEventListener("dragover", (event) => event.preventDefault());
window.addEventListener("drop", (event) => event.preventDefault());

// ------------------------------------------------------------------------------------------------
// Rendering a table

/** @param {TableInfo} info */
function renderTable(info) {
  const { footer, filter } = info;
  const rocksdb = info.format === "rocksdb";
  facts($("format-facts"), [
    ["format", rocksdb ? "RocksDB block-based table" : "LevelDB table"],
    ["format_version", rocksdb ? String(footer.formatVersion) : "— (LevelDB)"],
    ["checksum", footer.checksum],
    ["metaindex", handleText(footer.metaindexHandle)],
    ["index", handleText(footer.indexHandle)],
    ["order", keyOrderText(info.order)],
    // A text property.
    ["compression", /** @type {string} */ (info.properties["rocksdb.compression"] ?? "per block")],
  ]);
  renderFilter(info, info.summary);
  renderProperties(info.properties);
  $("meta-body").replaceChildren(
    ...Object.entries(info.metaindex).map(([name, [offset, size]]) =>
      el(
        "tr",
        {},
        el("td", { textContent: name }),
        el("td", { className: "num", textContent: count(offset) }),
        el("td", { className: "num", textContent: count(size) }),
      ),
    ),
  );
  $("probe-key").placeholder = filter ? "user key, e.g. one from the list below" : "this file has no filter";
}

/**
 * @param {TableInfo} info
 * @param {FilterSummary | null | undefined} summary
 */
function renderFilter(info, summary) {
  const filter = info.filter;
  if (filter === null) {
    facts($("filter-facts"), [["filter", "none: every lookup reads the data block"]]);
    $("fp").replaceChildren(
      el("p", { className: "muted", textContent: "No filter, no false positives to estimate." }),
    );
    drawHeatMap($("heat"), []);
    $("heat-caption").textContent = "";
    return;
  }
  const first = summary?.parts.find((p) => p.details)?.details;
  const layout =
    info.format === "leveldb"
      ? `filter block, ${summary?.parts.length ?? "?"} filters (one per 2 KiB of data)`
      : filter.partitioned
        ? `partitioned, ${count(filter.partitions)} partitions`
        : "full filter";
  const keys =
    summary?.keys === null || summary?.keys === undefined
      ? "not recorded: Verify counts them"
      : count(summary.keys);
  /** @type {FactRow[]} */
  const rows = [
    ["kind", filter.kind],
    ["policy", filter.policy],
    ["layout", layout],
    ["size", byteSize(filter.sizeBytes)],
    ["keys", keys, summary?.keysSource ?? ""],
    ["bits/key", summary?.bitsPerKey ? summary.bitsPerKey.toFixed(2) : "—"],
  ];
  if (first?.numProbes) rows.push(["probes", String(first.numProbes)]);
  if (first?.kind === "rocksdb-ribbon") rows.push(["ribbon seed", String(first.ribbonSeed)]);
  if (filter.prefixExtractor) {
    rows.push(["prefix extractor", filter.prefixExtractor]);
    rows.push(["whole keys", filter.wholeKeyFiltering ? "added too" : "not added"]);
  }
  facts($("filter-facts"), rows);
  renderFalsePositives(summary);
  renderHeatMap(info, summary);
}

/** @param {FilterSummary | null | undefined} summary */
function renderFalsePositives(summary) {
  const box = $("fp");
  if (!summary) {
    box.replaceChildren();
    return;
  }
  /** @type {(label: string, rate: number | null, note: string) => HTMLDivElement} */
  const meter = (label, rate, note) => {
    const width = rate === null ? 0 : Math.min(100, (Math.log10(Math.max(rate, 1e-6)) + 6) * (100 / 6));
    return el(
      "div",
      { className: "meter" },
      el(
        "div",
        { className: "meter-label" },
        el("span", { textContent: label }),
        el("b", { textContent: rate === null ? "—" : percent(rate) }),
      ),
      el(
        "div",
        { className: "meter-track" },
        el("div", { className: "meter-fill", style: `width:${width}%` }),
      ),
      el("div", { className: "meter-note muted", textContent: note }),
    );
  };
  box.replaceChildren(
    meter(
      "estimated",
      summary.estimatedFpRate,
      summary.estimatedFpRate === null ? "needs the key count" : "RocksDB's own formula for this kind",
    ),
    meter("measured", summary.measuredFpRate, `on ${count(summary.samples)} random absent keys per filter`),
  );
}

/** @param {FilterSummary | null | undefined} summary */
function expectedDensity(summary) {
  const first = summary?.parts.find((p) => p.details)?.details;
  if (!first || !summary.bitsPerKey || first.kind === "rocksdb-ribbon" || first.numProbes === 0) return null;
  // 1 - e^(-k/b): the share of bits a Bloom filter with k probes and b bits per key sets.
  return 1 - Math.exp(-first.numProbes / summary.bitsPerKey);
}

/** @type {HeatLayout | null} */
let heat = null; // the layout drawn last, for hover hit tests

/**
 * @param {TableInfo} info
 * @param {FilterSummary | null | undefined} summary
 */
function renderHeatMap(info, summary) {
  const parts = summary?.parts ?? [];
  heat = drawHeatMap($("heat"), parts);
  const blocks = parts.reduce((n, p) => n + p.density.length, 0);
  // A table without a filter has no parts, so no tile label either.
  const label = info.format === "leveldb" ? "filter" : info.filter?.partitioned ? "partition" : null;
  $("heat-caption").textContent =
    `${count(blocks)} blocks of 64 bytes` +
    (label ? `, one tile per ${label}` : "") +
    (heat.aggregate > 1 ? `, ${heat.aggregate} blocks per cell` : "");
  const expected = expectedDensity(summary);
  $("legend-expected").textContent =
    expected === null
      ? parts[0]?.details?.kind === "rocksdb-ribbon"
        ? "a Ribbon solution is about 50% ones everywhere"
        : ""
      : `a healthy filter with these parameters sets about ${percent(expected)}`;
}

const tip = $("heat-tip");
$("heat").addEventListener("mousemove", (event) => {
  const hit = heat && hitTest(heat, event.offsetX, event.offsetY);
  if (!hit) {
    tip.hidden = true;
    return;
  }
  const unit =
    opened?.info.format === "leveldb" ? "filter" : opened?.info.filter?.partitioned ? "partition" : "";
  const blocks =
    hit.lastBlock > hit.firstBlock ? `blocks ${hit.firstBlock}–${hit.lastBlock}` : `block ${hit.firstBlock}`;
  tip.textContent = `${unit ? `${unit} ${hit.part}, ` : ""}${blocks} (bytes ${count(hit.firstBlock * 64)}–${count(
    hit.lastBlock * 64 + 63,
  )}): ${percent(hit.density)} of bits set`;
  tip.style.left = `${event.offsetX + 12}px`;
  tip.style.top = `${event.offsetY + 12}px`;
  tip.hidden = false;
});
$("heat").addEventListener("mouseleave", () => (tip.hidden = true));
window.addEventListener("resize", () => {
  if (!opened) return;
  renderHeatMap(opened.info, opened.summary ?? opened.info.summary);
  if (regions.length > 0) renderMap();
});
$("legend-bar").style.background = `linear-gradient(to right, ${Array.from({ length: 11 }, (_, i) =>
  heatColor(i / 10),
).join(", ")})`;

/** @param {TableInfo["properties"]} properties */
function renderProperties(properties) {
  const needle = $("props-filter").value.trim().toLowerCase();
  const rows = Object.entries(properties)
    .filter(([name]) => name.toLowerCase().includes(needle))
    .map(([name, value]) =>
      el(
        "tr",
        {},
        el("th", { textContent: name }),
        el("td", { textContent: typeof value === "object" ? `0x${value.hex}` : String(value) }),
      ),
    );
  if (Object.keys(properties).length === 0) {
    rows.push(
      el("tr", {}, el("td", { className: "muted", textContent: "LevelDB tables have no properties block." })),
    );
  }
  $("props-body").replaceChildren(...rows);
}
$("props-filter").addEventListener("input", () => opened && renderProperties(opened.info.properties));

// ------------------------------------------------------------------------------------------------
// Probing

/** @type {Record<LookupRoute, (e: OpResult<"probe">) => string>} */
const ROUTES = {
  "full-filter": () => "the full filter",
  partition: (e) => `filter partition ${e.partition} of ${count(e.partitions)}`,
  // The "block-filter" route always names its data block.
  "block-filter": (e) =>
    `the filter of the data block ${handleText(/** @type {[number, number]} */ (e.dataBlock))}`,
  "no-filter": () => "no filter: the file has none that can check this key",
  "outside-prefix-domain": () => "no filter: the key is outside the prefix extractor's domain",
  "after-last-key": () => "the index: the key sorts after the file's last key",
  // Only a read with another prefix extractor than the table's (the database's OPTIONS) gets it.
  "prefix-extractor-changed": () => "no probe: the database's prefix extractor is not the table's",
  "any-filter": () =>
    "every filter that could hold the key: the key order is unknown, so answers are conservative",
};

$("probe-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!opened) return;
  const mine = generation;
  const out = $("probe-result");
  try {
    const e = await call("probe", { key: $("probe-key").value, hex: $("probe-mode").value === "hex" });
    if (mine !== generation) return;
    showError(null);
    const then =
      e.mayContain && e.dataBlock && e.route !== "block-filter"
        ? `; a lookup goes on to the data block ${handleText(e.dataBlock)}`
        : "";
    const probed =
      e.probed.length > 0 && e.probed.length !== e.keyLength
        ? ` (probed with the prefix “${keyText(e.probed, "utf8").text}”)`
        : "";
    out.replaceChildren(
      el("span", {
        className: `verdict ${e.mayContain ? "maybe" : "no"}`,
        textContent: e.mayContain ? "may be in this file" : "definitely not in this file",
      }),
      el("span", { className: "route", textContent: `answered by ${ROUTES[e.route](e)}${probed}${then}` }),
    );
    out.hidden = false;
  } catch (error) {
    out.hidden = true;
    showError(error, "probe");
  }
});

// ------------------------------------------------------------------------------------------------
// Contents: entries a page at a time, from a seek on

/**
 * What the contents view shows: where it starts (a seek, null: the whole table; `where` when it
 * starts at a data block), the page and its rows.
 * @type {{ seek: SeekText | null, where: string | null, page: number, rows: EntryRow[], last: boolean }}
 */
let contents = { seek: null, where: null, page: 0, rows: [], last: true };

/** The entries of the whole table, where the file records or Verify counted them. */
function totalEntries() {
  if (opened?.verifiedKeys !== undefined) return opened.verifiedKeys;
  const properties = opened?.info.properties ?? {};
  const entries = properties["rocksdb.num.entries"];
  // RocksDB counts the range deletions among the entries; the data blocks hold the others.
  const rangeDeletions = properties["rocksdb.num.range-deletions"];
  if (typeof entries !== "number") return null;
  return entries - (typeof rangeDeletions === "number" ? rangeDeletions : 0);
}

/**
 * Runs `load` (a worker call for a page of entries) and shows the page it brings.
 * @param {() => Promise<OpResult<"entries">>} load
 * @param {Omit<typeof contents, "rows" | "last">} view
 * @returns {Promise<boolean>} whether the page is shown
 */
async function showPage(load, view) {
  if (!opened) return false;
  const mine = generation;
  try {
    const result = await load();
    if (mine !== generation) return false;
    showError(null);
    contents = { ...view, ...result };
    renderEntries();
    return true;
  } catch (error) {
    if (mine === generation) showError(error, "reading entries");
    return false;
  }
}

/**
 * Starts the contents view at `seek` (null: the whole table).
 * @param {SeekText | null} seek
 */
function startView(seek) {
  return showPage(() => call("seek", { seek, size: PAGE_SIZE }), { seek, where: null, page: 0 });
}

/** @param {number} page a page of the view shown */
function showEntries(page) {
  return showPage(() => call("entries", { page, size: PAGE_SIZE }), { ...contents, page });
}

/** The seek box as the worker takes it; null when it is empty (the whole table). */
function seekFromForm() {
  const key = $("seek-key").value;
  const kind = /** @type {SeekText["kind"]} */ ($("seek-kind").value);
  if (key === "" && kind === "from") return null;
  return { kind, key, hex: $("seek-mode").value === "hex" };
}

/**
 * Shows the contents view from the first entry of the data block at `offset`, and scrolls to it.
 * @param {number} offset
 */
async function showBlock(offset) {
  /** @type {Uint8Array} */
  let from = new Uint8Array(0);
  const shown = await showPage(
    async () => {
      const { from: key, ...page } = await call("seekBlock", { offset, size: PAGE_SIZE });
      from = key;
      return page;
    },
    { seek: null, where: `from data block @ ${count(offset)}`, page: 0 },
  );
  if (!shown) return;
  const { text, hex } = keyText(from, "utf8");
  $("seek-kind").value = "from";
  $("seek-key").value = from.length === 0 ? "" : hex ? toHex(from) : text;
  $("seek-mode").value = hex ? "hex" : "utf8";
  reveal("contents");
}

/**
 * Scrolls to the card `id` and flashes it.
 * @param {string} id
 */
function reveal(id) {
  const card = $(id);
  card.hidden = false;
  card.scrollIntoView({ block: "start" });
  card.classList.remove("flash");
  void card.offsetWidth; // restarts the animation
  card.classList.add("flash");
  card.addEventListener("animationend", () => card.classList.remove("flash"), { once: true });
}

// RocksDB's ValueType names (db/dbformat.h) get a colour each; other types show their number.
const TYPE_CLASSES = new Set([
  "put",
  "delete",
  "single-delete",
  "merge",
  "blob-index",
  "wide-column-entity",
  "delete-with-timestamp",
  "value-preferred-seqno",
]);

/** @param {EntryRow} row */
function typeCell(row) {
  if (row.type === undefined) return el("td", { className: "muted", textContent: "—" });
  const known = TYPE_CLASSES.has(row.type);
  return el(
    "td",
    {},
    el("span", {
      className: `badge ${known ? `type-${row.type}` : "type-unknown"}`,
      textContent: known ? row.type : `type ${row.typeCode}`,
      title: `ValueType 0x${(row.typeCode ?? 0).toString(16).padStart(2, "0")}`,
    }),
  );
}

// Values shown inline up to this many characters; a click shows the rest (as much as the worker sent).
const VALUE_INLINE_CHARS = 160;

/** @param {string} text shown inline: its first VALUE_INLINE_CHARS characters */
const inline = (text) => (text.length > VALUE_INLINE_CHARS ? `${text.slice(0, VALUE_INLINE_CHARS)}…` : text);

/**
 * The value as `mode` asks: UTF-8 text (hex where it is not printable), hex, or pretty-printed JSON
 * where the value parses as JSON. { text, className } for the cell.
 * @param {Uint8Array} value
 * @param {string} mode
 */
function valueText(value, mode) {
  if (mode === "json") {
    const text = printableText(value);
    if (text !== null) {
      try {
        return { text: JSON.stringify(JSON.parse(text), null, 2), className: "json" };
      } catch {
        // not JSON: shown as text
      }
    }
  }
  const text = mode === "hex" ? null : printableText(value);
  return text === null ? { text: toHex(value), className: "hex" } : { text, className: "" };
}

// A wide-column entity shows its first columns (an entity may hold thousands).
const COLUMNS_SHOWN = 16;

/**
 * A blob's expiration (seconds since the epoch) as a UTC time, or as seconds where no Date reaches.
 * @param {bigint} seconds
 */
function expiryText(seconds) {
  const date = new Date(Number(seconds) * 1000);
  return Number.isNaN(date.getTime())
    ? `${seconds} s after the epoch`
    : date.toISOString().replace(".000Z", "Z");
}

/**
 * A blob index in words: where the value lies in which blob file, or the inlined value, and when
 * it expires.
 * @param {BlobIndex} blob
 * @param {string} mode how an inlined value shows
 */
function blobIndexText(blob, mode) {
  const expires = blob.expiration === undefined ? "" : `, expires ${expiryText(blob.expiration)}`;
  if (blob.type === "inlined-ttl") {
    return `inlined: ${valueText(blob.value ?? new Uint8Array(0), mode).text}${expires}`;
  }
  const codec = blob.compression ? `, ${blob.compression}` : "";
  return `blob file ${blob.fileNumber} @ ${count(Number(blob.offset))}, ${count(Number(blob.size))} B${codec}${expires}`;
}

/**
 * A decoded structured value: the blob index in words, each wide column on a line of its own (name
 * as keys show, value as values show), or why the value does not decode (with its bytes in hex).
 * @param {EntryRow} row
 * @param {DecodedValue} decoded
 * @param {string} mode how values show
 */
function decodedCell(row, decoded, mode) {
  if (decoded.blobIndex) {
    return el(
      "td",
      { className: "value decoded" },
      el("span", { textContent: blobIndexText(decoded.blobIndex, mode) }),
    );
  }
  if (decoded.columns) {
    const { columns } = decoded;
    if (columns.length === 0) return el("td", { className: "value muted", textContent: "(no columns)" });
    const more = columns.length - COLUMNS_SHOWN;
    return el(
      "td",
      { className: "value decoded" },
      ...columns.slice(0, COLUMNS_SHOWN).map((column) =>
        el(
          "div",
          { className: "column" },
          el("span", {
            className: "column-name",
            textContent:
              column.name.length === 0 ? "(default)" : keyText(column.name, $("keys-mode").value).text,
          }),
          el("span", {
            textContent: column.blobIndex
              ? blobIndexText(column.blobIndex, mode)
              : inline(valueText(column.value, mode).text),
          }),
        ),
      ),
      more > 0 ? el("div", { className: "muted", textContent: `… and ${count(more)} more columns` }) : null,
    );
  }
  return el(
    "td",
    { className: "value hex" },
    el("span", { textContent: toHex(row.value) }),
    el("span", {
      className: "badge type-delete",
      textContent: `does not decode: ${decoded.error?.code} ${withoutOffset(decoded.error?.message ?? "")}`,
    }),
  );
}

/** @param {EntryRow} row */
function valueCell(row) {
  const mode = $("values-mode").value;
  if (row.decoded) return decodedCell(row, row.decoded, mode);
  if (row.valueSize === 0) return el("td", { className: "value muted", textContent: "(empty)" });
  const { text, className } = valueText(row.value, mode);
  const cut = row.valueSize > row.value.length || text.length > VALUE_INLINE_CHARS;
  const shown = el("span", { textContent: cut ? `${text.slice(0, VALUE_INLINE_CHARS)}…` : text });
  const cell = el("td", { className: className ? `value ${className}` : "value" }, shown);
  if (cut) {
    cell.append(el("span", { className: "size muted", textContent: ` ${count(row.valueSize)} bytes` }));
    cell.title = "click to show more";
    cell.classList.add("more");
    cell.addEventListener(
      "click",
      () => {
        shown.textContent = row.valueSize > row.value.length ? `${text}…` : text;
        cell.classList.remove("more");
        cell.title = "";
      },
      { once: true },
    );
  }
  return cell;
}

/**
 * A user-defined timestamp: the u64 number it stores (little-endian, as RocksDB's
 * BytewiseComparator.u64ts), or hex for another size.
 * @param {Uint8Array} timestamp
 */
function timestampText(timestamp) {
  if (timestamp.length !== 8) return toHex(timestamp);
  return new DataView(timestamp.buffer, timestamp.byteOffset, 8).getBigUint64(0, true).toString();
}

function renderEntries() {
  const { rows, page, seek, where, last } = contents;
  const mode = $("keys-mode").value;
  const timestamps = rows.some((r) => r.timestamp !== undefined);
  $("timestamp-head").hidden = !timestamps;
  $("entries-body").replaceChildren(
    ...rows.map((row) => {
      const { text, hex } = keyText(row.key, mode);
      const key = el("td", {
        className: `key${hex ? " hex" : ""}`,
        textContent: text,
        title: "click to probe",
      });
      key.addEventListener("click", () => {
        $("probe-key").value = hex ? toHex(row.key) : text;
        $("probe-mode").value = hex ? "hex" : "utf8";
        $("probe-form").requestSubmit();
      });
      return el(
        "tr",
        {},
        el("td", { className: "num muted", textContent: count(row.index) }),
        key,
        timestamps
          ? el("td", { className: "num", textContent: row.timestamp ? timestampText(row.timestamp) : "" })
          : null,
        el("td", { className: "num seq", textContent: row.seq === undefined ? "—" : row.seq.toString() }),
        typeCell(row),
        valueCell(row),
      );
    }),
  );
  if (rows.length === 0) {
    $("entries-body").append(
      el("tr", {}, el("td", { colSpan: 6, className: "muted", textContent: "no entries here" })),
    );
  }
  const total = seek === null && where === null ? totalEntries() : null;
  const pages = total === null ? null : Math.max(1, Math.ceil(total / PAGE_SIZE));
  $("entries-page").textContent =
    `page ${count(page + 1)}${pages === null ? (last ? ` of ${count(page + 1)}` : "") : ` of ${count(pages)}`}`;
  $("entries-caption").textContent =
    where ??
    (seek === null
      ? total === null
        ? "every entry, in file order"
        : `${count(total)} entries, in file order`
      : `${seek.kind === "prefix" ? "keys with the prefix" : "from"} ${seek.hex ? `0x${seek.key}` : `“${seek.key}”`}`);
  $("entries-first").disabled = $("entries-prev").disabled = page === 0;
  $("entries-next").disabled = last;
}

$("entries-first").addEventListener("click", () => showEntries(0));
$("entries-prev").addEventListener("click", () => showEntries(Math.max(0, contents.page - 1)));
$("entries-next").addEventListener("click", () => showEntries(contents.page + 1));
$("keys-mode").addEventListener("change", () => {
  renderEntries();
  renderRangeDeletions();
});
$("values-mode").addEventListener("change", () => renderEntries());
$("seek-form").addEventListener("submit", (event) => {
  event.preventDefault();
  startView(seekFromForm());
});
$("seek-clear").addEventListener("click", () => {
  $("seek-key").value = "";
  $("seek-kind").value = "from";
  startView(null);
});

// ------------------------------------------------------------------------------------------------
// Range deletions

/** @type {OpResult<"rangeDeletions">} */
let rangeDeletions = { rows: [], total: 0 };

async function showRangeDeletions() {
  const mine = generation;
  const result = await call("rangeDeletions");
  if (mine !== generation) return;
  rangeDeletions = result;
  renderRangeDeletions();
}

function renderRangeDeletions() {
  const { rows, total } = rangeDeletions;
  $("range-dels").hidden = total === 0;
  const mode = $("keys-mode").value;
  /** @param {Uint8Array} key */
  const keyCell = (key) => {
    const { text, hex } = keyText(key, mode);
    return el("td", { className: `key${hex ? " hex" : ""}`, textContent: text });
  };
  $("range-dels-body").replaceChildren(
    ...rows.map((d, i) =>
      el(
        "tr",
        {},
        el("td", { className: "num muted", textContent: count(i) }),
        keyCell(d.start),
        keyCell(d.end),
        el("td", { className: "num seq", textContent: d.seq.toString() }),
      ),
    ),
  );
  $("range-dels-caption").textContent =
    `${count(total)} in the rocksdb.range_del block` +
    (total > rows.length ? `, the first ${count(rows.length)} shown` : "");
}

// ------------------------------------------------------------------------------------------------
// The file map, and where each region leads

/** @type {MapRegion[]} */
let regions = [];
/** @type {MapLayout | null} */
let mapLayout = null;
/** @type {Int32Array} */
let dataBlockNumbers = new Int32Array(0); // per region: its number among the data blocks

async function showMap() {
  const mine = generation;
  const listed = await call("layout");
  if (mine !== generation) return;
  regions = listed;
  dataBlockNumbers = new Int32Array(regions.length);
  let data = 0;
  regions.forEach((r, i) => (dataBlockNumbers[i] = r.kind === "data" ? data++ : -1));
  renderMap();
  renderRegionGroups();
}

function renderMap() {
  mapLayout = drawFileMap($("map"), regions);
  const blocks = regions.filter((r) => r.trailerSize > 0).length;
  const data = regions.filter((r) => r.kind === "data").length;
  const caption = $("map-caption");
  caption.textContent = `${count(blocks)} blocks (${count(data)} data blocks), to scale; click a region to open it`;
  caption.dataset.blocks = String(blocks);
}

/**
 * Runs of consecutive regions of one kind, as the table under the map lists them.
 * @returns {{ first: number, kind: MapRegion["kind"], count: number, bytes: number, name: string }[]}
 */
function regionGroups() {
  /** @type {ReturnType<typeof regionGroups>} */
  const groups = [];
  regions.forEach((r, i) => {
    const previous = groups[groups.length - 1];
    if (previous && previous.kind === r.kind && !r.name && !previous.name) {
      previous.count++;
      previous.bytes += span(r);
    } else {
      groups.push({ first: i, kind: r.kind, count: 1, bytes: span(r), name: r.name ?? "" });
    }
  });
  return groups;
}

function renderRegionGroups() {
  const last = regions[regions.length - 1];
  const fileSize = last ? last.offset + span(last) : 0;
  $("regions-body").replaceChildren(
    ...regionGroups().map((g) => {
      const row = el(
        "tr",
        { className: "region-row", title: `open: ${REGION_TARGETS[g.kind]}` },
        el(
          "td",
          {},
          el("span", { className: "swatch", style: `background:${REGION_COLORS[g.kind]}` }),
          document.createTextNode(g.kind),
        ),
        el("td", { className: "num", textContent: count(g.count) }),
        el("td", { className: "num", textContent: count(regions[g.first].offset) }),
        el("td", { className: "num", textContent: count(g.bytes) }),
        el("td", { className: "num muted", textContent: percent(g.bytes / Math.max(1, fileSize)) }),
        el("td", { className: "name", textContent: g.name }),
      );
      row.dataset.kind = g.kind;
      row.addEventListener("click", () => openRegion(g.first));
      return row;
    }),
  );
}

/** Where a click on each kind of region leads (the tooltips say so). */
const REGION_TARGETS = /** @type {Record<MapRegion["kind"], string>} */ ({
  data: "the contents from this block's first key",
  index: "the index entries",
  "top-index": "the index entries",
  filter: "the filter",
  "filter-partition": "the filter",
  "filter-top-index": "the filter",
  properties: "the properties",
  metaindex: "the metaindex",
  "range-del": "the range deletions",
  "compression-dict": "the metaindex",
  meta: "the metaindex",
  footer: "the footer's facts",
  gap: "nothing: no handle names these bytes",
});

/** @param {number} i the region to open */
function openRegion(i) {
  const r = regions[i];
  switch (r.kind) {
    case "data":
      return showBlock(r.offset);
    case "index":
    case "top-index":
      return showIndex(0);
    case "filter":
    case "filter-partition":
    case "filter-top-index":
      return reveal("filter-card");
    case "properties":
      return reveal("props-card");
    case "range-del":
      return reveal("range-dels");
    case "footer":
      return reveal("format-card");
    case "gap":
      return undefined;
    default:
      return reveal("meta-card");
  }
}

const mapTip = $("map-tip");
$("map").addEventListener("mousemove", (event) => {
  const i = mapLayout ? mapHitTest(mapLayout, event.offsetX) : -1;
  if (i < 0) {
    mapTip.hidden = true;
    return;
  }
  const r = regions[i];
  const number = r.kind === "data" ? ` ${count(dataBlockNumbers[i])}` : "";
  mapTip.textContent = `${r.kind}${number}${r.name ? ` (${r.name})` : ""} @ ${count(r.offset)}, ${count(r.size)} B${
    r.trailerSize ? ` + ${r.trailerSize} B trailer` : ""
  } — click: ${REGION_TARGETS[r.kind]}`;
  const wrap = /** @type {HTMLElement} */ ($("map").parentElement);
  mapTip.style.left = `${Math.min(event.offsetX + 12, wrap.clientWidth - 360)}px`;
  mapTip.style.top = `${event.offsetY + 14}px`;
  mapTip.hidden = false;
});
$("map").addEventListener("mouseleave", () => (mapTip.hidden = true));
$("map").addEventListener("click", (event) => {
  const i = mapLayout ? mapHitTest(mapLayout, event.offsetX) : -1;
  if (i >= 0) openRegion(i);
});

// ------------------------------------------------------------------------------------------------
// The index: one entry per data block

let indexStart = 0;

/** @param {number} start */
async function showIndex(start) {
  const mine = generation;
  try {
    const { rows, total } = await call("indexEntries", { start, size: INDEX_PAGE_SIZE });
    if (mine !== generation) return;
    indexStart = start;
    const mode = $("keys-mode").value;
    $("index-body").replaceChildren(
      ...rows.map((r) => {
        const { text, hex } = keyText(r.separator, mode);
        const row = el(
          "tr",
          { className: "region-row", title: "click: the contents from this block's first key" },
          el("td", { className: "num muted", textContent: count(r.index) }),
          el("td", { className: `key${hex ? " hex" : ""}`, textContent: text }),
          el("td", { className: "num", textContent: count(r.offset) }),
          el("td", { className: "num", textContent: count(r.size) }),
        );
        row.addEventListener("click", () => showBlock(r.offset));
        return row;
      }),
    );
    $("index-caption").textContent =
      `${count(total)} data blocks, each with the separator its index entry holds`;
    $("index-page").textContent =
      `${count(start)}–${count(Math.max(start, start + rows.length - 1))} of ${count(total)}`;
    $("index-prev").disabled = start === 0;
    $("index-next").disabled = start + INDEX_PAGE_SIZE >= total;
    reveal("index-card");
  } catch (error) {
    if (mine === generation) showError(error, "reading the index");
  }
}
$("index-prev").addEventListener("click", () => showIndex(Math.max(0, indexStart - INDEX_PAGE_SIZE)));
$("index-next").addEventListener("click", () => showIndex(indexStart + INDEX_PAGE_SIZE));

// ------------------------------------------------------------------------------------------------
// Verify, with a progress bar

$("verify").addEventListener("click", async () => {
  if (!opened) return;
  const mine = generation;
  const bar = $("verify-bar");
  const progressText = $("verify-progress");
  /** @type {HTMLElement} */ (document.querySelector(".progress")).hidden = false;
  $("verify").disabled = true;
  $("verify-cancel").hidden = false;
  $("verify-result").hidden = true;
  bar.style.width = "0%";
  const started = performance.now();
  try {
    const jobs = $("verify-jobs").value;
    const { report, summary } = await call("verify", { jobs: jobs ? Number(jobs) : null }, (p) => {
      if (mine !== generation) return;
      const share = p.bytesTotal ? p.bytesDone / p.bytesTotal : 1;
      bar.style.width = `${(share * 100).toFixed(1)}%`;
      progressText.textContent = `${(share * 100).toFixed(0)}% · ${count(p.dataBlocks)} blocks · ${count(p.keys)} keys`;
    });
    if (mine !== generation) return;
    bar.style.width = "100%";
    progressText.textContent = `${((performance.now() - started) / 1000).toFixed(2)} s`;
    renderVerify(report);
    if (report.error === null) {
      opened.verifiedKeys = report.keys;
      renderEntries();
    }
    if (summary) {
      opened.summary = summary;
      renderFilter(opened.info, summary);
    }
  } catch (error) {
    if (mine !== generation) return;
    const { code } = /** @type {ErrorLike} */ (error);
    progressText.textContent = code === "AbortError" ? "cancelled" : "";
    if (code !== "AbortError") showError(error, "verify");
  } finally {
    if (mine === generation) {
      $("verify").disabled = false;
      $("verify-cancel").hidden = true;
    }
  }
});
$("verify-cancel").addEventListener("click", () => call("cancelVerify"));

/** @param {VerifyReport} report */
function renderVerify(report) {
  const out = $("verify-result");
  const lines = [
    `${count(report.dataBlocks)} data blocks and ${count(report.keys)} keys read` +
      (report.metaBlocks.length ? `; meta blocks ${report.metaBlocks.join(", ")}` : ""),
  ];
  if (report.error) {
    const where =
      report.error.offset !== undefined && report.error.offset !== null
        ? ` at byte ${count(report.error.offset)}`
        : "";
    lines.push(`${report.error.code}${where}: ${withoutOffset(report.error.message)}`);
  }
  if (report.filterSkipped) lines.push(`keys not probed: ${report.filterSkipped}`);
  else if (report.falseNegatives > 0) {
    lines.push(
      `${count(report.falseNegatives)} keys the filter rules out although they are in the file, e.g.:`,
    );
    for (const fn of report.falseNegativeSamples) {
      lines.push(`  ${keyText(fn.key, "utf8").text} (data block ${handleText(fn.dataBlock)})`);
    }
  } else if (report.keys > 0) lines.push("every key passes the filter");
  out.replaceChildren(
    el("div", {
      className: `verdict ${report.ok ? "no" : "bad"}`,
      textContent: report.ok ? "✓ the file is sound" : "✗ the file is corrupt",
    }),
    ...lines.map((line) => el("div", { textContent: line })),
  );
  out.hidden = false;
  setStatus(report.ok ? "verified" : "corrupt", report.ok ? "ok" : "bad");
}

// ------------------------------------------------------------------------------------------------
// Tabs

/** @param {string} name */
function selectTab(name) {
  for (const tab of ["viewer", "playground"]) {
    $(tab).hidden = tab !== name;
    $(`tab-${tab}`).setAttribute("aria-selected", String(tab === name));
  }
  if (name === "viewer" && opened) {
    renderHeatMap(opened.info, opened.summary ?? opened.info.summary);
    if (regions.length > 0) renderMap();
  }
}
$("tab-viewer").addEventListener("click", () => selectTab("viewer"));
$("tab-playground").addEventListener("click", () => selectTab("playground"));

// ------------------------------------------------------------------------------------------------
// Build playground

/** @type {string | null} */
let downloadUrl = null;

async function build() {
  const lines = $("build-keys").value.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const format = /** @type {FilterFormat} */ ($("build-format").value);
  const bitsPerKey = Number($("build-bits").value);
  try {
    const built = await call("build", { lines, hex: $("build-hex").checked, format, bitsPerKey });
    showError(null);
    const d = built.details;
    /** @type {FactRow[]} */
    const rows = [
      ["keys", count(lines.length)],
      ["size", `${count(built.bytes.length)} bytes`],
      [
        "kind",
        // RocksDB's Ribbon policy builds a Bloom filter where that is smaller (small key sets).
        format === "rocksdb-ribbon" && d.kind !== "rocksdb-ribbon"
          ? `${d.kind} (Ribbon's fallback for few keys)`
          : d.kind,
      ],
      ["bits/key", lines.length ? ((8 * d.dataBytes) / lines.length).toFixed(2) : "—"],
    ];
    if (d.numProbes) rows.push(["probes", String(d.numProbes)]);
    if (d.kind === "rocksdb-ribbon") rows.push(["blocks", `${d.ribbonBlocks} × 128 slots`]);
    rows.push(["est. FP rate", percent(built.estimatedFpRate)]);
    facts($("built-facts"), rows);
    if (downloadUrl) URL.revokeObjectURL(downloadUrl);
    downloadUrl = URL.createObjectURL(
      new Blob([/** @type {Uint8Array<ArrayBuffer>} */ (built.bytes)], { type: "application/octet-stream" }),
    );
    const link = $("download");
    link.href = downloadUrl;
    link.download = `${format}-${bitsPerKey}bpk.bin`;
    link.textContent = `Download ${link.download} (${count(built.bytes.length)} bytes)`;
    link.hidden = false;
    await probeBuilt();
  } catch (error) {
    showError(error, "build");
  }
}

async function probeBuilt() {
  const out = $("built-probe-result");
  try {
    const maybe = await call("probeBuilt", { key: $("built-probe-key").value, hex: $("build-hex").checked });
    out.replaceChildren(
      el("span", {
        className: `verdict ${maybe ? "maybe" : "no"}`,
        textContent: maybe ? "may be in the set" : "definitely not in the set",
      }),
    );
    out.hidden = false;
  } catch (error) {
    out.hidden = true;
    showError(error, "probe");
  }
}

$("build").addEventListener("click", build);
$("built-probe-form").addEventListener("submit", (event) => {
  event.preventDefault();
  probeBuilt();
});
build();

// ------------------------------------------------------------------------------------------------
// Write playground

/** @type {string | null} */
let writtenUrl = null;
/** @type {File | null} */
let written = null;

async function writeTable() {
  const lines = $("write-lines").value.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const format = /** @type {WriteOptions["format"]} */ ($("write-format").value);
  const filter = /** @type {NonNullable<WriteOptions["filter"]>} */ ($("write-filter").value);
  const options = { format, filter, compression: $("write-compression").value };
  try {
    const result = await call("write", {
      lines,
      hex: $("write-hex").checked,
      sort: $("write-sort").checked,
      options,
    });
    showError(null);
    facts($("written-facts"), [
      ["entries", count(result.entries)],
      ["size", `${count(result.bytes.length)} bytes`],
      ["written as", format === "rocksdb" ? "RocksDB SstFileWriter" : "LevelDB TableBuilder"],
    ]);
    const name = format === "rocksdb" ? "written.sst" : "written.ldb";
    written = new File([/** @type {Uint8Array<ArrayBuffer>} */ (result.bytes)], name);
    if (writtenUrl) URL.revokeObjectURL(writtenUrl);
    writtenUrl = URL.createObjectURL(written);
    const link = $("write-download");
    link.href = writtenUrl;
    link.download = name;
    link.textContent = `Download ${name} (${count(result.bytes.length)} bytes)`;
    link.hidden = false;
    $("write-open").hidden = false;
  } catch (error) {
    showError(error, "write");
  }
}

$("write").addEventListener("click", writeTable);
// Each format's own filter: RocksDB's FastLocalBloom, LevelDB's Bloom filter block.
$("write-format").addEventListener("change", () => {
  $("write-filter").value = $("write-format").value === "leveldb" ? "leveldb" : "rocksdb-bloom";
});
$("write-open").addEventListener("click", () => {
  if (written === null) return;
  // A LevelDB table from TableBuilder holds user keys.
  $("user-keys").checked = written.name.endsWith(".ldb");
  selectTab("viewer");
  openFile(written);
});
