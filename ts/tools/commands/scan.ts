// `sstfilter scan FILE`: a table's entries in order, as sst_dump's scan prints them, or as JSON.
import {
  SstFilterError,
  type Entry,
  type EntryOptions,
  type NodeSstFilter,
  type ScanTextOptions,
} from "../../platform/node.js";
import { terminalSafe } from "../db-dump.js";
import { recordJson } from "../format.js";
import {
  entryFieldsJson,
  entryJson,
  fromHex,
  onePath,
  showKey,
  HEADER_HELP,
  TABLE_OPTIONS,
  URL_OPTIONS,
  usage,
  USER_KEYS_HELP,
  withTable,
  writeOut,
  type Command,
  type Parsed,
} from "./shared.js";

/** A key argument: UTF-8 text, or hex with --input-key-hex. */
function keyArgument(args: Parsed, name: string): Uint8Array | undefined {
  const text = args.values[name];
  if (typeof text !== "string") return undefined;
  return args.values["input-key-hex"] === true ? fromHex(text, `--${name}`) : new TextEncoder().encode(text);
}

/**
 * scan --decode: an entry with what the record decoder makes of it (values of entries that hold
 * none, such as deletions, are not decoded); a record that does not decode shows the error.
 */
function decodedEntryLine(sf: NodeSstFilter, e: Entry, decoder: string, hex: boolean, json: boolean): string {
  const holdsValue = e.type === undefined || e.type === "put" || e.type === "merge";
  let record: unknown;
  let decodeError: string | undefined;
  if (holdsValue) {
    try {
      record = sf.decoder(decoder).decode(e.key, e.value);
    } catch (error) {
      if (!(error instanceof SstFilterError)) throw error;
      decodeError = `${error.code}: ${error.message}`;
    }
  }
  if (json) {
    const out = entryFieldsJson(e, hex);
    if (record !== undefined) out.record = JSON.parse(recordJson(record)) as unknown;
    if (decodeError !== undefined) out.decodeError = decodeError;
    return JSON.stringify(out) + "\n";
  }
  const head = `${showKey(e.key)}${e.seq === undefined ? "" : ` seq:${e.seq}, type:${e.type}`}`;
  const tail = decodeError !== undefined ? `error ${decodeError}` : holdsValue ? recordJson(record) : "-";
  return terminalSafe(`${head} => ${tail}`) + "\n";
}

async function scan(sf: NodeSstFilter, args: Parsed): Promise<number> {
  const file = onePath(args, "scan");
  if (args.values.prefix !== undefined && args.values.from !== undefined) {
    throw usage("scan takes --prefix or --from, not both (as sst_dump)");
  }
  // sst_dump prints an embedded blob table's entries as stored (its reader leaves them unresolved:
  // rocksdb block_based_table_reader.cc NewIterator, TableReaderCaller::kSSTDumpTool).
  const opts: EntryOptions = { embeddedBlobs: "index" };
  const from = keyArgument(args, "from");
  const to = keyArgument(args, "to");
  const prefix = keyArgument(args, "prefix");
  if (from !== undefined) opts.from = from;
  if (to !== undefined) opts.to = to;
  if (prefix !== undefined) opts.prefix = prefix;
  const readNum = args.values["read-num"];
  if (typeof readNum === "string") {
    const n = Number(readNum);
    if (!Number.isSafeInteger(n) || n < 0)
      throw usage(`--read-num must be a whole number >= 0, got ${readNum}`);
    opts.limit = n;
  }
  const hex = args.values["output-hex"] === true;
  const raw = args.values.raw === true;
  const decode = args.values.decode;
  if (raw && (args.values.json === true || typeof decode === "string")) {
    throw usage("--raw is for the sst_dump lines, not --json or --decode (whose output is escaped)");
  }
  if (typeof decode === "string" && !sf.decoderNames().includes(decode)) {
    throw usage(`--decode takes one of ${sf.decoderNames().join(", ")}, got ${JSON.stringify(decode)}`);
  }
  return withTable(sf, file, args, async (table) => {
    if (typeof decode === "string") {
      const encoder = new TextEncoder();
      let lines = "";
      for await (const entry of table.entries(opts)) {
        lines += decodedEntryLine(sf, entry, decode, hex, args.values.json === true);
        if (lines.length >= 1 << 20) {
          await writeOut(encoder.encode(lines));
          lines = "";
        }
      }
      await writeOut(encoder.encode(lines));
    } else if (args.values.json === true) {
      const encoder = new TextEncoder();
      let lines = "";
      for await (const entry of table.entries(opts)) {
        lines += entryJson(sf, entry, hex);
        if (lines.length >= 1 << 20) {
          await writeOut(encoder.encode(lines));
          lines = "";
        }
      }
      await writeOut(encoder.encode(lines));
    } else {
      const output: ScanTextOptions = {
        hex,
        escape: !raw,
        decodeBlobIndex: args.values["decode-blob-index"] === true,
        onErrorText: (text) => process.stderr.write(text),
      };
      for await (const text of table.scanText(opts, output)) await writeOut(text);
    }
    return 0;
  });
}

