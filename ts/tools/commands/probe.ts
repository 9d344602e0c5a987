// `sstfilter probe FILE KEY...`: what the table's filter answers for each key, and which filter.
import type { LookupExplanation, NodeSstFilter } from "../../platform/node.js";
import { bytesJson, lookupRouteLine, recordJson } from "../format.js";
import {
  EXIT_NEGATIVE,
  fromHex,
  showKey,
  HEADER_HELP,
  TABLE_OPTIONS,
  URL_OPTIONS,
  usage,
  USER_KEYS_HELP,
  withTable,
  type Command,
  type Parsed,
} from "./shared.js";

/**
 * A key's answer as one line of --json: the key and the lookup's explanation as
 * t.explainMayContain gives it (the probed bytes as keys are shown), with the table's partitions.
 */
function probeJson(key: Uint8Array, e: LookupExplanation, partitions: number): string {
  return recordJson({ key: bytesJson(key), ...e, probed: bytesJson(e.probed), partitions }) + "\n";
}

async function probe(sf: NodeSstFilter, args: Parsed): Promise<number> {
  const [file, ...keyArgs] = args.positionals;
  if (file === undefined || keyArgs.length === 0) throw usage("probe takes a file and at least one key");
  const keys = keyArgs.map((k) =>
    args.values.hex === true ? fromHex(k, "key") : new TextEncoder().encode(k),
  );
  return withTable(sf, file, args, async (table) => {
    const partitions = table.filter?.partitions ?? 0;
    const results = [];
    for (const key of keys) results.push(await table.explainMayContain(key));
    const shown = keys.map(showKey);
    const width = Math.max(...shown.map((s) => s.length));
    const line = (e: LookupExplanation, i: number): string => {
      if (args.values.json === true) return probeJson(keys[i]!, e, partitions);
      const verdict = e.mayContain ? "may be in this file       " : "definitely not in this file";
      return `${shown[i]!.padEnd(width)}  ${verdict}  (${lookupRouteLine(e, partitions)})\n`;
    };
    process.stdout.write(results.map(line).join(""));
    return results.every((e) => e.mayContain) ? 0 : EXIT_NEGATIVE;
  });
}

/** `sstfilter probe`. */
export const probeCommand: Command = {
  summary: "ask a table's filter about keys (exit 1 when one is definitely absent)",
  help: `Usage: sstfilter probe <file> <key>... [--hex] [--json] [--user-keys]

Answers, for each user key, what the database's point lookup gets from the file's filter:
"definitely not in this file" or "may be in this file", naming the filter partition or data
block consulted. Exit code 0 when every key may be present, 1 when some key is definitely absent.

  --hex            keys are given in hex (e.g. 6b6579 or 0x6b6579)
  --json           one JSON object per key (JSON Lines): key, mayContain, route, filterInUse,
                   partition, dataBlock ([offset, size] or null), probed, partitions; keys as
                   text when printable UTF-8, else { hex }
${USER_KEYS_HELP}
${HEADER_HELP}`,
  options: { hex: { type: "boolean" }, json: { type: "boolean" }, ...TABLE_OPTIONS, ...URL_OPTIONS },
  run: probe,
};
