// `sstfilter diff A B`: two tables compared (sf.diffTables, ts/api/table-diff.ts), physically,
// entry by entry and range deletion by range deletion, or two database folders (sf.diffDatabases,
// ts/api/database-diff.ts), their live files and logical contents. Its exit codes are diff(1)'s, not the other commands': 0 equal, 1 different,
// 2 trouble (a usage error, or a file that cannot be read or decoded).
import { stat } from "node:fs/promises";
import {
  SstFilterError,
  type AsyncTable,
  type Database,
  type DatabaseDiff,
  type DatabaseDiffIgnore,
  type DatabaseRecord,
  type DiffIgnore,
  type LiveFile,
  type Entry,
  type NodeSstFilter,
  type RangeDeletion,
  type TableDiff,
} from "../../platform/node.js";
import { bytesJson, count, countsLine, mergedLines, tableDiffLines } from "../format.js";
import {
  CliError,
  entryFieldsJson,
  EXIT_NEGATIVE,
  EXIT_USAGE,
  inputError,
  openTable,
  TABLE_OPTIONS,
  usage,
  USER_KEYS_HELP,
  type Command,
  type Parsed,
} from "./shared.js";

/** A database's record as the entry it was read from, to be shown as entries are. */
function recordEntry(r: DatabaseRecord): Entry {
  return { key: r.key, value: r.value, seq: r.sequence, type: r.type };
}

function fileText(f: LiveFile): string {
  return `level ${f.level} ${f.name} (${count(f.size)} bytes)`;
}

/** A database diff in words: the verdict, the live files (their counts alone when ignored), the records. */
function databaseDiffLines(d: DatabaseDiff, filesIgnored: boolean): string[] {
  const lines = [d.equal ? "A and B are equal" : "A and B differ"];
  const f = d.files;
  if (filesIgnored) lines.push(`live files: ignored (${count(f.countA)} in A, ${count(f.countB)} in B)`);
  else {
    lines.push(countsLine("live files", ["file", "files"], f));
    for (const s of f.onlyInASamples) lines.push(`  only in A: ${fileText(s)}`);
    for (const s of f.onlyInBSamples) lines.push(`  only in B: ${fileText(s)}`);
    for (const c of f.changedSamples) {
      lines.push(
        `  changed level ${c.level} ${c.name}: ${count(c.a.size)} bytes in A, ${count(c.b.size)} bytes in B`,
      );
    }
  }
  lines.push(...mergedLines("records", ["record", "records"], d.records, recordEntry, (c) => c.key));
  return lines;
}

/** A database diff as --json prints it: records as entries are, file numbers and seqs as strings. */
function databaseDiffJson(dirA: string, dirB: string, d: DatabaseDiff): string {
  const record = (r: DatabaseRecord): unknown => entryFieldsJson(recordEntry(r), false);
  const out = {
    a: dirA,
    b: dirB,
    equal: d.equal,
    files: d.files,
    records: {
      ...d.records,
      onlyInASamples: d.records.onlyInASamples.map(record),
      onlyInBSamples: d.records.onlyInBSamples.map(record),
      changedSamples: d.records.changedSamples.map((c) => ({
        key: bytesJson(c.key),
        fields: c.fields,
        a: record(c.a),
        b: record(c.b),
      })),
    },
  };
  return JSON.stringify(out, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v), 2) + "\n";
}

/** A range deletion as --json prints it: start, end (as keys are), seq as a string. */
function rangeDeletionJson(r: RangeDeletion): unknown {
  return { start: bytesJson(r.start), end: bytesJson(r.end), seq: r.seq.toString() };
}

/** The report as --json prints it: bytes as text when printable UTF-8, else { hex }; numbers above 2^53 and seqs as strings. */
function diffJson(fileA: string, fileB: string, d: TableDiff): string {
  const entry = (x: Entry): unknown => entryFieldsJson(x, false);
  const out = {
    a: fileA,
    b: fileB,
    equal: d.equal,
    entries: {
      ...d.entries,
      onlyInASamples: d.entries.onlyInASamples.map(entry),
      onlyInBSamples: d.entries.onlyInBSamples.map(entry),
      changedSamples: d.entries.changedSamples.map((c) => ({
        key: bytesJson(c.key),
        fields: c.fields,
        a: entry(c.a),
        b: entry(c.b),
      })),
    },
    rangeDeletions: {
      ...d.rangeDeletions,
      onlyInASamples: d.rangeDeletions.onlyInASamples.map(rangeDeletionJson),
      onlyInBSamples: d.rangeDeletions.onlyInBSamples.map(rangeDeletionJson),
      changedSamples: d.rangeDeletions.changedSamples.map((c) => ({
        start: bytesJson(c.start),
        fields: c.fields,
        a: rangeDeletionJson(c.a),
        b: rangeDeletionJson(c.b),
      })),
    },
    physical: d.physical,
  };
  return JSON.stringify(out, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v), 2) + "\n";
}

/** --ignore's comma-separated list, each item checked by diffTables or diffDatabases ("files" only by the latter). */
function ignoreList(args: Parsed): DatabaseDiffIgnore[] {
  const text = args.values.ignore;
  if (typeof text !== "string") return [];
  return text.split(",").filter((item) => item !== "") as DatabaseDiffIgnore[];
}

function maxOption(args: Parsed): number {
  const text = args.values.max;
  if (text === undefined) return 10;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0)
    throw usage(`--max must be a whole number >= 0, got ${String(text)}`);
  return n;
}

/** diff's trouble: every failure is exit code 2, as diff(1)'s. */
function trouble(file: string, error: unknown): CliError {
  const e = inputError(file, error);
  return new CliError(e.message, EXIT_USAGE);
}

