// @ts-check
// The table view's filter advice: every filter policy built on the table's keys at 4..20 bits per
// key (the worker's op filterAdvice), drawn as curves of measured false-positive rate (log scale)
// against bytes per key, RocksDB's estimate dashed; the smallest filter meeting the target named.
import { adviceSeries } from "../../dist/esm/platform/browser.js";
import { count, percent } from "../../dist/esm/tools/format.js";
import { $, el } from "../dom.mjs";
import { showError } from "../error-banner.mjs";
import { call } from "../worker-calls.mjs";
import { tableView } from "./table-state.mjs";
/** @import { FilterAdviceRow, FilterAdviceSet } from "../../dist/esm/platform/browser.js" */

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 640;
const HEIGHT = 260;
const MARGIN = { left: 56, right: 150, top: 12, bottom: 36 };
const COLORS = {
  leveldb: "#8e6c8a",
  "rocksdb-legacy-bloom": "#c98b2b",
  "rocksdb-bloom": "#2b7bc9",
  "rocksdb-ribbon": "#2e9d5b",
};

/**
 * An SVG element with attributes.
 * @param {string} tag @param {Record<string, string | number>} attributes
 */
function svg(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

/**
 * The curves of one set: x bytes per key, y the rate on a log scale (down to one absent key in
 * all, the smallest rate a measurement can show).
 * @param {FilterAdviceSet} set
 */
function chart(set) {
  const rows = set.rows;
  const floor = 1 / Math.max(1, rows[0]?.probes ?? 1);
  const xs = rows.map((r) => r.bytesPerKey);
  const [xMin, xMax] = [Math.min(...xs), Math.max(...xs)];
  const yMax = 0;
  const yMin = Math.floor(Math.log10(floor));
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (/** @type {number} */ v) => MARGIN.left + ((v - xMin) / (xMax - xMin || 1)) * plotW;
  const y = (/** @type {number} */ rate) =>
    MARGIN.top + ((yMax - Math.log10(Math.max(rate, floor))) / (yMax - yMin)) * plotH;
  const root = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: "100%", role: "img" });
  for (let decade = yMin; decade <= yMax; decade++) {
    root.append(
      svg("line", {
        x1: MARGIN.left,
        x2: MARGIN.left + plotW,
        y1: y(10 ** decade),
        y2: y(10 ** decade),
        stroke: "#ddd",
      }),
    );
    const label = svg("text", {
      x: MARGIN.left - 6,
      y: y(10 ** decade) + 4,
      "text-anchor": "end",
      "font-size": 11,
    });
    label.textContent = percent(10 ** decade);
    root.append(label);
  }
  const target = svg("line", {
    x1: MARGIN.left,
    x2: MARGIN.left + plotW,
    y1: y(set.fpRate),
    y2: y(set.fpRate),
    stroke: "#c33",
    "stroke-dasharray": "2 3",
  });
  root.append(target);
  const xLabel = svg("text", {
    x: MARGIN.left + plotW / 2,
    y: HEIGHT - 6,
    "text-anchor": "middle",
    "font-size": 11,
  });
  xLabel.textContent = `bytes per key (${xMin.toFixed(2)}–${xMax.toFixed(2)})`;
  root.append(xLabel);
  const series = [...new Set(rows.map(adviceSeries))];
  series.forEach((name, i) => {
    const mine = rows.filter((r) => adviceSeries(r) === name);
    const color = COLORS[mine[0].policy];
    const points = (/** @type {(r: FilterAdviceRow) => number} */ rate) =>
      mine.map((r) => `${x(r.bytesPerKey).toFixed(1)},${y(rate(r)).toFixed(1)}`).join(" ");
    root.append(
      svg("polyline", {
        points: points((r) => r.estimatedFpRate),
        fill: "none",
        stroke: color,
        "stroke-dasharray": "4 3",
        opacity: 0.6,
      }),
    );
    root.append(
      svg("polyline", {
        points: points((r) => r.measuredFpRate),
        fill: "none",
        stroke: color,
        "stroke-width": 2,
        // Ribbon without its Bloom fallback, a filter RocksDB does not write: dotted.
        ...(mine[0].bloomFallback === false ? { "stroke-dasharray": "1 3" } : {}),
      }),
    );
    const legend = svg("text", {
      x: WIDTH - MARGIN.right + 10,
      y: MARGIN.top + 14 + 16 * i,
      fill: color,
      "font-size": 12,
    });
    legend.textContent = name;
    root.append(legend);
  });
  const note = svg("text", {
    x: WIDTH - MARGIN.right + 10,
    y: MARGIN.top + 14 + 16 * series.length + 8,
    "font-size": 11,
    fill: "#777",
  });
  note.textContent = "dashed: RocksDB's estimate";
  root.append(note);
  return root;
}

/** @param {FilterAdviceSet} set */
function setView(set) {
  const scaled = set.sampledKeys < set.totalKeys;
  const best = set.best;
  const mixed = set.filtering.startsWith("whole-key + ");
  const title =
    set.filtering === "whole-key"
      ? "Whole keys"
      : mixed
        ? `Whole keys and prefixes in one filter (${set.filtering.slice("whole-key + ".length)}), probed with whole keys`
        : `Prefixes (${set.filtering})`;
  const keys = scaled
    ? `${count(set.totalKeys)}, built on ${count(set.sampledKeys)} (sizes scaled)`
    : count(set.totalKeys);
  const verdict = best
    ? `Smallest meeting ${percent(set.fpRate)}: ${best.policy} at ${best.bitsPerKey} bits/key, ${scaled ? "≈" : ""}${count(best.bytes)} bytes, ${best.bytesPerKey.toFixed(3)} bytes/key (${(best.bytesPerBillionKeys / 1e9).toFixed(2)} GB per 10^9 keys), measured ${percent(best.measuredFpRate)}.`
    : `No filter measured meets ${percent(set.fpRate)}.`;
  return el(
    "div",
    {},
    el("h3", { textContent: `${title}: ${keys}; ${count(set.rows[0]?.probes ?? 0)} absent keys per filter` }),
    el("p", { className: best ? "" : "muted", textContent: verdict }),
    chart(set),
  );
}

/** Wires the Measure button. */
export function initFilterAdvice() {
  $("advice").addEventListener("click", async () => {
    if (!tableView.opened) return;
    const fpRate = Number($("advice-rate").value);
    if (!(fpRate > 0 && fpRate < 1)) {
      $("advice-status").textContent = "the target must be a rate between 0 and 1, e.g. 0.01";
      return;
    }
    const mine = tableView.generation;
    const started = performance.now();
    $("advice").disabled = true;
    $("advice-status").textContent = "building and probing 68 filters…";
    try {
      const advice = await call("filterAdvice", { fpRate });
      if (mine !== tableView.generation) return;
      $("advice-status").textContent = `${((performance.now() - started) / 1000).toFixed(2)} s`;
      const out = $("advice-result");
      out.replaceChildren(
        ...advice.sets.map(setView),
        ...advice.notes.map((n) => el("p", { className: "muted", textContent: n })),
      );
      out.hidden = false;
    } catch (error) {
      if (mine === tableView.generation) showError(error, "filter advice");
    } finally {
      if (mine === tableView.generation) $("advice").disabled = false;
    }
  });
}

/** Hides the last advice (another table is opening). */
export function clearFilterAdvice() {
  $("advice-result").hidden = true;
  $("advice-result").replaceChildren();
  $("advice-status").textContent = "";
}
