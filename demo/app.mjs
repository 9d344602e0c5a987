// @ts-check
// The SST viewer page: start-up, the tabs, and routing what the user opens (a table file, a
// database folder, a dropped file or folder, a table at the URL the page's ?url= names) to its
// view. The views render (views/); opening, probing, walking keys, verifying and building all run
// in worker.mjs, which reads the dropped File in slices (Blob.slice), or the URL with ranged
// requests, as the wasm core asks.
import { byteSize } from "../dist/esm/tools/format.js";
import { $ } from "./dom.mjs";
import { showError } from "./error-banner.mjs";
import { canPickFolders, droppedFiles, inputFolder, pickFolder } from "./folder.mjs";
import { call } from "./worker-calls.mjs";
import { initBuildPlayground } from "./views/build-playground.mjs";
import { clearEntries, initContents, startView } from "./views/contents.mjs";
import { initDatabaseView, openDatabaseFiles } from "./views/database.mjs";
import { clearDiff, diffWith, initDiff } from "./views/diff.mjs";
import { clearFileMap, initFileMap, redrawFileMap, showMap } from "./views/file-map.mjs";
import { initFilterCard, redrawHeatMap } from "./views/filter.mjs";
import { clearFilterAdvice, initFilterAdvice } from "./views/filter-advice.mjs";
import { clearIndex, initIndexEntries } from "./views/index-entries.mjs";
import { clearProbe, initProbe } from "./views/probe.mjs";
import { clearRangeDeletions, showRangeDeletions } from "./views/range-deletions.mjs";
import { hideStoresView, initStoresView, openStoresView } from "./views/stores.mjs";
import { initTableFacts, renderTable } from "./views/table-facts.mjs";
import { setStatus, tableName, tableView } from "./views/table-state.mjs";
import { clearVerify, initVerify } from "./views/verify.mjs";
import { initWritePlayground } from "./views/write-playground.mjs";
/** @import { Folder } from "./folder.mjs" */

window.addEventListener("error", (event) => showError({ code: "ERROR", message: event.message }));
window.addEventListener("unhandledrejection", (event) =>
  showError({ code: event.reason?.code ?? "ERROR", message: String(event.reason?.message ?? event.reason) }),
);

// ------------------------------------------------------------------------------------------------
// Opening a file

/**
 * Opens a table file in the table view.
 * @param {File | string} file a File, or an http(s) URL read with ranged requests
 * @param {boolean} [ofDatabase] a table of the database view's folder: the view offers a way back
 */
async function openFile(file, ofDatabase = false) {
  const mine = ++tableView.generation;
  showError(null);
  $("database").hidden = true;
  $("back-to-db").hidden = !ofDatabase;
  $("table").hidden = false;
  $("drop").classList.add("compact");
  $("file-name").textContent = tableName(file);
  // A URL's size comes with the first answer the worker has.
  $("file-size").textContent = typeof file === "string" ? "" : byteSize(file.size);
  setStatus("opening…");
  resetViews();
  try {
    const info = await call("open", { file, internalKeys: !$("user-keys").checked });
    if (mine !== tableView.generation) return;
    $("file-size").textContent = byteSize(info.size);
    tableView.opened = { file, info };
    renderTable(info);
    setStatus("open", "ok");
    $("seek-key").value = "";
    await startView(null);
    await showMap();
    await showRangeDeletions();
  } catch (error) {
    if (mine !== tableView.generation) return;
    tableView.opened = null;
    $("table").hidden = true;
    $("database").hidden = !ofDatabase; // a table of a database that fails to open: back to the tree
    showError(error, tableName(file));
  }
}

function resetViews() {
  clearProbe();
  clearVerify();
  clearDiff();
  clearFilterAdvice();
  clearEntries();
  clearFileMap();
  clearRangeDeletions();
  clearIndex();
}

$("file").addEventListener("change", (event) => {
  const file = /** @type {HTMLInputElement} */ (event.target).files?.[0];
  if (file) openFile(file);
});
$("user-keys").addEventListener(
  "change",
  () => tableView.opened && openFile(tableView.opened.file, !$("back-to-db").hidden),
);

// ------------------------------------------------------------------------------------------------
// Opening a database folder: views/database.mjs draws it; a click on a table opens it here.

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
  tableView.generation++; // answers about the table shown before are dropped
  clearDiff(); // and its diff's worker ends
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
  tableView.generation++;
  clearDiff();
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
// The table view's cards, and the drawings that follow the page's width

initFilterCard();
initTableFacts();
initProbe();
initContents();
initFileMap();
initIndexEntries();
initVerify();
initDiff();
initFilterAdvice();

window.addEventListener("resize", () => {
  if (!tableView.opened) return;
  redrawHeatMap();
  redrawFileMap();
});

// ------------------------------------------------------------------------------------------------
// Tabs

/** @param {string} name */
function selectTab(name) {
  for (const tab of ["viewer", "playground"]) {
    $(tab).hidden = tab !== name;
    $(`tab-${tab}`).setAttribute("aria-selected", String(tab === name));
  }
  if (name === "viewer" && tableView.opened) {
    redrawHeatMap();
    redrawFileMap();
  }
}
$("tab-viewer").addEventListener("click", () => selectTab("viewer"));
$("tab-playground").addEventListener("click", () => selectTab("playground"));

// ------------------------------------------------------------------------------------------------
// The playgrounds: a table written there opens in the table view.

initBuildPlayground();
initWritePlayground((file) => {
  selectTab("viewer");
  openFile(file);
});

// ------------------------------------------------------------------------------------------------
// ?url=: a table on a web server (of another origin: CORS, docs/VIEWER.md), opened at start-up;
// with ?diff=, a second one, diffed against it once it is open.

const parameters = new URLSearchParams(location.search);

/**
 * The page's parameter `name` as an absolute URL (a relative one names a file of the viewer's own
 * server); null when absent, or not a URL (the banner says so).
 * @param {string} name
 */
function urlParameter(name) {
  const text = parameters.get(name);
  if (text === null) return null;
  try {
    return new URL(text, location.href).href;
  } catch {
    showError({ code: "BAD_OPTIONS", message: `?${name}= is not a URL: ${JSON.stringify(text)}` });
    return null;
  }
}

const tableUrl = urlParameter("url");
const diffUrl = urlParameter("diff");
if (tableUrl !== null) {
  openFile(tableUrl).then(() => {
    // Unless it failed to open, or the user opened another table meanwhile.
    if (diffUrl !== null && tableView.opened?.file === tableUrl) diffWith(diffUrl);
  });
} else if (diffUrl !== null) {
  showError({
    code: "BAD_OPTIONS",
    message: "?diff= names the table to compare with the one ?url= names: give both",
  });
}
