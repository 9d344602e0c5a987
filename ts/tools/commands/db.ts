// `sstfilter db inspect|get|verify|dump DIR`: a whole database; each subcommand's output is worded
// by a module of its own beside the command line (tools/db-inspect.ts, db-wal.ts, db-get.ts,
// db-verify.ts, db-dump.ts).
import { readFile, stat } from "node:fs/promises";
import * as path from "node:path";

import type { Database, NodeSstFilter } from "../../platform/node.js";
import { dbDumpLines, DUMP_DECODE_NAMES } from "../db-dump.js";
import { dbGet, dbGetKey } from "../db-get.js";
import { databaseJson, databaseText } from "../db-inspect.js";
import { dbVerify } from "../db-verify.js";
import { walAndOptions } from "../db-wal.js";
import {
  databaseAt,
  inputError,
  isUrl,
  libraryFormatOption,
  URL_OPTIONS,
  usage,
  writeOut,
  type Command,
  type Parsed,
} from "./shared.js";

async function db(sf: NodeSstFilter, args: Parsed): Promise<number> {
  const [sub, dir, ...extra] = args.positionals;
  if (sub !== "inspect" && sub !== "get" && sub !== "verify" && sub !== "dump") {
    throw usage("db takes a subcommand: inspect, get, verify or dump (see sstfilter db --help)");
  }
  if (dir === undefined || extra.length !== (sub === "get" ? 1 : 0)) {
    throw usage(sub === "get" ? "db get takes a directory and a key" : `db ${sub} takes one directory`);
  }
  const jobsArg = args.values.jobs;
  const jobs = jobsArg === undefined ? undefined : Number(jobsArg);
  if (jobs !== undefined && (!Number.isSafeInteger(jobs) || jobs < 1)) {
    throw usage(`--jobs must be a whole number >= 1, got ${jobsArg}`);
  }
  const format = libraryFormatOption(args);
  const from = await databaseAt(sf, dir, args, format).catch((error: unknown) => {
    throw inputError(dir, error);
  });
  if (sub === "verify") {
    const opts = { jobs, format, json: args.values.json === true };
    return dbVerify(sf, dir, opts, from).catch((error: unknown) => {
      throw inputError(dir, error);
    });
  }
  const database = await sf
    .openDatabase(from, format === undefined ? {} : { format })
    .catch((error: unknown) => {
      throw inputError(dir, error);
    });
  if (sub === "get") return runDbGet(database, dir, extra[0]!, args);
  if (sub === "dump") return runDbDump(sf, database, dir, args);
  const logs = await walAndOptions(database).catch((error: unknown) => {
    throw inputError(dir, error);
  });
  process.stdout.write(
    args.values.json === true
      ? JSON.stringify({ ...databaseJson(database), ...logs.json }, null, 2) + "\n"
      : databaseText(dir, database) + logs.text,
  );
  return 0;
}

/** The blob folder of an IndexedDB folder: --blob-dir, else `<origin>.indexeddb.blob` beside it. */
async function blobDirOf(dir: string, args: Parsed): Promise<string | undefined> {
  const given = args.values["blob-dir"];
  if (typeof given === "string") return given;
  if (isUrl(dir)) return undefined;
  const base = path.resolve(dir);
  if (!base.endsWith(".leveldb")) return undefined;
  const beside = base.slice(0, -".leveldb".length) + ".blob";
  return (await stat(beside).catch(() => null))?.isDirectory() === true ? beside : undefined;
}

