// Tables read where they lie (issue 32): a local node:http server serves corpus tables with Range
// support, and every answer read over HTTP (the facts inspect shows, probes of the corpus's probe
// keys, the entries scan prints, verify's report) equals the local file's. A server that ignores
// Range is RANGE_NOT_SUPPORTED; one that fails every third request gives the same answers thanks to
// the retries, one that always fails HTTP_ERROR after them; requests are counted.
import { execFile } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { promisify } from "node:util";

import { httpSource, verifyTable, type AsyncTable, type NodeSstFilter } from "sstfilter";

import { CLI } from "./cli-path";
import { GENERATED, sectionCases } from "./golden";
import { answerRange } from "./range-response";
import { withTestServer } from "./test-server";

/** How the test server answers: honouring Range, ignoring it, failing every third or every request. */
type Mode = "ranges" | "ignores-range" | "flaky" | "down";

/** How the server answers, the requests it has had and those it failed on purpose (503). */
const state = { requests: 0, failed: 0, mode: "ranges" as Mode };

/** A server of the corpus's files (the URL path is the file's path in the corpus). */
const server = withTestServer((request, response) => {
  state.requests++;
  const failing = state.mode === "down" || (state.mode === "flaky" && state.requests % 3 === 0);
  if (failing) {
    state.failed++;
    response.writeHead(503).end();
    return;
  }
  const bytes = readFileSync(GENERATED.path(decodeURIComponent(request.url!.slice(1))));
  answerRange(request, response, bytes, state.mode !== "ignores-range");
});
const urlOf = (file: string): string => `${server.origin}/${file}`;

/** What this test reads of a table case of the corpus (tests/corpus/README.md). */
interface TableCase {
  id: string;
  file: { path: string; bytes: number };
  probes: { path: string };
  internal_keys?: boolean;
}
const ROCKSDB = sectionCases<TableCase>("rocksdb_sst").filter((c) => c.corpus === GENERATED);
const LEVELDB = sectionCases<TableCase>("leveldb_table").filter((c) => c.corpus === GENERATED);
// Full and partitioned filters, a compression dictionary, LevelDB, and tables larger than the tail
// the first request brings (big_dec_*: 1.7 and 2.6 MB).
const CHOSEN = [
  "fv2_bloom10_crc32c",
  "fv5_bloom10_zstd_dict16k",
  "part_bloom10_mbs256",
  "big_dec_n200000_snappy",
];
const CASES = [
  ...ROCKSDB.filter((c) => CHOSEN.includes(c.id)).map((c) => ({ ...c, internalKeys: true })),
  ...LEVELDB.slice(0, 1).map((c) => ({ ...c, internalKeys: c.internal_keys !== false })),
].map((c) => [c.id, c] as const);

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await (await import("sstfilter")).init()) as NodeSstFilter;
});
beforeEach(() => {
  state.mode = "ranges";
});

test("the corpus yields the chosen cases", () => {
  expect(CASES.map(([id]) => id).sort()).toEqual([...CHOSEN, LEVELDB[0]!.id].sort());
});

/** What the reader answers about a table: inspect's facts, the probes, scan's lines, verify. */
async function answers(table: AsyncTable, probes: Uint8Array[]): Promise<unknown> {
  const explained = [];
  for (const key of probes) explained.push(await table.explainMayContain(key));
  const lines: Uint8Array[] = [];
  for await (const text of table.scanText()) lines.push(text.slice());
  const { format, order, footer, metaindex, properties, filter } = table;
  return {
    facts: { format, order, footer, metaindex, properties, filter },
    explained,
    scan: Buffer.concat(lines).toString("latin1"),
    verify: await verifyTable(table),
  };
}

describe("a table read over HTTP answers as the local file", () => {
  test.each(CASES)("%s", async (_id, c) => {
    const probes = GENERATED.readKeys(c.probes.path);
    expect(probes.length).toBeGreaterThan(0);
    const opts = { internalKeys: c.internalKeys };
    const local = await sf.openTableFile(GENERATED.path(c.file.path), opts);
    const remote = await sf.openTableFrom(urlOf(c.file.path), opts);
    try {
      expect(await answers(remote, probes)).toEqual(await answers(local, probes));
    } finally {
      local.dispose();
      remote.dispose();
    }
  });
});

