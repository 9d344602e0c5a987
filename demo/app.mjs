// The demo page: build a filter from typed keys, probe it, download its bytes.
import { init } from "../dist/esm/browser.js";

const $ = (id) => document.getElementById(id);
const sf = await init();
$("backend").textContent = sf.backend;

let filter = null;

function showError(error) {
  $("error").textContent = error ? `${error.code ?? "ERROR"}: ${error.message}` : "";
}

function build() {
  showError(null);
  try {
    const keys = $("keys")
      .value.split("\n")
      .filter((line) => line.length > 0);
    const format = $("format").value;
    const bytes = sf.buildFilter(keys, { format, bitsPerKey: Number($("bits").value) });
    filter?.dispose();
    filter = sf.openFilter(bytes, { format: format === "leveldb" ? "leveldb" : "rocksdb" });
    $("built").textContent = `${keys.length} keys → ${bytes.length} bytes, kind ${filter.kind}`;
    const link = $("download");
    if (link.href) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
    link.hidden = false;
    probe();
  } catch (error) {
    showError(error);
  }
}

function probe() {
  if (filter === null) return;
  showError(null);
  try {
    const maybe = filter.mayContain($("probe-key").value);
    const out = $("probe-result");
    out.textContent = maybe ? "may be in the set" : "definitely not in the set";
    out.className = maybe ? "maybe" : "no";
  } catch (error) {
    showError(error);
  }
}

$("build").addEventListener("click", build);
$("probe-button").addEventListener("click", probe);
$("probe-key").addEventListener("keydown", (event) => event.key === "Enter" && probe());
build();