async function runDbDump(sf: NodeSstFilter, database: Database, dir: string, args: Parsed): Promise<number> {
  const decode = args.values.decode;
  if (decode === "") throw usage(`--decode takes one of ${DUMP_DECODE_NAMES.join(", ")}`);
  if (typeof decode === "string" && decode !== "auto" && !sf.decoderNames().includes(decode)) {
    throw usage(`--decode takes one of ${DUMP_DECODE_NAMES.join(", ")}, got ${JSON.stringify(decode)}`);
  }
  const values = args.values.values;
  if (values !== undefined && values !== "stored" && values !== "read") {
    throw usage(`--values takes stored or read, got ${JSON.stringify(values)}`);
  }
  const blobDir = await blobDirOf(dir, args);
  const blobs =
    blobDir === undefined
      ? undefined
      : { read: async (p: string) => new Uint8Array(await readFile(path.join(blobDir, ...p.split("/")))) };
  const encoder = new TextEncoder();
  let text = "";
  try {
    for await (const l of dbDumpLines(sf, database, {
      decode: typeof decode === "string" ? decode : null,
      json: args.values.json === true,
      ...(typeof args.values["column-family"] === "string"
        ? { columnFamily: args.values["column-family"] }
        : {}),
      ...(blobs === undefined ? {} : { blobs }),
      ...(values === undefined ? {} : { values }),
    })) {
      text += l;
      if (text.length >= 1 << 20) {
        await writeOut(encoder.encode(text));
        text = "";
      }
    }
  } catch (error) {
    await writeOut(encoder.encode(text));
    throw inputError(dir, error);
  } finally {
    database.dispose();
  }
  await writeOut(encoder.encode(text));
  return 0;
}

async function runDbGet(database: Database, dir: string, keyText: string, args: Parsed): Promise<number> {
  const hex = args.values.hex === true;
  const key = dbGetKey(keyText, hex);
  if (key === null) throw usage(`the key is not hex: ${JSON.stringify(keyText)}`);
  const cf = args.values["column-family"];
  const readTimestamp = args.values["read-timestamp"];
  if (
    typeof readTimestamp === "string" &&
    !(/^[0-9]{1,20}$/.test(readTimestamp) && BigInt(readTimestamp) < 1n << 64n)
  ) {
    throw usage(`--read-timestamp takes a decimal number below 2^64: ${JSON.stringify(readTimestamp)}`);
  }
  const out = await dbGet(database, key, {
    hex,
    explain: args.values.explain === true,
    json: args.values.json === true,
    ...(typeof cf === "string" ? { columnFamily: cf } : {}),
    ...(typeof readTimestamp === "string" ? { readTimestamp: BigInt(readTimestamp) } : {}),
  }).catch((error: unknown) => {
    throw inputError(dir, error);
  });
  process.stdout.write(out.stdout);
  process.stderr.write(out.stderr);
  return out.exitCode;
}

