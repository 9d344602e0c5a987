// Display helpers shared by the command line (tools/cli.ts) and the SST viewer (demo/), published
// as the package's `sstfilter/tools` entry (package.json "exports"), which the viewer imports.
import type {
  BlobIndex,
  Entry,
  FieldDifference,
  LookupExplanation,
  LookupRoute,
  MergedDiff,
  RangeDeletion,
  RouteStep,
  SstFilter,
  TableDiff,
  TablePropertyValue,
  VerifyReport,
  WideColumn,
} from "../api/index.js";

/**
 * 1234567 -> "1,234,567" (integers; toLocaleString would load the locale data first, a cost every
 * short command would pay).
 */
export const count = (n: number | bigint): string => {
  const digits = String(n);
  return /^-?\d+$/.test(digits) ? digits.replace(/\B(?=(\d{3})+$)/g, ",") : n.toLocaleString("en-US");
};

/** (3, "key") -> "3 keys"; (1, "key") -> "1 key". */
export const plural = (n: number, noun: string): string => `${count(n)} ${noun}${n === 1 ? "" : "s"}`;

/** A rate as a percentage, with two decimals, or in exponent form below 0.01%. */
export const percent = (rate: number): string =>
  rate === 0 ? "0%" : rate < 0.0001 ? `${(rate * 100).toExponential(1)}%` : `${(rate * 100).toFixed(2)}%`;

/** A size in B, KiB or MiB. */
export const byteSize = (n: number): string =>
  n < 1024
    ? `${count(n)} B`
    : n < 1 << 20
      ? `${(n / 1024).toFixed(1)} KiB`
      : `${(n / (1 << 20)).toFixed(1)} MiB`;

const HEX_DIGITS = "0123456789abcdef";

/** Lowercase hex, two digits per byte. */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += HEX_DIGITS[b >> 4]! + HEX_DIGITS[b & 15]!;
  return out;
}

/** Hex digits, with an optional 0x prefix and any whitespace, as bytes; null when not hex. */
export function parseHex(text: string): Uint8Array | null {
  const digits = text.replace(/^0x/i, "").replace(/\s+/g, "");
  if (digits.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(digits)) return null;
  return Uint8Array.from({ length: digits.length / 2 }, (_, i) =>
    parseInt(digits.slice(2 * i, 2 * i + 2), 16),
  );
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The bytes as text when they are UTF-8 without control or format characters, else null. */
export function printableText(bytes: Uint8Array): string | null {
  try {
    const text = utf8.decode(bytes);
    return /[\p{Cc}\p{Cf}]/u.test(text) ? null : text;
  } catch {
    return null; // not UTF-8
  }
}

/** Bytes in JSON output: printable UTF-8 as a string, anything else (or everything, with `hex`) { hex }. */
export function bytesJson(bytes: Uint8Array, hex = false): string | { hex: string } {
  const text = hex ? null : printableText(bytes);
  return text !== null ? text : { hex: toHex(bytes) };
}

/** JSON for anything a record decoder returns: 64-bit integers as strings, bytes as { hex }. */
export function recordJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "bigint" ? v.toString() : v instanceof Uint8Array ? { hex: toHex(v) } : v,
  );
}

/** An SstFilterError message without its trailing "(at byte N)", for views that show N apart. */
export const withoutOffset = (message: string): string => message.replace(/ \(at byte \d+\)$/, "");

/**
 * A table's key order in words (the CLI's inspect and explain, the viewer's format facts): the
 * comparator, and where the reader's knowledge of it comes from when it is not the file's own word.
 */