describe("requests", () => {
  test("opening a table smaller than the tail costs one request, a larger one at most 3", async () => {
    for (const [id, c] of CASES) {
      const source = await httpSource(urlOf(c.file.path));
      const table = await sf.openTableFrom(source, { internalKeys: c.internalKeys });
      const most = c.file.bytes <= 512 << 10 ? 1 : 3;
      expect([id, source.stats.requests <= most]).toEqual([id, true]);
      expect([id, source.stats.bytes]).toEqual([id, Math.min(c.file.bytes, source.stats.bytes)]);
      table.dispose();
    }
  });

  test("a walk over a table larger than the tail shares its requests", async () => {
    const [, c] = CASES.find(([id]) => id === "big_dec_n200000_snappy")!;
    const source = await httpSource(urlOf(c.file.path));
    const table = await sf.openTableFrom(source);
    const opened = source.stats.requests;
    let keys = 0;
    for await (const batch of table.keyBatches()) keys += batch.offsets.length - 1;
    table.dispose();
    expect(keys).toBe(200000);
    // 2.6 MB of data blocks: read in 4 MiB windows, one request (two if the walk starts mid-way).
    expect(source.stats.requests - opened).toBeLessThanOrEqual(2);
    expect(source.stats.bytes).toBeLessThanOrEqual(c.file.bytes);
  });

  test("a range announced with expect() is one request, served a piece at a time", async () => {
    const [, c] = CASES.find(([id]) => id === "big_dec_n200000_snappy")!;
    const local = readFileSync(GENERATED.path(c.file.path));
    const source = await httpSource(urlOf(c.file.path));
    expect(source.size).toBe(statSync(GENERATED.path(c.file.path)).size);
    source.expect!(1000, 2 << 20);
    for (let at = 1000; at < 1000 + (2 << 20); at += 300000) {
      const length = Math.min(300000, 1000 + (2 << 20) - at);
      const got = await source.read(at, length);
      expect([at, Buffer.compare(got, local.subarray(at, at + length))]).toEqual([at, 0]);
    }
    expect(source.stats.requests).toBe(2);
  });
});

describe("servers that misbehave", () => {
  const file = (): string => CASES[0]![1].file.path;

  test("one that ignores Range: RANGE_NOT_SUPPORTED naming the URL, nothing downloaded", async () => {
    state.mode = "ignores-range";
    const url = urlOf(file());
    await expect(sf.openTableFrom(url)).rejects.toMatchObject({
      code: "RANGE_NOT_SUPPORTED",
      file: url,
      offset: 0,
      message: expect.stringMatching(/answered 200 with the whole file .*ignores Range/),
    });
  });

  test("one failing every third request: the same answers, thanks to the retries", async () => {
    // A table larger than the tail, so that opening and walking it take several requests.
    const [, c] = CASES.find(([id]) => id === "big_dec_n200000_snappy")!;
    const probes = GENERATED.readKeys(c.probes.path).slice(0, 500);
    const local = await sf.openTableFile(GENERATED.path(c.file.path));
    state.mode = "flaky";
    const before = state.requests;
    const failedBefore = state.failed;
    const source = await httpSource(urlOf(c.file.path));
    const remote = await sf.openTableFrom(source);
    const remoteAnswers = await answers(remote, probes);
    expect(remoteAnswers).toEqual(await answers(local, probes));
    expect(state.requests - before).toBe(source.stats.requests);
    expect(state.failed - failedBefore).toBeGreaterThan(0);
    local.dispose();
    remote.dispose();
  });

  test("one always failing: HTTP_ERROR after the bounded retries", async () => {
    state.mode = "down";
    const before = state.requests;
    await expect(sf.openTableFrom(urlOf(file()), { retries: 2 })).rejects.toMatchObject({
      code: "HTTP_ERROR",
      offset: 0,
      message: expect.stringContaining("HTTP 503 Service Unavailable (3 attempts)"),
    });
    expect(state.requests - before).toBe(3);
  });

  test("a 404 is not retried", async () => {
    const before = state.requests;
    state.mode = "down";
    const source = httpSource(urlOf(file()), {
      fetch: () => Promise.resolve(new Response(null, { status: 404, statusText: "Not Found" })),
    });
    await expect(source).rejects.toMatchObject({
      code: "HTTP_ERROR",
      message: expect.stringContaining("404"),
    });
    expect(state.requests).toBe(before);
  });
});

test("the CLI reads a URL as the file: inspect --json and verify --json, with --header", async () => {
  const c = CASES[0]![1];
  const run = async (...args: string[]): Promise<Record<string, unknown>> => {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, ...args]);
    const { file: _file, ...rest } = JSON.parse(stdout) as Record<string, unknown>;
    return rest;
  };
  for (const command of ["inspect", "verify"]) {
    const local = await run(command, "--json", GENERATED.path(c.file.path));
    const remote = await run(command, "--json", "--header", "X-Test: 1", urlOf(c.file.path));
    expect([command, remote]).toEqual([command, local]);
  }
});
