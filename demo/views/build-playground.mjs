// @ts-check
// The Build playground: a filter of any supported format built from typed keys, its facts, a
// download of its bytes, and a probe box against it.
import { count, percent } from "../../dist/esm/tools/format.js";
import { $, el, facts } from "../dom.mjs";
import { showError } from "../error-banner.mjs";
import { call } from "../worker-calls.mjs";
/** @import { FilterFormat } from "../../dist/esm/platform/browser.js" */
/** @import { FactRow } from "../dom.mjs" */

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

/** Wires the playground's controls and builds the filter of the keys it starts with. */
export function initBuildPlayground() {
  $("build").addEventListener("click", build);
  $("built-probe-form").addEventListener("submit", (event) => {
    event.preventDefault();
    probeBuilt();
  });
  build();
}