export function keyOrderText(order: {
  comparator: string;
  source: "recorded" | "supplied" | "separators" | "unknown";
  keysLookLike: string | null;
}): string {
  switch (order.source) {
    case "recorded":
      return order.comparator;
    case "supplied":
      return `${order.comparator} (supplied)`;
    case "separators":
      return `${order.comparator} (assumed: LevelDB tables record no comparator, and the index separators ascend bytewise)`;
    case "unknown":
      if (order.keysLookLike !== null) {
        return `unknown; the keys look like ${order.keysLookLike}'s: answers are conservative (supply the comparator ${order.keysLookLike} for exact ones)`;
      }
      return order.comparator === ""
        ? "not bytewise; comparator unknown: answers are conservative (supply the comparator)"
        : `${order.comparator}: not built in, answers are conservative (supply the comparator)`;
  }
}

// ---------------------------------------------------------------------------------------------
// One voice (issue 30): the facts both the command line and the viewer word (a filter lookup's
// route, a Get's steps, a value decoded by its entry type, a blob index, a table's verification)
// are worded here, once.
// Where a fact has two wordings, the layouts differ: the CLI prints one terse line per key or step
// that scripts read (their bytes are tested), the viewer sentences, badges and boxes.

/** A block handle on the command line: "@ 8192 (4,062 bytes)". */
export const handleLine = ([offset, size]: [number, number]): string => `@ ${offset} (${count(size)} bytes)`;

/** A block handle in the viewer: "@ 8,192, 4,062 B". */
export const handleShort = ([offset, size]: [number, number]): string =>
  `@ ${count(offset)}, ${count(size)} B`;

/**
 * Where a filter lookup's answer came from, as `sstfilter probe` adds it in parentheses after the
 * verdict: "filter partition 3 of 31", "full filter; the lookup goes on to data block @ 0 (…)".
 */
export function lookupRouteLine(e: LookupExplanation, partitions: number): string {
  // RocksDB reads the data block only after the filter said "may match".
  const then =
    e.dataBlock && e.mayContain ? `; the lookup goes on to data block ${handleLine(e.dataBlock)}` : "";
  switch (e.route) {
    case "full-filter":
      return `full filter${then}`;
    case "partition":
      return `filter partition ${e.partition} of ${partitions}${then}`;
    case "block-filter":
      return `filter of the data block ${handleLine(e.dataBlock!)}`;
    case "no-filter":
      return `no filter${then}`;
    case "outside-prefix-domain":
      return `not filtered: the key has no prefix for the prefix filter${then}`;
    case "after-last-key":
      return "after the file's last key";
    case "prefix-extractor-changed":
      return `not filtered: the database's prefix extractor is not the table's${then}`;
    case "any-filter":
      return "every filter that could hold the key (the key order is unknown: answers are conservative)";
  }
}

/** What answered a lookup, as the viewer's sentence names it. */
const LOOKUP_ROUTE_PHRASES: Record<LookupRoute, (e: LookupExplanation, partitions: number) => string> = {
  "full-filter": () => "the full filter",
  partition: (e, partitions) => `filter partition ${e.partition} of ${count(partitions)}`,
  // The "block-filter" route always names its data block.
  "block-filter": (e) => `the filter of the data block ${handleShort(e.dataBlock!)}`,
  "no-filter": () => "no filter: the file has none that can check this key",
  "outside-prefix-domain": () => "no filter: the key is outside the prefix extractor's domain",
  "after-last-key": () => "the index: the key sorts after the file's last key",
  // Only a read with another prefix extractor than the table's (the database's OPTIONS) gets it.
  "prefix-extractor-changed": () => "no probe: the database's prefix extractor is not the table's",
  "any-filter": () =>
    "every filter that could hold the key: the key order is unknown, so answers are conservative",
};

/**
 * Where a filter lookup's answer came from, as the viewer's probe box says it under the verdict:
 * "answered by the full filter; a lookup goes on to the data block @ 0, 4,062 B". `probedNote`
 * (the viewer's words for the prefix probed, as it shows keys) goes before the data block.
 */