/** `sstfilter db`. */
export const dbCommand: Command = {
  summary:
    "a whole database: live files per level (db inspect), a key's value and route (db get), every file checked (db verify), its records (db dump)",
  help: `Usage: sstfilter db inspect <dir> [--json] [--format F]
       sstfilter db get <dir> <key> [--hex] [--explain] [--json] [--column-family NAME]
                        [--read-timestamp T] [--format F]
       sstfilter db verify <dir> [--jobs N] [--json] [--format F]
       sstfilter db dump <dir> [--decode D] [--json] [--blob-dir DIR] [--column-family NAME]
                       [--values stored|read] [--format F]

Reads the database's CURRENT and the MANIFEST it names, applies every edit as the database does
on open, and prints the live table files of each column family level by level: name, size, key
range, sequence numbers (RocksDB), and RocksDB's blob files. A MANIFEST whose last record a crash
cut short is read up to it, as RocksDB and LevelDB read it, and the torn tail is reported. Then
the live write-ahead logs (records, batches, sequence range, records per kind, how each ended:
clean, torn by a crash, or corrupt at a byte), the two-phase-commit transactions the logs leave
prepared (neither committed nor rolled back) and, for RocksDB, the newest OPTIONS file with the
comparator, merge operator, prefix extractor, compression, filter policy and format version of
each column family.

db verify checks every live file as "sstfilter verify" checks a table: the MANIFEST and the live
WALs record by record (a torn tail is reported, not an error: recovery reads up to it), each table's
blocks and filter, the tables' sizes against the MANIFEST, each blob file's record and footer CRCs
and its blob count against the MANIFEST. It lists each bad file with its error code and byte
offset. Then it replays the live WALs as recovery does (keeping nothing) and says so when recovery
would refuse to open the database though each file is good on its own (a WAL chain missing a log,
tables of writes beyond where a log stops). When CURRENT or the MANIFEST cannot be read, that is
the first bad file and every table, log and blob file present is verified.

  --json        the same as JSON; keys as text when printable UTF-8, else { hex } (get: the route
                and result, bytes as hex, sequence numbers as strings)
  --format F    rocksdb | leveldb (default: rocksdb when the directory holds IDENTITY or an
                OPTIONS file, else leveldb)
  --jobs N      verify: tables verified at once, each on its own thread (default: one per core)
  --header 'N: V'  <dir> may be the folder's http(s) URL: its files are found from CURRENT and the
                MANIFEST (docs/CLI.md) and read with ranged requests, tables never downloaded
                whole; this header goes with each request (an Authorization, say); repeatable
  --files NAMES the database's file names at the URL, comma-separated (an index.json's list, an S3
                listing): nothing is probed

Exit code 0 when the database was read (verify: every file is good and it opens), 1 when db get
found no value or verify found a bad file or a database that does not open, 2 for a usage error,
3 when CURRENT or the MANIFEST is missing or (inspect, get) corrupt, or db get met a merge chain
or a WAL of a WRITE_PREPARED or WRITE_UNPREPARED TransactionDB: the message names the file and the
byte offset.

db get looks the key up as RocksDB's DB::Get does: the memtable (the write-ahead logs replayed as a
TransactionDB recovers them: a prepared transaction counts where it was committed), then
level 0's files newest first, then the one file on each deeper level whose range holds the key;
in each file the filter, then the index and a data block; range deletions count. It prints what
"ldb get" prints: the value and a newline (--hex: 0x and upper-case hex digits), or
"Failed: Get failed: NotFound: " on standard error and exit code 1 when the key is absent or
deleted. A merge chain is not resolved (no merge operator runs): exit code 3, and --explain lists
its operands.

db dump prints the database's records: each live key's newest version across the write-ahead logs
and the tables (deletions dropped), in the database's key order, one line each: key => value, as
quoted text where printable UTF-8, else 0x and hex (--json: {"key", "sequence", "type", "value"},
bytes that are not text as {"hex"}). With --decode the records are decoded (docs/FORMATS.md 7):
  indexeddb       a Chrome IndexedDB folder as the page reads it: one line per object store record,
                  database, object store, key and value in tagged JSON (--json: {"database",
                  "objectStore", "key", "value"}); generated keys injected at the key path, values
                  Blink wrapped in a blob read from the blob folder
  localstorage    Chrome's Local Storage folder: origin, key, value ({"origin", "key", "value"})
  sessionstorage  Chrome's Session Storage folder: origin, key, value ({"namespace", "origin",
                  "key", "value"})
  auto            whichever of these the folder is (IndexedDB: comparator idb_cmp1), else raw
Text lines escape what a terminal cannot show (\\uXXXX).

  --decode D            dump: decode the records (above)
  --blob-dir DIR        dump: IndexedDB's blob folder (default: <origin>.indexeddb.blob beside
                        the .leveldb folder, when there)
  --hex                 get: the key is given in hex (0x optional) and the value printed in hex
  --explain             get: the route instead: one line per memtable or file consulted (the
                        filter's answer, the entry found, blocks read), then the result
  --column-family NAME  get: look in this column family (default: default); dump: dump it
  --values V            dump: stored (the default: blob indexes and wide-column entities as
                        stored) or read (as RocksDB's iterator reads them: a blob index's value
                        from its blob file, an entity's default column)
  --read-timestamp T    get: with user-defined timestamps (a .u64ts comparator), read at timestamp
                        T, a decimal u64, as ldb get --read_timestamp (default: the newest)`,
  options: {
    ...URL_OPTIONS,
    files: { type: "string" },
    json: { type: "boolean" },
    format: { type: "string" },
    jobs: { type: "string" },
    hex: { type: "boolean" },
    explain: { type: "boolean" },
    "column-family": { type: "string" },
    "read-timestamp": { type: "string" },
    decode: { type: "string" },
    values: { type: "string" },
    "blob-dir": { type: "string" },
  },
  run: db,
};
