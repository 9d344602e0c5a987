// @ts-check
// The filter heat map: one cell per 64-byte block of a filter, coloured by the share of its bits
// set. Each part (partition, LevelDB filter) is a tile of cells; tiles flow left to right and wrap.
// A full filter is one tile as wide as the canvas.

// Viridis (perceptually uniform, readable in greyscale and by most colour-blind readers): dark
// for few bits set, yellow for many.
/** @type {[number, [number, number, number]][]} */
const STOPS = [
  [0, [68, 1, 84]],
  [0.125, [71, 45, 123]],
  [0.25, [59, 82, 139]],
  [0.375, [44, 114, 142]],
  [0.5, [33, 145, 140]],
  [0.625, [40, 174, 128]],
  [0.75, [94, 201, 98]],
  [0.875, [173, 220, 48]],
  [1, [253, 231, 37]],
];

/**
 * @param {number} value
 * @returns {string}
 */
export function heatColor(value) {
  const v = Math.min(1, Math.max(0, value));
  for (let i = 1; i < STOPS.length; i++) {
    const [x1, c1] = STOPS[i];
    if (v <= x1) {
      const [x0, c0] = STOPS[i - 1];
      const t = (v - x0) / (x1 - x0);
      return `rgb(${c0.map((c, j) => Math.round(c + (c1[j] - c) * t)).join(",")})`;
    }
  }
  return `rgb(${STOPS[STOPS.length - 1][1].join(",")})`;
}

const MAX_CELL = 16;
const MIN_CELL = 3;
const MAX_HEIGHT = 360;
const TILE_COLUMNS = 32; // cells per row of a part's tile
const GAP = 6;

/**
 * One part's tile: its cells flow left to right in rows of `columns`.
 * @typedef {object} Tile
 * @property {number} index
 * @property {number} x
 * @property {number} y
 * @property {number} columns
 * @property {number} cells
 * @property {Float32Array} density
 */

/**
 * What drawHeatMap drew, for hitTest.
 * @typedef {object} HeatLayout
 * @property {Tile[]} tiles
 * @property {number} height
 * @property {number} cell
 * @property {number} aggregate
 */

/**
 * @typedef {object} HeatHit
 * @property {number} part
 * @property {number} firstBlock
 * @property {number} lastBlock
 * @property {number} density
 */

/**
 * @param {ArrayLike<number>} values
 * @param {number} from
 * @param {number} to
 */
function mean(values, from, to) {
  const end = Math.min(to, values.length);
  let sum = 0;
  for (let i = from; i < end; i++) sum += values[i];
  return end > from ? sum / (end - from) : 0;
}

/**
 * Positions every tile for cell size `cell` and `aggregate` blocks per cell.
 * @param {{ density: Float32Array }[]} parts
 * @param {number} width
 * @param {number} cell
 * @param {number} aggregate
 * @returns {HeatLayout}
 */
function layoutTiles(parts, width, cell, aggregate) {
  const single = parts.length === 1;
  /** @type {Tile[]} */
  const tiles = [];
  let x = 0;
  let y = 0;
  let lineHeight = 0;
  parts.forEach((part, index) => {
    const cells = Math.max(1, Math.ceil(part.density.length / aggregate));
    const maxColumns = Math.max(1, Math.floor(width / cell));
    const columns = Math.min(cells, single ? maxColumns : Math.min(TILE_COLUMNS, maxColumns));
    const tileWidth = columns * cell;
    const tileHeight = Math.ceil(cells / columns) * cell;
    if (x > 0 && x + tileWidth > width) {
      x = 0;
      y += lineHeight + GAP;
      lineHeight = 0;
    }
    tiles.push({ index, x, y, columns, cells, density: part.density });
    x += tileWidth + GAP;
    lineHeight = Math.max(lineHeight, tileHeight);
  });
  return { tiles, height: y + lineHeight, cell, aggregate };
}

/**
 * The CSS width a canvas is drawn at (at least 200 px; its parent's while it has none yet).
 * @param {HTMLCanvasElement} canvas
 */
export function canvasWidth(canvas) {
  return Math.max(200, canvas.clientWidth || /** @type {HTMLElement} */ (canvas.parentElement).clientWidth);
}

/**
 * Sizes `canvas` to `width` x `height` CSS pixels at the screen's pixel ratio and returns its
 * cleared 2D context, scaled so that drawing is in CSS pixels.
 * @param {HTMLCanvasElement} canvas
 * @param {number} width
 * @param {number} height
 */
export function clearedContext(canvas, width, height) {
  const ratio = window.devicePixelRatio || 1;
  canvas.style.height = `${height}px`;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return ctx;
}

/**
 * Draws `parts` (each { density: Float32Array }) on `canvas`, sized to its CSS width; returns the
 * layout for hitTest. Cells shrink from MAX_CELL to MIN_CELL pixels to fit MAX_HEIGHT; beyond
 * that, neighbouring blocks are averaged into one cell (`aggregate` blocks per cell).
 * @param {HTMLCanvasElement} canvas
 * @param {{ density: Float32Array }[]} parts
 * @returns {HeatLayout}
 */
export function drawHeatMap(canvas, parts) {
  const width = canvasWidth(canvas);
  /** @type {HeatLayout | null} */
  let layout = null;
  for (let aggregate = 1; layout === null; aggregate *= 2) {
    for (let cell = MAX_CELL; cell >= MIN_CELL; cell--) {
      const candidate = layoutTiles(parts, width, cell, aggregate);
      if (candidate.height <= MAX_HEIGHT || (cell === MIN_CELL && aggregate >= 1 << 20)) {
        layout = candidate;
        break;
      }
    }
  }
  const height = Math.max(layout.cell, layout.height);
  const ctx = clearedContext(canvas, width, height);
  const { cell, aggregate } = layout;
  // A hairline between cells while they are big enough to show one.
  const inset = cell >= 8 ? 1 : 0;
  for (const tile of layout.tiles) {
    for (let c = 0; c < tile.cells; c++) {
      ctx.fillStyle = heatColor(mean(tile.density, c * aggregate, (c + 1) * aggregate));
      const x = tile.x + (c % tile.columns) * cell;
      const y = tile.y + Math.floor(c / tile.columns) * cell;
      ctx.fillRect(x, y, cell - inset, cell - inset);
    }
  }
  return layout;
}

/**
 * The part and blocks under (x, y) in CSS pixels, or null.
 * @param {HeatLayout} layout
 * @param {number} x
 * @param {number} y
 * @returns {HeatHit | null}
 */
export function hitTest(layout, x, y) {
  const { cell, aggregate } = layout;
  for (const tile of layout.tiles) {
    const column = Math.floor((x - tile.x) / cell);
    const row = Math.floor((y - tile.y) / cell);
    if (column < 0 || row < 0 || column >= tile.columns) continue;
    const c = row * tile.columns + column;
    if (c >= tile.cells) continue;
    const firstBlock = c * aggregate;
    const lastBlock = Math.min(tile.density.length, firstBlock + aggregate) - 1;
    return {
      part: tile.index,
      firstBlock,
      lastBlock,
      density: mean(tile.density, firstBlock, lastBlock + 1),
    };
  }
  return null;
}