export function lookupRouteSentence(e: LookupExplanation, partitions: number, probedNote: string): string {
  const then =
    e.mayContain && e.dataBlock && e.route !== "block-filter"
      ? `; a lookup goes on to the data block ${handleShort(e.dataBlock)}`
      : "";
  return `answered by ${LOOKUP_ROUTE_PHRASES[e.route](e, partitions)}${probedNote}${then}`;
}

/** A step of a Get's route as `sstfilter db get --explain` prints it: "L1 000047.sst: filter maybe, value @ 1234, 1 block read". */
export function getStepLine(step: RouteStep): string {
  const where = step.where === "memtable" ? `memtable ${step.file}` : `L${step.level} ${step.file}`;
  if (!step.inRange) return `${where}: key out of range`;
  const parts: string[] = [];
  if (step.filter !== null) parts.push(step.filter === "none" ? "no filter" : `filter ${step.filter}`);
  if (step.entry === "none") parts.push("no entry for the key");
  else if (step.entry !== null)
    parts.push(step.sequence === null ? step.entry : `${step.entry} @ ${step.sequence}`);
  if (step.blobFile !== undefined) parts.push(`value read from ${step.blobFile}`);
  if (step.where === "table") parts.push(`${step.blocksRead} block${step.blocksRead === 1 ? "" : "s"} read`);
  if (step.blockCacheHits > 0) parts.push(`${step.blockCacheHits} from the block cache`);
  return `${where}: ${parts.join(", ")}`;
}

/** The entry a Get step found, in the viewer's words. */
const GET_ENTRY_WORDS: Record<NonNullable<RouteStep["entry"]>, string> = {
  value: "value",
  deletion: "deletion",
  "single-deletion": "single deletion",
  merge: "merge operand",
  "range-deletion": "range deletion",
  none: "nothing",
};

/** The filter's answer at a Get step, in the viewer's words. */
const GET_FILTER_WORDS: Record<NonNullable<RouteStep["filter"]>, string> = {
  no: "filter: definitely not here",
  maybe: "filter: maybe",
  none: "no filter",
};

/**
 * What one step of a Get's route found, as the viewer's box for the file shows it: a verdict (the
 * box's colour) and a short badge.
 */
export function getStepVerdict(step: RouteStep): { verdict: "skip" | "no" | "miss" | "hit"; badge: string } {
  if (step.where === "table" && !step.inRange) return { verdict: "skip", badge: "out of range" };
  if (step.filter === "no") return { verdict: "no", badge: "filter: no" };
  if (step.entry === null || step.entry === "none") {
    // A filter that said maybe for a key the file lacks: a false positive, paid with a block read.
    return { verdict: "miss", badge: step.filter === "maybe" ? "maybe: not here" : "not here" };
  }
  return { verdict: "hit", badge: GET_ENTRY_WORDS[step.entry] };
}

/** A step of a Get's route as the viewer's route list shows it: where, then what the file answered. */
export function getStepText(step: RouteStep): string {
  const where = step.where === "memtable" ? `memtable (${step.file})` : `L${step.level} ${step.file}`;
  const parts: string[] = [];
  if (step.where === "table" && !step.inRange) parts.push("key outside the file's range: not opened");
  else if (step.filter !== null) parts.push(GET_FILTER_WORDS[step.filter]);
  if (step.entry !== null) {
    const seq = step.sequence === null ? "" : ` (seq ${step.sequence})`;
    parts.push(step.entry === "none" ? "no entry for the key" : `${GET_ENTRY_WORDS[step.entry]}${seq}`);
  }
  if (step.blocksRead > 0) parts.push(`${plural(step.blocksRead, "block")} read`);
  return `${where} — ${parts.join(" · ")}`;
}

/**
 * An entry's value decoded by its type: a blob index's fields, a wide-column entity's columns, or
 * what stopped the decoding; undefined for the types whose values have no structure.
 */
export type DecodedEntryValue = { blobIndex: BlobIndex } | { columns: WideColumn[] } | { error: unknown };

