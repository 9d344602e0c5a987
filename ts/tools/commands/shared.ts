// What the commands of the `sstfilter` command line (tools/cli.ts, one file each in
// tools/commands/) share: their shape, the errors they throw with an exit code, opening the table
// or database a command names, keys as arguments and as text, and entries as JSON (scan --json, get --json).
import type { ParseArgsConfig } from "node:util";

import { checkLibraryFormat, type LibraryFormat } from "../../core/library-format.js";
import {
  SstFilterError,
  type AsyncTable,
  type DatabaseSource,
  type Entry,
  type NodeSstFilter,
  type OpenTableOptions,
} from "../../platform/node.js";
import { blobIndexJson, bytesJson, decodeEntryValue, parseHex, toHex } from "../format.js";

/** Exit code of a negative finding: a key definitely absent, a corrupt file, nothing for the key. */
export const EXIT_NEGATIVE = 1;
/** Exit code of a usage error. */
export const EXIT_USAGE = 2;
/** Exit code when the input could not be read or decoded. */
export const EXIT_INPUT = 3;

/** A failure with its exit code; tools/cli.ts's main() prints the message. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** A usage error: the command line is wrong (exit code 2). */
export const usage = (message: string): CliError => new CliError(message, EXIT_USAGE);

/** The options a command takes, as node:util's parseArgs takes them. */
export type Options = NonNullable<ParseArgsConfig["options"]>;

/** A command: its line in the main help, its --help, its options and what it does. */
export interface Command {
  summary: string;
  help: string;
  options: Options;
  /** Runs the command; resolves to its exit code, throws a CliError. */
  run(sf: NodeSstFilter, args: Parsed): Promise<number>;
}

/** The command line as parseArgs parsed it. */
export interface Parsed {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/** The help lines of the options every command that opens a table takes. */
export const USER_KEYS_HELP =
  "  --user-keys      the table's keys carry no 8-byte sequence/type tag (a bare TableBuilder wrote it)\n" +
  "  --comparator C   the order of the table's keys, by a built-in comparator's name:\n" +
  "                   leveldb.BytewiseComparator, rocksdb.ReverseBytewiseComparator,\n" +
  "                   leveldb.BytewiseComparator.u64ts, idb_cmp1 (Chrome's IndexedDB). Default:\n" +
  "                   what a RocksDB table records; a LevelDB table (which records none) is read\n" +
  "                   as bytewise when its index ascends bytewise, else conservatively";

/** The options every command that opens a table takes. */
export const TABLE_OPTIONS = {
  "user-keys": { type: "boolean" },
  comparator: { type: "string" },
} as const;

/** The help lines of the option of the commands that read a table at a URL too. */
export const HEADER_HELP =
  "  --header 'N: V'  <file> may be an http(s) URL, read with ranged requests (not downloaded);\n" +
  "                   this header goes with each request (an Authorization, say); repeatable";

/** The options of the commands that read a table at a URL too. */
export const URL_OPTIONS = { header: { type: "string", multiple: true } } as const;

/** Whether a command's file argument is an http(s) URL, read with ranged requests. */
export const isUrl = (file: string): boolean => /^https?:\/\//i.test(file);

/**
 * --format (write, db): the library whose formats to follow, as checkLibraryFormat (the one check
 * of the names) takes it; undefined when absent, a usage error when not a library's name.
 */
export function libraryFormatOption(args: Parsed): LibraryFormat | undefined {
  const format = args.values.format;
  if (format === undefined) return undefined;
  try {
    return checkLibraryFormat(format);
  } catch (error) {
    if (error instanceof SstFilterError) throw usage('--format must be "rocksdb" or "leveldb"');
    throw error;
  }
}

/** A hex argument as bytes; a usage error naming `what` when it is not hex. */
export function fromHex(text: string, what: string): Uint8Array {
  const bytes = parseHex(text);
  if (bytes === null) throw usage(`${what} is not hex: ${JSON.stringify(text)}`);
  return bytes;
}

// Keys in the commands' lines: worded in format.ts, which the viewer's Diff shares.
export { showKey } from "../format.js";

/** An input's failure as a CliError (exit code 3) naming the file, the code and the byte offset. */
export function inputError(file: string, error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof SstFilterError) {
    // An error naming the file itself (an HTTP source's) names it once.
    const own = `${file}: `;
    const message =
      error.file === file && error.message.startsWith(own) ? error.message.slice(own.length) : error.message;
    return new CliError(`${file}: ${error.code}: ${message}`, EXIT_INPUT);
  }
  const e = error as NodeJS.ErrnoException;
  if (typeof e?.code === "string" && typeof e.message === "string") {
    return new CliError(`${file}: ${e.code === "ENOENT" ? "no such file" : e.message}`, EXIT_INPUT);
  }
  return new CliError(`${file}: ${String(error)}`, EXIT_INPUT);
}

