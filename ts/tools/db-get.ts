// `sstfilter db get DIR KEY [--hex] [--explain] [--json] [--column-family NAME]`: a Get through the
// whole database (ts/api/db-get.ts), printed as RocksDB's `ldb get` prints it (tools/ldb_cmd.cc,
// GetCommand::DoCommand): the value and a newline on standard output, in hex as "0x" and upper-case
// digits with --hex, else its bytes up to the first zero byte (ldb prints it with "%s"); when
// there is none, "Failed: Get failed: NotFound: " on standard error and exit code 1.
import type { Database } from "../api/db.js";
import type { GetExplanation } from "../api/db-get.js";
import { getStepLine, parseHex, toHex } from "./format.js";

/** The options of `sstfilter db get`. */
export interface DbGetOptions {
  hex: boolean;
  explain: boolean;
  json: boolean;
  columnFamily?: string;
  /** --read-timestamp: DatabaseGetOptions.readTimestamp. */
  readTimestamp?: bigint;
}

/** What the command prints and its exit code; a key that is not hex with --hex is a usage error (null). */
export interface DbGetOutput {
  stdout: Uint8Array;
  stderr: string;
  exitCode: number;
}

const EXIT_NOT_FOUND = 1;
const EXIT_UNANSWERED = 3;

const utf8 = new TextEncoder();

/** The key's bytes: hex (with or without 0x) with --hex, else the argument's UTF-8; null: bad hex. */
export function dbGetKey(text: string, hex: boolean): Uint8Array | null {
  return hex ? parseHex(text) : utf8.encode(text);
}

/** ldb's "0x" + upper-case hex (StringToHex), or the bytes up to the first zero byte ("%s"). */
function ldbValue(value: Uint8Array, hex: boolean): Uint8Array {
  if (hex) return utf8.encode(`0x${toHex(value).toUpperCase()}\n`);
  const end = value.indexOf(0);
  const shown = end < 0 ? value : value.subarray(0, end);
  const out = new Uint8Array(shown.length + 1);
  out.set(shown);
  out[shown.length] = 0x0a;
  return out;
}

const shown = (bytes: Uint8Array): string => `0x${toHex(bytes).toUpperCase()}`;

/** A step's line of --explain (tests/ts/db-get.test.ts imports it by this name, from here). */
export const routeLine = getStepLine;

function resultLine(e: GetExplanation): string {
  const r = e.result;
  const at = r.sequence === null ? "" : ` @ ${r.sequence}`;
  switch (r.outcome) {
    case "found":
      return `result: found${at}: ${shown(r.value!)}`;
    case "merge-operands":
      return (
        `result: merge operands${at}, newest first: ${r.operands.map(shown).join(" ")}` +
        (r.value === null ? ", no base value" : `, base value ${shown(r.value)}`)
      );
    default:
      return `result: ${r.outcome}${at}`;
  }
}

function explanationJson(e: GetExplanation): string {
  return JSON.stringify(
    e,
    (_key, value: unknown) =>
      typeof value === "bigint" ? value.toString() : value instanceof Uint8Array ? toHex(value) : value,
    2,
  );
}

/** Runs the Get and renders it: ldb's output, the route (--explain) or JSON (--json). */
export async function dbGet(db: Database, key: Uint8Array, opts: DbGetOptions): Promise<DbGetOutput> {
  // One Get: the logs are streamed keeping only this key's versions (nothing else is kept).
  const explanation = await db.explainOnce(key, {
    ...(opts.columnFamily === undefined ? {} : { columnFamily: opts.columnFamily }),
    ...(opts.readTimestamp === undefined ? {} : { readTimestamp: opts.readTimestamp }),
  });
  const { result } = explanation;
  const exitCode =
    result.outcome === "found" ? 0 : result.outcome === "merge-operands" ? EXIT_UNANSWERED : EXIT_NOT_FOUND;
  if (opts.json) return { stdout: utf8.encode(explanationJson(explanation) + "\n"), stderr: "", exitCode };
  if (opts.explain) {
    // Table options the OPTIONS file names but that are not understood are read as the tables
    // describe themselves: say so.
    const notes = explanation.tableOptions.notes.map((n) => `note: ${n}`);
    const lines = [...explanation.steps.map(getStepLine), resultLine(explanation), ...notes];
    return { stdout: utf8.encode(lines.join("\n") + "\n"), stderr: "", exitCode };
  }
  switch (result.outcome) {
    case "found":
      return { stdout: ldbValue(result.value!, opts.hex), stderr: "", exitCode };
    case "merge-operands":
      return {
        stdout: new Uint8Array(0),
        stderr:
          `sstfilter: the key holds ${result.operands.length} merge operand(s) and ` +
          `${result.value === null ? "no base value" : "a base value"}; no merge operator runs (--explain lists them)\n`,
        exitCode,
      };
    default:
      return { stdout: new Uint8Array(0), stderr: "Failed: Get failed: NotFound: \n", exitCode };
  }
}
