// Every output of the `sstfilter` command pinned whole, in the style of Pebble's tool/testdata
// (cockroachdb/datadriven): each file of tests/cli-expected holds command lines and what each
// printed, exit code, standard output and standard error, byte for byte. A change of wording,
// column order or JSON shape is a reviewed change of those files: `UPDATE_EXPECTED=1` rewrites them
// from what the command prints now (docs/DEVELOPING.md).
//
// A file is read line by line:
//   # ...                      a comment, kept as it is
//   file PATH                  a text file the cases read; its lines follow as "| line"
//   flip SRC DST OFFSET [N]    DST: a copy of SRC with N bytes (default 1) from OFFSET inverted (a
//                              damaged table)
//   leveldb DIR                puts into the LevelDB database DIR (created when absent), one
//                              "| key<TAB>value" line each, "| key" alone deletes; "| --close"
//                              closes and reopens it first (LevelDB then writes the log to a table)
//   rocksdb-table PATH         a RocksDB table sstfilter's writer makes (default options): one
//                              "| key<TAB>value" put each, "| --range start<TAB>end" a range
//                              deletion (the writer takes those in any order)
//   $ sstfilter ARGS           a case: the command line ('single quotes' keep spaces together),
//                              then "exit N", "stdout:" and "stderr:" each followed by its lines as
//                              "| line" ("\ no newline at end" when the last line has none; an
//                              empty stream has no section)
// Paths are written with two tokens: <fixtures> (tests/corpus/fixtures, committed) and <tmp> (a
// fresh folder per file, where the file's directives and cases write; the cases of a file run in
// order). The inputs are deterministic: committed fixtures, tables sstfilter's own writer makes,
// and LevelDB databases classic-level (a pinned LevelDB) writes, which record no times or names.
// What still varies by machine or run is masked, the list below.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import { ClassicLevel } from "classic-level";
import { loadBackend } from "./backends";
import { CLI } from "./cli-path";

const REPO = path.join(__dirname, "..", "..");
const EXPECTED_DIR = path.join(REPO, "tests", "cli-expected");
const FIXTURES = path.join(REPO, "tests", "corpus", "fixtures");
const UPDATE = process.env.UPDATE_EXPECTED === "1";

/**
 * What differs between machines and runs, each replaced by a fixed token: the timings of db
 * verify, the core count verify's help names.
 */
const MASKS: [RegExp, string][] = [
  [/verified in [\d.]+ s/g, "verified in <seconds> s"],
  [/"seconds": [\d.e+-]+/g, '"seconds": <seconds>'],
  [/this machine has\n( +)\d+ cores/g, "this machine has\n$1<cores> cores"],
];

/** A case: its command line as written, the line it starts on, the expected block as written. */
interface Case {
  kind: "case";
  command: string;
  line: number;
  expected: string[];
}
/** A directive that prepares inputs, with its "| " lines. */
interface Directive {
  kind: "directive";
  words: string[];
  body: string[];
  text: string[];
}
/** Comments and blank lines, kept as they are. */
interface Verbatim {
  kind: "verbatim";
  text: string[];
}
type Item = Case | Directive | Verbatim;

const RESULT_LINE = /^(exit \d+|stdout:|stderr:|\|( .*)?|\\ no newline at end)$/;

function parse(text: string): Item[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const items: Item[] = [];
  for (let i = 0; i < lines.length;) {
    const line = lines[i]!;
    const start = i++;
    const follow = (pattern: RegExp): string[] => {
      const out: string[] = [];
      while (i < lines.length && pattern.test(lines[i]!)) out.push(lines[i++]!);
      return out;
    };
    if (line.startsWith("$ sstfilter")) {
      items.push({ kind: "case", command: line, line: start + 1, expected: follow(RESULT_LINE) });
    } else if (/^(file|flip|leveldb|rocksdb-table) /.test(line)) {
      const body = follow(/^\|( .*)?$/);
      items.push({ kind: "directive", words: line.split(" "), body, text: [line, ...body] });
    } else if (line === "" || line.startsWith("#")) {
      items.push({ kind: "verbatim", text: [line] });
    } else {
      throw new Error(`line ${start + 1}: neither a case, a directive nor a comment: ${line}`);
    }
  }
  return items;
}

/** "| line" -> "line"; "|" -> "". */
const unbar = (line: string): string => line.slice(2);

