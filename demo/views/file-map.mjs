// @ts-check
// The table view's file map: every region of the file to scale (filemap.mjs), the runs of regions
// listed under it, and where a click on each region leads.
import { count, percent } from "../../dist/esm/tools/format.js";
import { $, el, reveal } from "../dom.mjs";
import { drawFileMap, hitTest, REGION_COLORS, span } from "../filemap.mjs";
import { call } from "../worker-calls.mjs";
import { showBlock } from "./contents.mjs";
import { showIndex } from "./index-entries.mjs";
import { tableView } from "./table-state.mjs";
/** @import { MapLayout } from "../filemap.mjs" */
/** @import { MapRegion } from "../worker/protocol.mjs" */

/** @type {MapRegion[]} */
let regions = [];
/** @type {MapLayout | null} */
let mapLayout = null;
/** @type {Int32Array} */
let dataBlockNumbers = new Int32Array(0); // per region: its number among the data blocks

/** Reads the open table's layout and draws the map and the list of regions. */
export async function showMap() {
  const mine = tableView.generation;
  const listed = await call("layout");
  if (mine !== tableView.generation) return;
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

/** Draws the map again (the page's width changed, or its tab shows again), when it has regions. */
export function redrawFileMap() {
  if (regions.length > 0) renderMap();
}

/** Empties the map and its list (another table is opening). */
export function clearFileMap() {
  $("regions-body").replaceChildren();
  regions = [];
  mapLayout = null;
}

/** Wires the map's tooltip and clicks. */
export function initFileMap() {
  const mapTip = $("map-tip");
  $("map").addEventListener("mousemove", (event) => {
    const i = mapLayout ? hitTest(mapLayout, event.offsetX) : -1;
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
    const i = mapLayout ? hitTest(mapLayout, event.offsetX) : -1;
    if (i >= 0) openRegion(i);
  });
}
