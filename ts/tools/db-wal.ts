// `sstfilter db inspect`'s WAL and OPTIONS parts: per live write-ahead log its records, batches,
// sequence range, records per kind and how it ended; the newest OPTIONS file's name and the
// options that decide how tables are read (docs/FORMATS.md 6.4, 6.5).
import type { Database } from "../api/db.js";
import { walFileName } from "../api/db-file-names.js";
import type { DatabaseOptions } from "../api/options-file.js";
import type { WalFile } from "../api/wal.js";
import { xidText, type ReplayStop, type WalRecovery } from "../api/wal-recovery.js";
import { count, plural } from "./format.js";

interface WalSummary {
  name: string;
  number: string;
  records: number;
  batches: number;
  /** The first and last records' sequence numbers; null without records. */
  firstSequence: string | null;
  lastSequence: string | null;
  kinds: Record<string, number>;
  markers: Record<string, number>;
  end: WalFile["end"];
  error: { code: string; message: string; offset: number | undefined } | null;
  /** What a read past damage (LevelDB's, RocksDB's skip-any) dropped; unlistedDrops beyond the list. */
  dropped: { offset: number; size: number; code: string; message: string }[];
  unlistedDrops: number;
  /** Where recovery's replay leaves this log before its end (RocksDB); null: read whole or unknown. */
  replayStopped: ReplayStop | null;
  /** The WAL its predecessor record names (track_and_verify_wals); null without one. */
  predecessor: { offset: number; number: string; size: string; lastSequence: string } | null;
}

function summarize(wal: WalFile, recovery: WalRecovery | null): WalSummary {
  const tally = (names: string[]): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const n of names) out[n] = (out[n] ?? 0) + 1;
    return out;
  };
  const first = wal.records[0];
  const last = wal.records[wal.records.length - 1];
  return {
    name: wal.name,
    number: wal.number.toString(),
    records: wal.records.length,
    batches: wal.batches.length,
    firstSequence: first === undefined ? null : first.sequence.toString(),
    lastSequence: last === undefined ? null : last.sequence.toString(),
    kinds: tally(wal.records.map((r) => r.kind)),
    markers: tally(wal.batches.flatMap((b) => b.markers.map((m) => m.kind))),
    end: wal.end,
    error:
      wal.error === null
        ? null
        : { code: wal.error.code, message: wal.error.message, offset: wal.error.offset },
    dropped: wal.dropped.map((d) => ({
      offset: d.offset,
      size: d.size,
      code: d.error.code,
      message: d.error.message,
    })),
    unlistedDrops: wal.unlistedDrops,
    replayStopped: recovery?.logs.find((l) => l.name === wal.name)?.stopped ?? null,
    predecessor:
      wal.predecessor === null
        ? null
        : {
            offset: wal.predecessor.offset,
            number: wal.predecessor.number.toString(),
            size: wal.predecessor.size.toString(),
            lastSequence: wal.predecessor.lastSequence.toString(),
          },
  };
}

/** The options a reader of the tables most often asks about, per column family. */
const KEY_OPTIONS = ["comparator", "merge_operator", "prefix_extractor", "compression"] as const;
const KEY_TABLE_OPTIONS = ["filter_policy", "format_version"] as const;

interface OptionsPart {
  json: unknown;
  text: string[];
}

function optionsPart(options: DatabaseOptions | null, error: unknown): OptionsPart {
  if (error !== undefined) {
    const message = error instanceof Error ? error.message : String(error);
    return { json: { error: message }, text: [`options: ${message}`] };
  }
  if (options === null) return { json: null, text: [] };
  const text = [`options: ${options.file} (RocksDB ${options.version.rocksdb_version ?? "?"})`];
  for (const cf of options.columnFamilies) {
    const picked: string[] = [];
    for (const k of KEY_OPTIONS) if (cf.options[k] !== undefined) picked.push(`${k}=${cf.options[k]}`);
    for (const k of KEY_TABLE_OPTIONS) {
      if (cf.tableOptions[k] !== undefined) picked.push(`${k}=${cf.tableOptions[k]}`);
    }
    text.push(`  ${cf.name}: ${picked.join(", ")}`);
  }
  return { json: options, text };
}