/** `entry`'s value decoded by its type (sf.decodeBlobIndex, sf.decodeWideColumns); see DecodedEntryValue. */
export function decodeEntryValue(
  sf: Pick<SstFilter, "decodeBlobIndex" | "decodeWideColumns">,
  entry: Pick<Entry, "type" | "value">,
): DecodedEntryValue | undefined {
  try {
    if (entry.type === "blob-index") return { blobIndex: sf.decodeBlobIndex(entry.value) };
    if (entry.type === "wide-column-entity") return { columns: sf.decodeWideColumns(entry.value) };
  } catch (error) {
    return { error };
  }
  return undefined;
}

/**
 * A blob index as JSON (scan --json, get --json): 64-bit numbers as strings, an inlined value as
 * `bytesJson` shows bytes.
 */
export function blobIndexJson(
  index: BlobIndex,
  bytesJson: (bytes: Uint8Array) => unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = { type: index.type };
  if (index.fileNumber !== undefined) out.fileNumber = index.fileNumber.toString();
  if (index.offset !== undefined) out.offset = index.offset.toString();
  if (index.size !== undefined) out.size = index.size.toString();
  if (index.compression !== undefined) out.compression = index.compression;
  if (index.expiration !== undefined) out.expiration = index.expiration.toString();
  if (index.value !== undefined) out.value = bytesJson(index.value);
  return out;
}

/** A blob's expiration (seconds since the epoch) as a UTC time, or as seconds where no Date reaches. */
function expiryText(seconds: bigint): string {
  const date = new Date(Number(seconds) * 1000);
  return Number.isNaN(date.getTime())
    ? `${seconds} s after the epoch`
    : date.toISOString().replace(".000Z", "Z");
}

/**
 * A blob index in words (the viewer's value cell): where the value lies in which blob file, or the
 * inlined value as `inlinedText` shows bytes, and when it expires.
 */
export function blobIndexText(blob: BlobIndex, inlinedText: (bytes: Uint8Array) => string): string {
  const expires = blob.expiration === undefined ? "" : `, expires ${expiryText(blob.expiration)}`;
  if (blob.type === "inlined-ttl")
    return `inlined: ${inlinedText(blob.value ?? new Uint8Array(0))}${expires}`;
  const codec = blob.compression ? `, ${blob.compression}` : "";
  return `blob file ${blob.fileNumber} @ ${count(Number(blob.offset))}, ${count(Number(blob.size))} B${codec}${expires}`;
}

/**
 * The blocks opening a table reads and checks, in the order it reads them (api/table.ts): the
 * footer, the metaindex, the properties (when the table has any), the index, the filter (when it has
 * one). Verify's report names them; the data and other meta blocks are its own walk.
 */
export function blocksCheckedWhenOpening(table: {
  properties: Record<string, unknown>;
  filter: unknown;
}): string[] {
  const opened = ["footer", "metaindex"];
  if (Object.keys(table.properties).length > 0) opened.push("properties");
  opened.push("index");
  if (table.filter !== null) opened.push("filter");
  return opened;
}

/**
 * A table's verification in one word: ok; UNSUPPORTED when the walk stopped at a block this reader
 * cannot decode (XPRESS, a custom codec: that says nothing against the file) and no key failed the
 * filter; else CORRUPT.
 */
export function verifyVerdict(report: VerifyReport): "ok" | "UNSUPPORTED" | "CORRUPT" {
  if (report.ok) return "ok";
  return report.error?.code === "UNSUPPORTED" && report.falseNegatives === 0 ? "UNSUPPORTED" : "CORRUPT";
}

/** What wording a verification's report takes from where it is shown. */
export interface VerifyReportWording {
  /** The blocks opening the table checked: blocksCheckedWhenOpening(table). */
  opened: string[];
  /** A key of a false negative, as the layout shows keys. */
  keyText: (key: Uint8Array) => string;
  /**
   * Said after an error about an internal-key tag, whose usual cause is a table a bare TableBuilder
   * wrote read as a database file (the CLI names its --user-keys); nothing when absent.
   */
  tagErrorHint?: string;
}