/** The table options of the command line: --user-keys, --comparator. */
function tableOpenOptions(args: Parsed): OpenTableOptions {
  const comparator = args.values.comparator;
  return {
    internalKeys: args.values["user-keys"] !== true,
    ...(typeof comparator === "string" ? { comparator } : {}),
  };
}

/** --header's values as headers; a usage error for one that is not "Name: value". */
function requestHeaders(args: Parsed): Record<string, string> {
  const headers: Record<string, string> = {};
  const given = args.values.header;
  for (const line of Array.isArray(given) ? given : []) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim();
    if (colon < 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw usage(`--header takes "Name: value", got ${JSON.stringify(line)}`);
    headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** Opens the table `file` (a path, or an http(s) URL) with the command line's options. */
export function openTable(sf: NodeSstFilter, file: string, args: Parsed): Promise<AsyncTable> {
  if (isUrl(file))
    return sf.openTableFrom(file, { ...tableOpenOptions(args), headers: requestHeaders(args) });
  return sf.openTableFile(file, tableOpenOptions(args));
}

/**
 * Where `db` commands read the database `dir`: the folder at that path, or for an http(s) URL the
 * files under it (--files, else found from its CURRENT and MANIFEST) read with ranged requests
 * and --header.
 */
export async function databaseAt(
  sf: NodeSstFilter,
  dir: string,
  args: Parsed,
  format: LibraryFormat | undefined,
): Promise<string | DatabaseSource> {
  const files = args.values.files;
  if (!isUrl(dir)) {
    if (files !== undefined) throw usage("--files goes with a database's URL (a folder lists its own)");
    return dir;
  }
  return sf.httpDatabaseSource(dir, {
    headers: requestHeaders(args),
    ...(typeof files === "string" ? { files: files.split(",").filter((name) => name !== "") } : {}),
    ...(format === undefined ? {} : { format }),
  });
}

/** Opens `file`, runs `use` on it and closes it; what fails is reported as about the file. */
export async function withTable(
  sf: NodeSstFilter,
  file: string,
  args: Parsed,
  use: (table: AsyncTable) => Promise<number>,
): Promise<number> {
  const table = await openTable(sf, file, args).catch((error: unknown) => {
    throw inputError(file, error);
  });
  try {
    return await use(table);
  } catch (error) {
    throw inputError(file, error);
  } finally {
    table.dispose();
  }
}

/** The one file a command takes; a usage error otherwise. */
export function onePath(args: Parsed, command: string): string {
  if (args.positionals.length !== 1)
    throw usage(`${command} takes one file (see sstfilter ${command} --help)`);
  return args.positionals[0]!;
}

/** Writes `bytes` to standard output, waiting while its buffer is full. */
export async function writeOut(bytes: Uint8Array): Promise<void> {
  if (!process.stdout.write(bytes)) {
    await new Promise<void>((resolve) => process.stdout.once("drain", resolve));
  }
}

/**
 * What --json shows of a blob index or entity besides the raw value: { blobIndex } or
 * { columns }, or { valueError } (the decoder's message) when the value does not decode.
 */
function decodedValueJson(sf: NodeSstFilter, e: Entry, hex: boolean): Record<string, unknown> {
  const decoded = decodeEntryValue(sf, e);
  if (decoded === undefined) return {};
  const asJson = (bytes: Uint8Array): string | { hex: string } => bytesJson(bytes, hex);
  if ("error" in decoded) {
    if (decoded.error instanceof SstFilterError) return { valueError: decoded.error.message };
    throw decoded.error;
  }
  if ("blobIndex" in decoded) return { blobIndex: blobIndexJson(decoded.blobIndex, asJson) };
  const columns = decoded.columns.map((c) => {
    const column: Record<string, unknown> = { name: asJson(c.name), value: asJson(c.value) };
    if (c.blobIndex !== undefined) column.blobIndex = blobIndexJson(c.blobIndex, asJson);
    return column;
  });
  return { columns };
}

/**
 * An entry's own fields as JSON (scan --json, get --json, scan --decode --json): key, timestamp,
 * seq (a string), type, value; bytes as bytesJson shows them (`hex`: always { hex }).
 */
export function entryFieldsJson(e: Entry, hex: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { key: bytesJson(e.key, hex) };
  // A user-defined timestamp: its bytes as stored, always hex (they are rarely text).
  if (e.timestamp !== undefined) out.timestamp = { hex: toHex(e.timestamp) };
  if (e.seq !== undefined) out.seq = e.seq.toString();
  if (e.type !== undefined) out.type = e.type;
  out.value = bytesJson(e.value, hex);
  return out;
}

/** An entry as one line of JSON (scan --json, get --json), its decoded value included. */
export function entryJson(sf: NodeSstFilter, e: Entry, hex: boolean): string {
  return JSON.stringify({ ...entryFieldsJson(e, hex), ...decodedValueJson(sf, e, hex) }) + "\n";
}
