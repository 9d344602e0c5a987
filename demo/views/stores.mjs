// @ts-check
// The viewer's Stores view: a database folder recognised as one of Chrome's stores shows what the
// page sees. IndexedDB: databases → object stores → records (key and value as tagged JSON,
// docs/FORMATS.md 7.5), 100 to a page, with a seek by key; localStorage and sessionStorage:
// origin → key → value. The worker reads the folder (worker/stores-ops.mjs); the LSM picture and the
// Get box stay one click away (the "Tables" tab).
import { count } from "../../dist/esm/tools/format.js";
import { $, el } from "../dom.mjs";
/** @import { OpResult } from "../worker.mjs" */

/** @typedef {NonNullable<OpResult<"openStores">>} StoresTree */
/** @typedef {OpResult<"storeRecords">} StoresPage */

/**
 * What the view needs of the page around it.
 * @typedef {object} StoresViewHost
 * @property {() => Promise<StoresTree | null>} open the worker's openStores
 * @property {(args: { group: number, store: number, offset: number, size: number, seek: string | null }) => Promise<StoresPage>} records
 * @property {(error: unknown, context?: string) => void} showError
 */

const PAGE = 100;

const KIND_NAMES = { indexeddb: "IndexedDB", localstorage: "localStorage", sessionstorage: "sessionStorage" };

/** @type {StoresViewHost | null} */
let host = null;
/** @type {StoresTree | null} */
let tree = null;
let group = 0;
let store = 0;
let offset = 0;
let total = 0;
let run = 0; // answers to an older request are dropped

/**
 * Shows the Stores view (true) or the tables' views (false).
 * @param {"stores" | "tables"} view
 */
function showView(view) {
  $("stores-card").hidden = view !== "stores";
  $("lsm-card").hidden = view === "stores";
  $("get-card").hidden = view === "stores";
  for (const button of $("db-tabs").querySelectorAll("button")) {
    button.setAttribute("aria-pressed", String(/** @type {HTMLElement} */ (button).dataset.view === view));
  }
}

/** @param {StoresViewHost} h */
export function initStoresView(h) {
  host = h;
  $("db-tabs").addEventListener("click", (event) => {
    const button = /** @type {HTMLElement} */ (event.target).closest("button");
    if (button !== null) showView(button.dataset.view === "stores" ? "stores" : "tables");
  });
  const groupSelect = /** @type {HTMLSelectElement} */ ($("stores-group"));
  const storeSelect = /** @type {HTMLSelectElement} */ ($("stores-store"));
  groupSelect.addEventListener("change", () => {
    group = Number(groupSelect.value);
    store = 0;
    fillStores();
    void showPage(0, null);
  });
  storeSelect.addEventListener("change", () => {
    store = Number(storeSelect.value);
    void showPage(0, null);
  });
  $("stores-seek-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = /** @type {HTMLInputElement} */ ($("stores-seek")).value;
    void showPage(0, text === "" ? null : text);
  });
  $("stores-seek-clear").addEventListener("click", () => {
    /** @type {HTMLInputElement} */ ($("stores-seek")).value = "";
    void showPage(0, null);
  });
  $("stores-first").addEventListener("click", () => void showPage(0, null));
  $("stores-prev").addEventListener("click", () => void showPage(Math.max(0, offset - PAGE), null));
  $("stores-next").addEventListener("click", () => void showPage(offset + PAGE, null));
}

/** Hides the view and its tab (a folder that is none of Chrome's stores, or none open). */
export function hideStoresView() {
  run++;
  tree = null;
  $("db-tabs").hidden = true;
  $("stores-card").hidden = true;
  $("lsm-card").hidden = false;
  $("get-card").hidden = false;
}

/**
 * After a database folder opened: reads it as one of Chrome's stores; shows the Stores view (and
 * the tab back to the tables) when it is one. Returns whether it is.
 */
export async function openStoresView() {
  if (host === null) throw new Error("initStoresView first");
  hideStoresView();
  const mine = run;
  $("stores-caption").textContent = "reading…";
  /** @type {StoresTree | null} */
  let opened;
  try {
    opened = await host.open();
  } catch (error) {
    host.showError(error, "the folder's records");
    return false;
  }
  if (mine !== run || opened === null) return false;
  tree = opened;
  group = 0;
  store = 0;
  const kind = tree.kind;
  const records = tree.groups.reduce((n, g) => n + g.stores.reduce((m, s) => m + s.count, 0), 0);
  $("stores-caption").textContent =
    `${KIND_NAMES[kind]} · ${count(tree.groups.length)} ${kind === "indexeddb" ? "database" : "origin"}` +
    `${tree.groups.length === 1 ? "" : "s"} · ${count(records)} ${kind === "indexeddb" ? "records" : "items"}`;
  $("stores-group-name").textContent = kind === "indexeddb" ? "database" : "origin";
  $("stores-store-label").hidden = kind !== "indexeddb";
  const groupSelect = /** @type {HTMLSelectElement} */ ($("stores-group"));
  groupSelect.replaceChildren(
    ...tree.groups.map((g, i) => el("option", { value: String(i), textContent: g.label })),
  );
  fillStores();
  $("db-tabs").hidden = false;
  showView("stores");
  await showPage(0, null);
  return true;
}

/** The object store list of the chosen database. */
function fillStores() {
  if (tree === null) return;
  const g = tree.groups[group];
  const storeSelect = /** @type {HTMLSelectElement} */ ($("stores-store"));
  storeSelect.replaceChildren(
    ...(g?.stores ?? []).map((s, i) =>
      el("option", { value: String(i), textContent: `${s.label} (${count(s.count)})` }),
    ),
  );
}

/**
 * Shows the page from `from`, or from where `seek` lands.
 * @param {number} from
 * @param {string | null} seek
 */
async function showPage(from, seek) {
  if (host === null || tree === null) return;
  const g = tree.groups[group];
  const s = g?.stores[store];
  $("stores-detail").textContent = [g?.detail, s?.detail].filter((t) => t).join(" · ");
  const body = $("stores-body");
  if (s === undefined) {
    body.replaceChildren();
    $("stores-page").textContent = "no object stores";
    return;
  }
  const mine = ++run;
  let page;
  try {
    page = await host.records({ group, store, offset: from, size: PAGE, seek });
  } catch (error) {
    host.showError(error, s.label);
    return;
  }
  if (mine !== run) return;
  offset = page.offset;
  total = page.total;
  body.replaceChildren(
    ...page.rows.map((r) =>
      el(
        "tr",
        {},
        el("td", { className: "num", textContent: String(r.index) }),
        el("td", { className: "key", textContent: r.key }),
        el("td", { className: "value", textContent: r.value }),
      ),
    ),
  );
  $("stores-page").textContent =
    total === 0
      ? "no records"
      : page.rows.length === 0
        ? `past the last of ${count(total)} (the seek found no key at or after it)`
        : `${count(offset)}–${count(offset + page.rows.length - 1)} of ${count(total)}`;
  /** @type {HTMLButtonElement} */ ($("stores-prev")).disabled = offset === 0;
  /** @type {HTMLButtonElement} */ ($("stores-first")).disabled = offset === 0;
  /** @type {HTMLButtonElement} */ ($("stores-next")).disabled = offset + PAGE >= total;
}