/**
 * A table's verification (`sstfilter verify`, the viewer's Verify) as lines: the blocks and keys
 * read, the blocks checked when opening and the meta blocks read, the error that stopped the walk,
 * then the filter's side: why keys were not probed, the keys it rules out although they are in the
 * file (the samples, with their data blocks), or that every key passed.
 */
export function verifyReportLines(report: VerifyReport, wording: VerifyReportWording): string[] {
  const lines = [
    `${plural(report.dataBlocks, "data block")}, ${plural(report.keys, "key")} read` +
      (report.error === null ? ", every checksum matches" : ""),
    `checked when opening: ${wording.opened.join(", ")}` +
      (report.metaBlocks.length > 0 ? `; meta blocks: ${report.metaBlocks.join(", ")}` : ""),
  ];
  if (report.error !== null) {
    lines.push(`${report.error.code}: ${report.error.message}`);
    if (wording.tagErrorHint !== undefined && /internal-key tag/.test(report.error.message)) {
      lines.push(wording.tagErrorHint);
    }
  }
  if (report.filterSkipped !== null) {
    lines.push(`keys not probed: ${report.filterSkipped}`);
  } else if (report.falseNegatives > 0) {
    lines.push(`${plural(report.falseNegatives, "key")} the filter rules out although in the file:`);
    for (const fn of report.falseNegativeSamples) {
      lines.push(`  ${wording.keyText(fn.key)} (data block ${handleLine(fn.dataBlock)})`);
    }
  } else if (report.keys > 0) {
    lines.push("every key read passes the filter");
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Two tables compared (sf.diffTables, ts/api/table-diff.ts): the command line's `diff` prints
// these lines, and the viewer's Diff shows them, one wording (issue 32).

/** A key as text when it is printable UTF-8, else as 0x-prefixed hex. */
export function showKey(key: Uint8Array): string {
  const text = printableText(key);
  // Leading/trailing spaces and the empty key would be invisible or ambiguous.
  return text !== null && text.length > 0 && text.trim() === text ? text : `0x${toHex(key)}`;
}

// The fields diffTables names, in the files' own terms (RocksDB's option and property words).
const FIELD_WORDS: Record<string, string> = {
  format: "format",
  "order.comparator": "comparator",
  "footer.formatVersion": "format_version",
  "footer.checksum": "checksum",
  "data.bytes": "bytes of data blocks",
  "data.blocks": "data blocks",
  "index.kind": "index_type",
  "index.bytes": "bytes of index",
  "index.partitions": "index partitions",
  "filter.present": "filter",
  "filter.policy": "filter policy",
  "filter.kind": "filter kind",
  "filter.partitions": "filter partitions",
  "filter.wholeKeyFiltering": "whole_key_filtering",
  "filter.prefixExtractor": "prefix_extractor",
  "filter.bytes": "bytes of filter",
  "filter.numProbes": "filter probes per key",
  "filter.bitsPerKey": "filter bits per key",
};

// Values longer than this are cut in the text output (--json has them whole).
const SHOWN_VALUE = 40;

function propertyText(value: TablePropertyValue): string {
  return typeof value === "object" ? `0x${value.hex}` : String(value);
}

function fieldLine(d: FieldDifference): string {
  const show = (v: FieldDifference["a"]): string => (v === null ? "none" : String(v));
  return `${FIELD_WORDS[d.field] ?? d.field}: ${show(d.a)} in A, ${show(d.b)} in B`;
}

/** An entry in a line: key, sequence number and type where the table has them, value. */
function entryText(e: Entry): string {
  const value = showKey(e.value);
  const cut =
    value.length > SHOWN_VALUE ? `${value.slice(0, SHOWN_VALUE)}... (${count(e.value.length)} bytes)` : value;
  const tag = e.seq === undefined ? "" : ` @ ${e.seq} ${e.type}`;
  return `${showKey(e.key)}${tag} : ${cut}`;
}

/** A range deletion as the entry a table's get() reports for it: its start, the end as the value. */
function rangeDeletionEntry(r: RangeDeletion): Entry {
  return { key: r.start, value: r.end, seq: r.seq, type: "range-delete" };
}

/** A merged diff's counts after `what`: "equal" and the count (in `unit`), or what differs. */
export function countsLine<T, C>(
  what: string,
  unit: [one: string, many: string],
  d: MergedDiff<T, C>,
): string {
  return d.equal
    ? `${what}: equal (${count(d.countA)} ${d.countA === 1 ? unit[0] : unit[1]})`
    : `${what}: ${count(d.onlyInA)} only in A, ${count(d.onlyInB)} only in B, ${count(d.changed)} changed (${count(d.countA)} in A, ${count(d.countB)} in B)`;
}

/**
 * The lines of a merged diff of entries, records or range deletions (each shown as an entry): its
 * counts, then the samples.
 */
export function mergedLines<T, C extends { fields: string[]; a: T; b: T }>(
  what: string,
  unit: [one: string, many: string],
  d: MergedDiff<T, C>,
  asEntry: (item: T) => Entry,
  keyOf: (change: C) => Uint8Array,
): string[] {
  const lines = [countsLine(what, unit, d)];
  for (const s of d.onlyInASamples) lines.push(`  only in A: ${entryText(asEntry(s))}`);
  for (const s of d.onlyInBSamples) lines.push(`  only in B: ${entryText(asEntry(s))}`);
  for (const c of d.changedSamples) {
    lines.push(
      `  changed ${showKey(keyOf(c))} (${c.fields.join(", ")}):`,
      `    A: ${entryText(asEntry(c.a))}`,
      `    B: ${entryText(asEntry(c.b))}`,
    );
  }
  return lines;
}

/**
 * A table diff (`sstfilter diff A B`, the viewer's Diff) in words, one finding a line, the verdict
 * first. Range deletions only when a table has some (LevelDB's and most RocksDB tables have none).
 */
export function tableDiffLines(d: TableDiff): string[] {
  const lines = [d.equal ? "A and B are equal" : "A and B differ"];
  lines.push(
    ...mergedLines(
      "entries",
      ["entry", "entries"],
      d.entries,
      (e) => e,
      (c) => c.key,
    ),
  );
  const r = d.rangeDeletions;
  if (r.countA + r.countB > 0) {
    lines.push(
      ...mergedLines(
        "range deletions",
        ["range deletion", "range deletions"],
        r,
        rangeDeletionEntry,
        (c) => c.start,
      ),
    );
  }
  const p = d.physical;
  lines.push(p.equal ? "files: equal" : "files: differ");
  for (const f of p.fields) lines.push(`  ${fieldLine(f)}`);
  for (const name of p.properties.onlyInA) lines.push(`  property ${name}: only in A`);
  for (const name of p.properties.onlyInB) lines.push(`  property ${name}: only in B`);
  for (const c of p.properties.changed) {
    lines.push(`  property ${c.name}: ${propertyText(c.a)} in A, ${propertyText(c.b)} in B`);
  }
  if (p.filterBytes !== null) {
    lines.push(
      `  filter bytes: first differ in the 64-byte block at offset ${count(p.filterBytes.offset)} of filter part ${p.filterBytes.part}`,
    );
  }
  if (p.dataBlock !== null) {
    const at = (b: { offset: number; size: number } | null): string =>
      b === null ? "none" : `offset ${count(b.offset)} (${count(b.size)} bytes)`;
    lines.push(
      `  data block ${p.dataBlock.index} is the first whose contents differ: ${at(p.dataBlock.a)} in A, ${at(p.dataBlock.b)} in B`,
    );
  }
  return lines;
}
