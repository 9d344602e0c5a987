// @ts-check
// The table view's filter card: the filter's facts, its false-positive rates (estimated and
// measured) and the heat map of its bits (heatmap.mjs) with a tooltip per cell.
import { byteSize, count, percent } from "../../dist/esm/tools/format.js";
import { $, el, facts } from "../dom.mjs";
import { drawHeatMap, heatColor, hitTest } from "../heatmap.mjs";
import { tableView } from "./table-state.mjs";
/** @import { FilterSummary } from "../../dist/esm/platform/browser.js" */
/** @import { FactRow } from "../dom.mjs" */
/** @import { HeatLayout } from "../heatmap.mjs" */
/** @import { TableInfo } from "./table-state.mjs" */

/**
 * @param {TableInfo} info
 * @param {FilterSummary | null | undefined} summary
 */
export function renderFilter(info, summary) {
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

/** Draws the heat map again (the page's width changed, or its tab shows again). */
export function redrawHeatMap() {
  if (tableView.opened)
    renderHeatMap(tableView.opened.info, tableView.opened.summary ?? tableView.opened.info.summary);
}

/** Wires the heat map's tooltip and draws its legend. */
export function initFilterCard() {
  const tip = $("heat-tip");
  $("heat").addEventListener("mousemove", (event) => {
    const hit = heat && hitTest(heat, event.offsetX, event.offsetY);
    if (!hit) {
      tip.hidden = true;
      return;
    }
    const info = tableView.opened?.info;
    const unit = info?.format === "leveldb" ? "filter" : info?.filter?.partitioned ? "partition" : "";
    const blocks =
      hit.lastBlock > hit.firstBlock
        ? `blocks ${hit.firstBlock}–${hit.lastBlock}`
        : `block ${hit.firstBlock}`;
    tip.textContent = `${unit ? `${unit} ${hit.part}, ` : ""}${blocks} (bytes ${count(hit.firstBlock * 64)}–${count(
      hit.lastBlock * 64 + 63,
    )}): ${percent(hit.density)} of bits set`;
    tip.style.left = `${event.offsetX + 12}px`;
    tip.style.top = `${event.offsetY + 12}px`;
    tip.hidden = false;
  });
  $("heat").addEventListener("mouseleave", () => (tip.hidden = true));
  $("legend-bar").style.background = `linear-gradient(to right, ${Array.from({ length: 11 }, (_, i) =>
    heatColor(i / 10),
  ).join(", ")})`;
}