/** `sstfilter scan`. */
export const scanCommand: Command = {
  summary: "list a table's entries: key, sequence number, type, value (as sst_dump scan)",
  help: `Usage: sstfilter scan <file> [--from K] [--to K] [--prefix P] [--read-num N]
                     [--input-key-hex] [--output-hex | --raw] [--decode-blob-index] [--json]
                     [--decode indexeddb|localstorage|sessionstorage] [--user-keys]

Prints every entry of the file in order, one line each, as
"sst_dump --file=<file> --command=scan" prints its entries:
  'key' seq:N, type:T => value
with the bytes a terminal cannot show escaped, so that an entry is always one line: printable
ASCII and UTF-8 stay as they are, "\\" is doubled, and every other byte (NUL, newline and other
controls, bytes not in UTF-8, bidirectional overrides) is shown as \\xNN. --raw prints exactly
sst_dump's bytes instead.

  --from K          start at the first entry whose user key is >= K
  --to K            stop before the first entry whose user key is >= K
  --prefix P        only entries whose user key starts with P
  --read-num N      at most N entries
  --input-key-hex   K and P are given in hex
  --output-hex      keys and values in hex, exactly as sst_dump --output_hex
  --raw             keys and values as stored, exactly as sst_dump: a NUL ends a key or value
                    (printf's %s), control bytes and newlines go to the terminal as they are
  --decode-blob-index  blob indexes decoded: "[blob ref] file:N offset:N size:N compression: C"
                    (sst_dump --decode_blob_index); one that does not decode is reported on
                    standard error, as there
  --json            one JSON object per entry: key, seq (a string), type, value (text, or { hex });
                    blob indexes add blobIndex (decoded), wide-column entities columns
  --decode D        each entry's key and value through the record decoder D (Chrome's stores:
                    indexeddb, localstorage, sessionstorage), the record as JSON (docs/FORMATS.md
                    7.5) after "=>" (--json: "record"); one that does not decode shows its error

With user-defined timestamps (comparator leveldb.BytewiseComparator.u64ts) the lines show the
stored key, timestamp included, as sst_dump does; K and P are user keys without a timestamp
(every version of a key is in or out together), and --json gives the timestamp apart.
${USER_KEYS_HELP}
${HEADER_HELP}`,
  options: {
    from: { type: "string" },
    to: { type: "string" },
    prefix: { type: "string" },
    "read-num": { type: "string" },
    "input-key-hex": { type: "boolean" },
    "output-hex": { type: "boolean" },
    raw: { type: "boolean" },
    "decode-blob-index": { type: "boolean" },
    json: { type: "boolean" },
    decode: { type: "string" },
    ...TABLE_OPTIONS,
    ...URL_OPTIONS,
  },
  run: scan,
};
