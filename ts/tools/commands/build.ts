// `sstfilter build --format F --bits-per-key B KEYS`: the filter bytes the database stores for keys.
import { readFile, writeFile } from "node:fs/promises";

import type { FilterFormat } from "../../api/api.js";
import { SstFilterError, type NodeSstFilter } from "../../platform/node.js";
import { count } from "../format.js";
import { fromHex, inputError, onePath, usage, type Command, type Parsed } from "./shared.js";

/** The filter formats build makes (and write's --filter takes besides "none"). */
export const FORMATS: FilterFormat[] = ["leveldb", "rocksdb-legacy-bloom", "rocksdb-bloom", "rocksdb-ribbon"];

/** One key per line: a final newline ends the last key; "\r\n" line ends are accepted. */
function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

async function build(sf: NodeSstFilter, args: Parsed): Promise<number> {
  const file = onePath(args, "build");
  const format = args.values.format;
  if (typeof format !== "string" || !FORMATS.includes(format as FilterFormat)) {
    throw usage(`--format must be one of ${FORMATS.join(", ")}`);
  }
  const bitsText = args.values["bits-per-key"];
  const bitsPerKey = Number(bitsText);
  if (typeof bitsText !== "string" || bitsText.trim() === "" || !Number.isFinite(bitsPerKey)) {
    throw usage("--bits-per-key takes a number, e.g. 10 or 9.9");
  }
  const output = args.values.output;
  if (typeof output !== "string" && process.stdout.isTTY) {
    throw usage("the filter is binary: name a file with -o, or redirect standard output");
  }
  let text: string;
  try {
    text = file === "-" ? await readStdin() : await readFile(file, "utf8");
  } catch (error) {
    throw inputError(file, error);
  }
  const lines = splitLines(text);
  const keys = args.values.hex === true ? lines.map((l, i) => fromHex(l, `${file} line ${i + 1}`)) : lines;
  let bytes: Uint8Array;
  try {
    bytes = sf.buildFilter(keys, { format: format as FilterFormat, bitsPerKey });
  } catch (error) {
    if (error instanceof SstFilterError && error.code === "BAD_OPTIONS") throw usage(error.message);
    throw inputError(file, error);
  }
  if (typeof output === "string") {
    await writeFile(output, bytes);
  } else {
    process.stdout.write(bytes);
  }
  process.stderr.write(
    `${format} filter, ${count(keys.length)} keys at ${bitsPerKey} bits/key: ${count(bytes.length)} bytes` +
      `${typeof output === "string" ? ` written to ${output}` : ""}\n`,
  );
  return 0;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** `sstfilter build`. */
export const buildCommand: Command = {
  summary: "build the filter LevelDB / RocksDB would store for a list of keys",
  help: `Usage: sstfilter build --format F --bits-per-key B <keys-file> [-o out.bin] [--hex]

Builds exactly the filter bytes the database stores for the keys of <keys-file> (one key per
line, in the order given; "-" reads standard input) and writes them to out.bin or standard
output. A summary goes to standard error.

  --format F        ${FORMATS.join(" | ")}
  --bits-per-key B  bits per key as the database's policy takes them (e.g. 10, or 9.9 for RocksDB)
  -o, --output FILE write the filter here instead of standard output
  --hex             each line is a key in hex`,
  options: {
    format: { type: "string" },
    "bits-per-key": { type: "string" },
    output: { type: "string", short: "o" },
    hex: { type: "boolean" },
  },
  run: build,
};
