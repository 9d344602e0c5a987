// `sstfilter get FILE KEY`: what a table holds for a key, newest first (versions, range deletions).
import type { NodeSstFilter } from "../../platform/node.js";
import {
  EXIT_NEGATIVE,
  entryJson,
  fromHex,
  TABLE_OPTIONS,
  usage,
  USER_KEYS_HELP,
  withTable,
  type Command,
  type Parsed,
} from "./shared.js";

async function get(sf: NodeSstFilter, args: Parsed): Promise<number> {
  const [file, keyText, ...extra] = args.positionals;
  if (file === undefined || keyText === undefined || extra.length > 0) {
    throw usage("get takes a file and one key (see sstfilter get --help)");
  }
  const key = args.values.hex === true ? fromHex(keyText, "key") : new TextEncoder().encode(keyText);
  const hex = args.values["output-hex"] === true;
  return withTable(sf, file, args, async (table) => {
    const found = await table.get(key);
    if (args.values.json === true) {
      for (const e of found) process.stdout.write(entryJson(sf, e, hex));
    } else {
      // sst_dump's lines (for a range deletion: its start, sequence, type 15 and end), escaped as
      // scan's unless --raw.
      process.stdout.write(sf.formatScanLines(found, { hex, escape: args.values.raw !== true }));
    }
    return found.length > 0 ? 0 : EXIT_NEGATIVE;
  });
}

/** `sstfilter get`. */
export const getCommand: Command = {
  summary: "what a table holds for a key: its versions, tombstones, covering range deletions",
  help: `Usage: sstfilter get <file> <key> [--hex] [--output-hex | --raw] [--json] [--user-keys]

Looks the user key up as the database's point lookup does (filter, index, data block) and prints
what the file holds for it, newest first, in sst_dump's scan format: each version (a value, a
deletion, a merge operand...) and the range deletions that cover the key, the bytes a terminal
cannot show escaped as scan escapes them. With user-defined timestamps the key is given without
one and every version is printed, the newest timestamp first. Exit code 0 when the file holds
something for the key, 1 when it holds nothing.

  --hex             the key is given in hex
  --output-hex      keys and values in hex
  --raw             keys and values as stored, as sst_dump prints them (see sstfilter scan --help)
  --json            one JSON object per entry, as scan --json
${USER_KEYS_HELP}`,
  options: {
    hex: { type: "boolean" },
    "output-hex": { type: "boolean" },
    raw: { type: "boolean" },
    json: { type: "boolean" },
    ...TABLE_OPTIONS,
  },
  run: get,
};
