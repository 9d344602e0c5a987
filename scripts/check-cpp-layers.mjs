// The C++ layers, checked by `npm run lint` (scripts/lint.sh) as .dependency-cruiser.cjs checks the
// TypeScript ones: a file of cpp/<layer>/ includes only headers of its own and earlier layers of
// layers.json "cpp" and the public headers (cpp/include/sstfilter/), which include only each other.
// wasm/ (the bindings), tests/ (and tests/fuzz/) and bench/ use the library from outside and include
// anything. Checking each file's direct includes is enough: a header a file may include reaches
// only what its own layer may. Usage: node scripts/check-cpp-layers.mjs; exits 1 after listing
// every violation.
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { cpp: layers } = JSON.parse(readFileSync(path.join(root, "layers.json"), "utf8"));
const PUBLIC = "cpp/include/sstfilter";

function* sources(dir) {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) yield* sources(relative);
    else if (/\.(cc|h)$/.test(entry.name)) yield relative;
  }
}

// Where the compiler finds an include (CMakeLists.txt sstfilter_configure_library): a quoted one
// next to the including file first, then in cpp/include, then in cpp. Null: a system or
// third-party header, outside the library.
function resolve(file, header, quoted) {
  const dirs = [...(quoted ? [path.posix.dirname(file)] : []), "cpp/include", "cpp"];
  for (const dir of dirs) {
    const candidate = path.posix.normalize(`${dir}/${header}`);
    if (statSync(path.join(root, candidate), { throwIfNoEntry: false })?.isFile()) return candidate;
  }
  return null;
}

// What a file may include: the rule's text and a test of the resolved path.
function ruleFor(file) {
  const dir = path.posix.dirname(file);
  if (dir === PUBLIC) {
    return {
      text: `the public headers include only ${PUBLIC}/*`,
      allows: (to) => path.posix.dirname(to) === PUBLIC,
    };
  }
  const i = layers.indexOf(dir.slice("cpp/".length));
  if (i < 0) return null;
  const allowed = layers.slice(0, i + 1).map((l) => `cpp/${l}`);
  return {
    text: `${dir} includes only ${[...allowed, PUBLIC].join(", ")} (layers.json "cpp")`,
    allows: (to) => [...allowed, PUBLIC].includes(path.posix.dirname(to)),
  };
}

const violations = [];
for (const file of sources("cpp")) {
  const rule = ruleFor(file);
  if (!rule) {
    violations.push(`${file}: in no layer: its folder is not in layers.json "cpp" (nor ${PUBLIC})`);
    continue;
  }
  readFileSync(path.join(root, file), "utf8")
    .split("\n")
    .forEach((line, n) => {
      const include = /^\s*#\s*include\s*(["<])([^">]+)[">]/.exec(line);
      if (!include) return;
      const [, delimiter, header] = include;
      const to = resolve(file, header, delimiter === '"');
      if (to === null) {
        if (delimiter === '"')
          violations.push(
            `${file}:${n + 1}: includes "${header}", in no folder of cpp/ (<...> for outside headers)`,
          );
        return;
      }
      if (!rule.allows(to)) violations.push(`${file}:${n + 1}: includes "${header}" (${to}): ${rule.text}`);
    });
}
if (violations.length > 0) {
  console.error(violations.join("\n"));
  console.error(`${violations.length} C++ layer violation(s)`);
  process.exit(1);
}