/** Whether `file` is a folder (false when it is missing: opening it as a table reports that). */
async function isFolder(file: string): Promise<boolean> {
  return (await stat(file).catch(() => null))?.isDirectory() === true;
}

/** diffTables' and diffDatabases' BAD_OPTIONS (--ignore, different key orders) are the command line's fault. */
function diffError(files: string, error: unknown): CliError {
  if (error instanceof SstFilterError && error.code === "BAD_OPTIONS") return usage(`diff: ${error.message}`);
  return trouble(files, error);
}

async function diffTableFiles(
  sf: NodeSstFilter,
  args: Parsed,
  [fileA, fileB]: [string, string],
  opts: { ignore: DatabaseDiffIgnore[]; maxReported: number },
): Promise<number> {
  const opened: AsyncTable[] = [];
  try {
    for (const file of [fileA, fileB]) {
      opened.push(
        await openTable(sf, file, args).catch((error: unknown) => Promise.reject(trouble(file, error))),
      );
    }
    const d = await sf
      // diffTables rejects "files" as any item it does not know (BAD_OPTIONS, a usage error).
      .diffTables(opened[0]!, opened[1]!, { ...opts, ignore: opts.ignore as DiffIgnore[] })
      .catch((error: unknown) => {
        throw diffError(`${fileA}, ${fileB}`, error);
      });
    process.stdout.write(
      args.values.json === true ? diffJson(fileA, fileB, d) : tableDiffLines(d).join("\n") + "\n",
    );
    return d.equal ? 0 : EXIT_NEGATIVE;
  } finally {
    for (const t of opened) t.dispose();
  }
}

async function diffDatabaseFolders(
  sf: NodeSstFilter,
  args: Parsed,
  [dirA, dirB]: [string, string],
  opts: { ignore: DatabaseDiffIgnore[]; maxReported: number },
): Promise<number> {
  const opened: Database[] = [];
  try {
    for (const dir of [dirA, dirB]) {
      opened.push(await sf.openDatabase(dir).catch((error: unknown) => Promise.reject(trouble(dir, error))));
    }
    const d = await sf.diffDatabases(opened[0]!, opened[1]!, opts).catch((error: unknown) => {
      throw diffError(`${dirA}, ${dirB}`, error);
    });
    process.stdout.write(
      args.values.json === true
        ? databaseDiffJson(dirA, dirB, d)
        : databaseDiffLines(d, opts.ignore.includes("files")).join("\n") + "\n",
    );
    return d.equal ? 0 : EXIT_NEGATIVE;
  } finally {
    for (const db of opened) db.dispose();
  }
}

async function diff(sf: NodeSstFilter, args: Parsed): Promise<number> {
  if (args.positionals.length !== 2) throw usage("diff takes two files (see sstfilter diff --help)");
  const pair = args.positionals as [string, string];
  const opts = { ignore: ignoreList(args), maxReported: maxOption(args) };
  const [folderA, folderB] = [await isFolder(pair[0]), await isFolder(pair[1])];
  if (folderA !== folderB) {
    throw usage(
      `diff compares two tables or two database folders, not a ${folderA ? "folder" : "file"} with a ${folderB ? "folder" : "file"}`,
    );
  }
  return folderA ? diffDatabaseFolders(sf, args, pair, opts) : diffTableFiles(sf, args, pair, opts);
}

/** `sstfilter diff`. */
export const diffCommand: Command = {
  summary: "compare two tables or two databases: their entries and their files (exit 1 when they differ)",
  help: `Usage: sstfilter diff <A> <B> [--json] [--ignore LIST] [--max N] [--user-keys]

Compares two tables: their entries merged in key order (only in A, only in B, changed: value,
type, sequence number), their range deletions (RocksDB's range_del block) merged in start key
and sequence number order (only in A, only in B, changed: end, sequence number; listed when a
table has some), and the files: format, format_version, checksum, properties, filter
(kind, parameters, the first differing 64-byte block of its bytes), index, data blocks (the
first whose contents differ, with its offset in each file): the files as a reader sees them,
not bytes none reads (footer padding, gaps). Both are read once, in bounded memory. Exit code, as diff's: 0 when the tables are equal, 1 when they differ, 2 on trouble (a
usage error, or a file that cannot be read or decoded).

Two database folders: their live table files per level (the same when level, number and size
are), then their logical contents, what a full scan of each returns (newest versions, deletions
and range deletions applied), merged in key order: keys only in A, only in B, changed (value,
type, sequence number). The default column family; the scans stream, in bounded memory.

  --json           the report as JSON: a, b, equal, entries (equal, countA, countB, onlyInA,
                   onlyInB, changed, onlyInASamples, onlyInBSamples, changedSamples),
                   rangeDeletions (the same, each { start, end, seq }) and physical (equal,
                   fields, properties, filterBytes, dataBlock); as sf.diffTables gives it.
                   Databases: a, b, equal, files and records, each as entries; as sf.diffDatabases
  --ignore LIST    comma-separated fields expected to vary: seq (sequence numbers, their
                   properties, data block contents), properties (all), properties:volatile (who
                   wrote the file and when: creation times, db, session and host ids, original
                   file number), properties:NAME (NAME may end in *); databases: files (the live
                   files do not count in the verdict: a compacted copy with the same contents is
                   equal)
  --max N          entries (files, records) of each kind to list (default 10; all are counted)
${USER_KEYS_HELP}`,
  options: {
    ...TABLE_OPTIONS,
    json: { type: "boolean" },
    ignore: { type: "string" },
    max: { type: "string" },
  },
  run: diff,
};