/** The command line's words, tokens replaced; 'single quotes' keep spaces and are removed. */
function words(command: string, tmp: string): string[] {
  const out: string[] = [];
  for (const m of command.slice("$ sstfilter".length).matchAll(/'([^']*)'|(\S+)/g)) {
    out.push((m[1] ?? m[2]!).replaceAll("<fixtures>", FIXTURES).replaceAll("<tmp>", tmp));
  }
  return out;
}

/** A stream as "| " lines, tokens and masks applied. */
function section(name: string, bytes: string, tmp: string): string[] {
  if (bytes === "") return [];
  let text = bytes.replaceAll(tmp, "<tmp>").replaceAll(FIXTURES, "<fixtures>");
  for (const [pattern, token] of MASKS) text = text.replace(pattern, token);
  const ends = text.endsWith("\n");
  const lines = (ends ? text.slice(0, -1) : text).split("\n").map((l) => (l === "" ? "|" : `| ${l}`));
  return [`${name}:`, ...lines, ...(ends ? [] : ["\\ no newline at end"])];
}

function runCase(command: string, tmp: string): string[] {
  const r = spawnSync(process.execPath, [CLI, ...words(command, tmp)], { encoding: "utf8", cwd: tmp });
  if (r.error) throw r.error;
  return [`exit ${r.status}`, ...section("stdout", r.stdout, tmp), ...section("stderr", r.stderr, tmp)];
}

async function runDirective(d: Directive, tmp: string): Promise<void> {
  const at = (p: string): string => p.replaceAll("<tmp>", tmp).replaceAll("<fixtures>", FIXTURES);
  const [name, ...args] = d.words;
  if (name === "file") {
    writeFileSync(at(args[0]!), d.body.map((l) => unbar(l) + "\n").join(""));
  } else if (name === "flip") {
    const bytes = readFileSync(at(args[0]!));
    const from = Number(args[2]);
    for (let i = from; i < from + Number(args[3] ?? 1); i++) bytes[i]! ^= 0xff;
    writeFileSync(at(args[1]!), bytes);
  } else if (name === "rocksdb-table") {
    using w = (await loadBackend(true)).createTableWriter({ format: "rocksdb" });
    for (const line of d.body.map(unbar)) {
      const range = line.startsWith("--range ");
      const [key, value] = (range ? line.slice("--range ".length) : line).split("\t") as [string, string];
      if (range) w.deleteRange(key, value);
      else w.put(key, value);
    }
    writeFileSync(at(args[0]!), w.finish());
  } else {
    const dir = at(args[0]!);
    mkdirSync(path.dirname(dir), { recursive: true });
    let db = new ClassicLevel<string, string>(dir);
    await db.open();
    for (const line of d.body.map(unbar)) {
      if (line === "--close") {
        await db.close();
        db = new ClassicLevel<string, string>(dir);
        await db.open();
        continue;
      }
      const tab = line.indexOf("\t");
      if (tab < 0) await db.del(line);
      else await db.put(line.slice(0, tab), line.slice(tab + 1));
    }
    await db.close();
  }
}

const FILES = readdirSync(EXPECTED_DIR)
  .filter((f) => f.endsWith(".txt"))
  .sort();

test("tests/cli-expected holds expected-output files", () => {
  expect(FILES.length).toBeGreaterThan(0);
});

test.each(FILES)("%s: every case prints what the file expects", async (name) => {
  const file = path.join(EXPECTED_DIR, name);
  const items = parse(readFileSync(file, "utf8"));
  const cases = items.filter((it): it is Case => it.kind === "case");
  expect([name, cases.length > 0]).toEqual([name, true]);
  const tmp = mkdtempSync(path.join(tmpdir(), `sstfilter-expected-${name.replace(/\.txt$/, "")}-`));
  for (const it of items) {
    if (it.kind === "directive") await runDirective(it, tmp);
    if (it.kind !== "case") continue;
    const actual = runCase(it.command, tmp);
    if (UPDATE) {
      it.expected = actual;
      continue;
    }
    const where = `${name}:${it.line}: ${it.command}`;
    expect([where, actual.join("\n")]).toEqual([where, it.expected.join("\n")]);
  }
  if (UPDATE) {
    const text = items.flatMap((it) => (it.kind === "case" ? [it.command, ...it.expected] : it.text));
    writeFileSync(file, text.join("\n") + "\n");
  }
});
