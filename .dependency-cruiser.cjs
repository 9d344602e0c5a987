// The TypeScript layers, checked by `npm run lint` (scripts/lint.sh): ts/<layer>/ imports only its
// own and earlier layers of layers.json "ts" (the list CMakeLists.txt reads for the C++ layers),
// no import cycle (type-only imports count: TypeScript checks them before erasing them), Node's
// built-in modules only under ts/platform and ts/tools, and entry points where a layer meets code
// that is not its own: tools reach the platform through the Node entry, the viewer the package
// through its public entries (the browser entry and `sstfilter/tools`).
const { ts: layers } = require("./layers.json");

const layerRules = layers.map((layer, i) => ({
  name: `layer-${layer}`,
  comment: `ts/${layer} imports only ${layers
    .slice(0, i + 1)
    .map((l) => `ts/${l}`)
    .join(", ")} (layers.json)`,
  severity: "error",
  from: { path: `^ts/${layer}/` },
  to: { path: "^ts/", pathNot: `^ts/(${layers.slice(0, i + 1).join("|")}|wasm)/` },
}));

module.exports = {
  forbidden: [
    {
      name: "no-cycle",
      comment: "Modules import one way: no module reaches itself again, type-only imports included",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: "node-builtins-in-platform-and-tools",
      comment: "ts/core and ts/api run in browsers too: Node's modules only under ts/platform and ts/tools",
      severity: "error",
      from: { path: "^ts/(core|api)/" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "browser-entry-without-node",
      comment: "The browser entry reaches none of the Node entries' modules (so no node:fs in a bundle)",
      severity: "error",
      from: { path: "^ts/platform/browser\\.ts$" },
      to: { path: "^ts/platform/", pathNot: "^ts/platform/browser\\.ts$", reachable: true },
    },
    {
      name: "wasm-glue-from-platform",
      comment: "Only the platform entries load the Emscripten glue (ts/wasm); the rest gets a CoreModule",
      severity: "error",
      from: { path: "^ts/", pathNot: "^ts/(platform|wasm)/" },
      to: { path: "^ts/wasm/" },
    },
    {
      name: "tools-through-node-entry",
      comment:
        "ts/tools reach ts/platform through the Node entry (node.ts), as the package's users do, " +
        "and verify-parallel.ts, the worker threads `sstfilter verify --jobs` shares a table between",
      severity: "error",
      from: { path: "^ts/tools/" },
      to: { path: "^ts/platform/", pathNot: "^ts/platform/(node|verify-parallel)\\.ts$" },
    },
    {
      name: "viewer-through-public-entries",
      comment:
        "The viewer (demo/) is a client of the built package like any other: it imports only the " +
        "files package.json's exports hands a browser, the entry `.` (platform/browser.js) and " +
        "`./tools` (tools/format.js, the display helpers)",
      severity: "error",
      from: { path: "^demo/" },
      to: {
        path: "^(dist|ts)/",
        pathNot: "^dist/esm/(platform/browser|tools/format)\\.(js|d\\.ts)$",
      },
    },
    {
      name: "resolvable",
      comment: "Every import resolves (the viewer's need the build: scripts/lint.sh emits it first)",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "^(node_modules|dist)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { conditionNames: ["import", "node", "default"] },
  },
};