function walText(w: WalSummary): string {
  const seqs = w.firstSequence === null ? "" : `, seq ${w.firstSequence}..${w.lastSequence}`;
  const kinds = Object.entries(w.kinds)
    .map(([k, n]) => `${k} ${count(n)}`)
    .join(", ");
  const markers = Object.entries(w.markers)
    .map(([k, n]) => `${k} ${count(n)}`)
    .join(", ");
  const end =
    w.end.kind === "clean" ? "clean end" : `${w.end.kind} at byte ${count(w.end.offset)}: ${w.end.what}`;
  const first = w.dropped[0];
  const dropped =
    first === undefined
      ? ""
      : `; recovery reads past ${plural(w.dropped.length + w.unlistedDrops, "damaged region")} ` +
        `(${count(w.dropped.reduce((n, d) => n + d.size, 0))} bytes` +
        `${w.unlistedDrops > 0 ? ` in the ${count(w.dropped.length)} listed` : ""}, the first at byte ${count(first.offset)}: ${first.code})`;
  const stop = w.replayStopped;
  const replay =
    stop === null || stop.reason === "damage"
      ? ""
      : `; recovery drops it from byte ${count(stop.offset)} on: ${stop.what}`;
  const p = w.predecessor;
  const predecessor =
    p === null
      ? ""
      : `; follows ${walFileName(BigInt(p.number))} (${count(BigInt(p.size))} bytes, last batch seq ${p.lastSequence})`;
  return (
    `  ${w.name}: ${plural(w.records, "record")} in ${count(w.batches)} ${w.batches === 1 ? "batch" : "batches"}${seqs}` +
    `${kinds === "" ? "" : ` (${kinds})`}${markers === "" ? "" : `, markers: ${markers}`}${predecessor}; ${end}${dropped}${replay}`
  );
}

/**
 * The transactions recovery leaves prepared (docs/FORMATS.md 6.4), or why recovery cannot replay
 * the logs (a database that does not open, a log this reader cannot decode).
 */
function preparedPart(recovery: WalRecovery | Error): OptionsPart {
  if (recovery instanceof Error) {
    return { json: { error: recovery.message }, text: [`  recovery: ${recovery.message}`] };
  }
  const list = recovery.preparedUncommitted.map((t) => ({
    xid: xidText(t.xid),
    log: t.log,
    offset: t.offset,
    records: t.records.length,
  }));
  return {
    json: list,
    text: list.map(
      (t) =>
        `  prepared, not committed: ${t.xid} (${plural(t.records, "record")}) in ${t.log} at byte ${count(t.offset)}`,
    ),
  };
}

/** The WAL and OPTIONS parts of `db inspect`, as JSON fields and text lines. */
export async function walAndOptions(db: Database): Promise<{ json: Record<string, unknown>; text: string }> {
  const recovery = await db
    .recoverLogs()
    .catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
  const wals = (await db.writeAheadLogs()).map((w) =>
    summarize(w, recovery instanceof Error ? null : recovery),
  );
  const prepared = preparedPart(recovery);
  let options: DatabaseOptions | null = null;
  let error: unknown;
  try {
    options = await db.options();
  } catch (e) {
    error = e;
  }
  const part = optionsPart(options, error);
  const settings = await db.recoverySettings();
  const how =
    settings.mode === null
      ? "read past damage, as LevelDB recovers"
      : `recovered as ${settings.mode}${settings.paranoidChecks ? "" : " with paranoid_checks=false"} would`;
  const lines = [
    wals.length === 0
      ? "write-ahead logs: none live"
      : `write-ahead logs: ${plural(wals.length, "live log")} (${how})`,
    ...wals.map(walText),
    ...prepared.text,
    ...part.text,
  ];
  return {
    json: { wal: wals, walRecovery: settings, preparedUncommitted: prepared.json, options: part.json },
    text: lines.join("\n") + "\n",
  };
}
