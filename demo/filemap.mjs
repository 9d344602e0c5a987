// @ts-check
// The file map: every region of t.layout() on one bar, to scale by the bytes it covers (block and
// trailer), as Pebble's `sstable layout` lists them. Regions narrower than a few pixels (the footer,
// a metaindex, a filter partition in a large file) are widened to MIN_WIDTH so that they can be
// seen and clicked; data blocks show their boundaries while they are wide enough to.
import { canvasWidth, clearedContext } from "./heatmap.mjs";
/** @import { MapRegion } from "./worker/protocol.mjs" */

/** Fill colour per region kind. */
export const REGION_COLORS = /** @type {const} */ ({
  data: "#4f86d9",
  index: "#e08a2b",
  "top-index": "#b86712",
  filter: "#2a9d8f",
  "filter-partition": "#2a9d8f",
  "filter-top-index": "#1d6f65",
  properties: "#8e6cc9",
  metaindex: "#c2569b",
  "range-del": "#d64545",
  "compression-dict": "#a39330",
  meta: "#7d8797",
  footer: "#344054",
  "embedded-blobs": "#e0a458",
  gap: "#d0d5dd",
});

const HEIGHT = 44;
const MIN_WIDTH = 3;
const LABEL_MIN_WIDTH = 64;

/**
 * What drawFileMap drew, for hitTest: each region's x and width in CSS pixels.
 * @typedef {object} MapLayout
 * @property {Float64Array} x
 * @property {Float64Array} width
 * @property {number[]} small the regions widened to MIN_WIDTH (drawn last, hit first)
 */

/**
 * The bytes a region covers.
 * @param {MapRegion} r
 */
export const span = (r) => r.size + r.trailerSize;

/**
 * Draws `regions` (in file order) on `canvas`, sized to its CSS width; returns the layout.
 * @param {HTMLCanvasElement} canvas
 * @param {MapRegion[]} regions
 * @returns {MapLayout}
 */
export function drawFileMap(canvas, regions) {
  const width = canvasWidth(canvas);
  const last = regions[regions.length - 1];
  const fileSize = last ? last.offset + span(last) : 1;
  const scale = width / Math.max(1, fileSize);
  const ctx = clearedContext(canvas, width, HEIGHT);

  const x = new Float64Array(regions.length);
  const w = new Float64Array(regions.length);
  /** @type {number[]} */
  const small = [];
  regions.forEach((r, i) => {
    x[i] = r.offset * scale;
    w[i] = span(r) * scale;
    if (w[i] < MIN_WIDTH && r.kind !== "data") {
      small.push(i);
      return;
    }
    ctx.fillStyle = REGION_COLORS[r.kind];
    ctx.fillRect(x[i], 0, w[i], HEIGHT);
    // A data block's boundary, while blocks are wide enough to tell apart.
    if (r.kind === "data" && w[i] >= 4) {
      ctx.fillStyle = "rgba(255,255,255,0.55)";
      ctx.fillRect(x[i], 0, 1, HEIGHT);
    }
  });
  for (const i of small) {
    w[i] = MIN_WIDTH;
    x[i] = Math.min(x[i], width - MIN_WIDTH);
    ctx.fillStyle = REGION_COLORS[regions[i].kind];
    ctx.fillRect(x[i], 0, MIN_WIDTH, HEIGHT);
  }
  // Labels on runs of one kind wide enough to hold one.
  ctx.font = "600 11px system-ui, sans-serif";
  ctx.textBaseline = "middle";
  ctx.fillStyle = "#fff";
  for (let i = 0; i < regions.length;) {
    let j = i;
    while (j + 1 < regions.length && regions[j + 1].kind === regions[i].kind) j++;
    const left = x[i];
    const runWidth = x[j] + w[j] - left;
    if (runWidth >= LABEL_MIN_WIDTH && regions[i].kind !== "gap") {
      ctx.save();
      ctx.beginPath();
      ctx.rect(left, 0, runWidth, HEIGHT);
      ctx.clip();
      ctx.fillText(regions[i].kind, left + 6, HEIGHT / 2);
      ctx.restore();
    }
    i = j + 1;
  }
  return { x, width: w, small };
}

/**
 * The region under x (CSS pixels), or -1.
 * @param {MapLayout} layout
 * @param {number} px
 */
export function hitTest(layout, px) {
  for (const i of layout.small) {
    if (px >= layout.x[i] - 1 && px < layout.x[i] + layout.width[i] + 1) return i;
  }
  // The last region that starts at or before px.
  let lo = 0;
  let hi = layout.x.length - 1;
  if (hi < 0 || px < 0) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (layout.x[mid] <= px) lo = mid;
    else hi = mid - 1;
  }
  return px < layout.x[lo] + Math.max(layout.width[lo], 1) ? lo : -1;
}
