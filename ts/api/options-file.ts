// RocksDB's OPTIONS-<n> files (docs/FORMATS.md 6.5): INI-like text written at every open,
// SetOptions and column family change. Lines are statements "name=value" under section headers
// "[Version]", "[DBOptions]", "[CFOptions "<column family>"]" and
// "[TableOptions/<factory> "<column family>"]"; "#" starts a comment unless escaped. Facts from
// rocksdb options/options_parser.cc (RocksDBOptionsParser::Parse, ParseSection, ParseStatement,
// TrimAndRemoveComment, CheckSection, ValidityCheck), 7.8.3 and main.
import { SstFilterError } from "../core/errors.js";
import { parseDatabaseFileName } from "./db-file-names.js";

/** One column family's options and its table factory's. */
export interface ColumnFamilyOptionsSection {
  name: string;
  /** Its [CFOptions "name"] statements, values as written (escapes kept). */
  options: Record<string, string>;
  /** "BlockBasedTable", "PlainTable"...: the suffix of its [TableOptions/...] title; null without one. */
  tableFactory: string | null;
  /** Its [TableOptions/<factory> "name"] statements. */
  tableOptions: Record<string, string>;
}

/** An OPTIONS file, by section. */
export interface DatabaseOptions {
  /** "OPTIONS-000009" */
  file: string;
  /** `[Version]`: rocksdb_version ("7.8.3") and options_file_version ("1.1"). */
  version: Record<string, string>;
  /** [DBOptions]. */
  dbOptions: Record<string, string>;
  /** In file order: "default" first. */
  columnFamilies: ColumnFamilyOptionsSection[];
}

/** The newest OPTIONS-<n> among `names` (largest n); null when there is none. */
export function newestOptionsFile(names: readonly string[]): string | null {
  let newest: { name: string; number: bigint } | null = null;
  for (const name of names) {
    const file = parseDatabaseFileName(name);
    if (file?.kind !== "options") continue;
    if (newest === null || file.number > newest.number) newest = { name, number: file.number };
  }
  return newest?.name ?? null;
}

/** A line without its comment ("#" not after a backslash) and surrounding white space. */
function trimAndRemoveComment(line: string): string {
  let end = line.length;
  for (let at = line.indexOf("#"); at !== -1; at = line.indexOf("#", at + 1)) {
    if (at === 0 || line[at - 1] !== "\\") {
      end = at;
      break;
    }
  }
  return line.slice(0, end).trim();
}

/** Reads an OPTIONS file; CORRUPT (with the offset of the bad line) where RocksDB's parser refuses. */
export function parseOptionsFile(bytes: Uint8Array, file: string): DatabaseOptions {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  const out: DatabaseOptions = { file, version: {}, dbOptions: {}, columnFamilies: [] };
  let current: Record<string, string> | null = null;
  let seenVersion = false;
  let seenDbOptions = false;
  let offset = 0;
  let lineNumber = 0;
  const fail = (what: string, at: number): never => {
    throw new SstFilterError("CORRUPT", `line ${lineNumber}: ${what}`, at);
  };
  const encoder = new TextEncoder();
  for (const raw of text.split("\n")) {
    const start = offset; // in bytes: errors name a byte of the file
    offset += encoder.encode(raw).length + 1;
    lineNumber += 1;
    const line = trimAndRemoveComment(raw);
    if (line === "") continue;
    if (line.length >= 2 && line.startsWith("[") && line.endsWith("]")) {
      // [Title "argument"]: the argument between the first and the last quote.
      const first = line.indexOf('"');
      const last = line.lastIndexOf('"');
      const hasArgument = first !== -1 && first !== last;
      const title = (hasArgument ? line.slice(1, first) : line.slice(1, -1)).trim();
      const argument = hasArgument ? line.slice(first + 1, last) : "";
      if (title === "Version") {
        if (seenVersion) fail("a second [Version] section", start);
        seenVersion = true;
        current = out.version;
      } else if (title === "DBOptions") {
        if (seenDbOptions) fail("a second [DBOptions] section", start);
        seenDbOptions = true;
        current = out.dbOptions;
      } else if (title === "CFOptions") {
        const isDefault = argument === "default";
        if ((out.columnFamilies.length === 0) !== isDefault) {
          fail("the default column family must be the first [CFOptions] section", start);
        }
        if (out.columnFamilies.some((cf) => cf.name === argument)) {
          fail(`a second [CFOptions "${argument}"] section`, start);
        }
        const cf: ColumnFamilyOptionsSection = {
          name: argument,
          options: {},
          tableFactory: null,
          tableOptions: {},
        };
        out.columnFamilies.push(cf);
        current = cf.options;
      } else if (title.startsWith("TableOptions/") && title.length > "TableOptions/".length) {
        const cf = out.columnFamilies.find((c) => c.name === argument);
        if (cf === undefined)
          fail(`[${title}] for column family "${argument}", which has no [CFOptions]`, start);
        cf!.tableFactory = title.slice("TableOptions/".length);
        current = cf!.tableOptions;
      } else {
        fail(`unknown section ${line}`, start);
      }
      continue;
    }
    const eq = line.indexOf("=");
    if (eq === -1) fail("a statement without '='", start);
    const name = line.slice(0, eq).trim();
    if (name === "") fail("a statement without a name", start);
    // Statements before the first section belong to no section: RocksDB drops them. Of two
    // statements of one name the first stands (RocksDB inserts into a map). defineProperty: a
    // name such as "__proto__" is an option name like any other.
    if (current === null || Object.hasOwn(current, name)) continue;
    Object.defineProperty(current, name, {
      value: line.slice(eq + 1).trim(),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  if (!seenDbOptions) fail("no [DBOptions] section", bytes.length);
  if (out.columnFamilies.length === 0) fail('no [CFOptions "default"] section', bytes.length);
  return out;
}
