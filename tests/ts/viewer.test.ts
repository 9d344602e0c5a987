// The SST viewer in a real browser: Debian's Chromium, headless, driven by playwright-core (whose
// own browser download cannot work here). Starts demo/serve.mjs on a free port, opens a golden
// .sst through the file picker, checks what the page shows and one probe answer each way, verifies
// the file, shows a damaged file's typed error, and saves a screenshot to build/viewer.png. Then
// opens a table RocksDB wrote with puts, deletes, merges and range deletions and checks its
// contents view, range deletions and file map against the library's own answers in Node (pages,
// seeks, clicks on the map), saving build/viewer-contents.png.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import type { Page } from "playwright-core";
import type { Entry, NodeSstFilter, Table, TableRegion } from "sstfilter";

import { filterAdvice } from "sstfilter";
import { loadBackend } from "./backends";
import { FIXTURES, GENERATED } from "./golden";
import { JSON_TABLE_VALUES, writeJsonTable, writeLargeTable, writeMixedTable } from "./mixed-table";
import { expectOnlyLocalRequests, openViewer, ROOT, type Viewer } from "./viewer-browser";

const FILE = FIXTURES.path("head/fv7-bloom10-part-decoupled-snappy.sst");

let viewer: Viewer;
let page: Page;
let requests: string[];

beforeAll(async () => {
  viewer = await openViewer();
  ({ page, requests } = viewer);
}, 60_000);

afterAll(() => viewer?.close());

test("the page loads the SIMD128 module in its worker", async () => {
  expect(await page.textContent("#backend")).toBe("wasm-simd128");
});

test("a golden .sst opened with the file picker: format, footer, properties, filter", async () => {
  await page.setInputFiles("#file", FILE);
  await page.waitForSelector("#status.ok");
  expect(await page.textContent("#file-name")).toBe(path.basename(FILE));
  const format = await page.textContent("#format-facts");
  expect(format).toContain("RocksDB block-based table");
  expect(format).toContain("format_version7");
  expect(format).toContain("checksumxxh3");
  const filter = await page.textContent("#filter-facts");
  expect(filter).toContain("kindrocksdb-bloom");
  expect(filter).toContain("partitioned, 21 partitions");
  expect(filter).toContain("keys15,000");
  expect(filter).toContain("probes6");
  expect(await page.textContent("#fp")).toMatch(/estimated0\.\d\d%.*measured0\.\d\d%/);
  const entries = page.locator("#props-body tr", { hasText: "rocksdb.num.entries" });
  expect(await entries.locator("td").textContent()).toBe("15000");
  expect(await page.locator("#entries-body tr").count()).toBe(100);
  expect(await page.locator("#entries-body tr td.key").first().textContent()).toBe("1000097423");
});

test("a probe each way, naming the partition consulted", async () => {
  await page.fill("#probe-key", "1000097423");
  await page.click("#probe-form button[type=submit]");
  await page.waitForSelector("#probe-result .verdict.maybe");
  expect(await page.textContent("#probe-result")).toContain(
    "may be in this fileanswered by filter partition 0 of 21",
  );

  await page.fill("#probe-key", "no-such-key");
  await page.click("#probe-form button[type=submit]");
  await page.waitForSelector("#probe-result .verdict.no");
  expect(await page.textContent("#probe-result")).toContain("definitely not in this file");
  expect(await page.textContent("#probe-result")).toContain("filter partition 20 of 21");
});

test("verify reads every block with a progress bar; a screenshot for the README", async () => {
  await page.click("#verify");
  await page.waitForSelector("#verify-result:not([hidden])");
  expect(await page.textContent("#verify-result")).toContain("the file is sound");
  expect(await page.textContent("#verify-result")).toContain("15,000 keys read");
  expect(await page.getAttribute("#verify-bar", "style")).toContain("width: 100%");
  mkdirSync(path.join(ROOT, "build"), { recursive: true });
  // From the top (the header is sticky), down to the key list.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({
    path: path.join(ROOT, "build", "viewer.png"),
    fullPage: true,
    clip: { x: 0, y: 0, width: 1280, height: 1480 },
  });
});

test("filter advice: curves per policy and the smallest filter meeting the target, as filterAdvice answers in Node", async () => {
  const sf = (await loadBackend(true)) as NodeSstFilter;
  const table = await sf.openTableFile(FILE);
  // The worker's options (demo/worker/table-ops.mjs): the same seed, the same advice.
  const advice = await filterAdvice(sf, table, { fpRate: 0.02, sample: 200_000, absentKeys: 20_000 });
  table.dispose();
  const best = advice.sets[0]!.best!;
  await page.fill("#advice-rate", "0.02");
  await page.click("#advice");
  await page.waitForSelector("#advice-result:not([hidden])");
  const text = await page.textContent("#advice-result");
  expect(text).toContain("Whole keys: 15,000; 20,000 absent keys per filter");
  expect(text).toContain(
    `Smallest meeting 2.00%: ${best.policy} at ${best.bitsPerKey} bits/key, ${best.bytes.toLocaleString("en-US")} bytes`,
  );
  // A measured and an estimated curve per policy.
  expect(await page.locator("#advice-result svg polyline").count()).toBe(8);
});

test("verify on two workers: the same report; a damaged data block in the second half named at its offset", async () => {
  const workers = (): number => requests.filter((url) => url.endsWith("/worker.mjs")).length;
  const workersBefore = workers();
  await page.selectOption("#verify-jobs", "2");
  await page.click("#verify");
  await page.waitForSelector("#verify-result:not([hidden])");
  // The second range ran in a worker of its own.
  expect(workers()).toBe(workersBefore + 1);
  const sound = await page.textContent("#verify-result");
  expect(sound).toContain("the file is sound");
  expect(sound).toContain("15,000 keys read");
  expect(sound).toContain("every key read passes the filter");
  expect(await page.getAttribute("#verify-bar", "style")).toContain("width: 100%");
  // A second Verify of the same table runs on the same worker, which kept its copy of the table.
  await page.click("#verify");
  await page.waitForSelector("#verify:not([disabled])");
  await page.waitForSelector("#verify-result:not([hidden])");
  expect(workers()).toBe(workersBefore + 1);
  expect(await page.textContent("#verify-result")).toBe(sound);

  // The block is found by the library in Node; the second worker's range holds it.
  const sf = (await loadBackend(true)) as NodeSstFilter;
  const bytes = FIXTURES.readBytes("head/fv7-bloom10-part-decoupled-snappy.sst");
  const t = sf.openTable(bytes);
  const data = t.layout().filter((r) => r.kind === "data");
  t.dispose();
  const block = data[Math.floor(data.length * 0.75)]!;
  bytes[block.offset + 1]! ^= 0xff;
  const damaged = path.join(mkdtempSync(path.join(tmpdir(), "sstfilter-viewer-")), "block.sst");
  writeFileSync(damaged, bytes);
  await page.setInputFiles("#file", damaged);
  await page.waitForFunction(() => document.getElementById("file-name")!.textContent === "block.sst");
  await page.waitForSelector("#status.ok");
  await page.selectOption("#verify-jobs", "2");
  await page.click("#verify");
  await page.waitForSelector("#verify-result:not([hidden])");
  const text = await page.textContent("#verify-result");
  expect(text).toContain("the file is corrupt");
  expect(text).toContain(`(at byte ${block.offset})`);
  await page.selectOption("#verify-jobs", "");
});

test("a damaged file shows the typed error and its offset", async () => {
  const damaged = path.join(mkdtempSync(path.join(tmpdir(), "sstfilter-viewer-")), "damaged.sst");
  const bytes = FIXTURES.readBytes("head/fv7-bloom10-part-decoupled-snappy.sst");
  bytes[bytes.length - 30]! ^= 0xff; // inside the footer's handles / checksum
  writeFileSync(damaged, bytes);
  await page.setInputFiles("#file", damaged);
  await page.waitForSelector("#error:not([hidden])");
  expect(await page.textContent("#error")).toMatch(
    /^(CORRUPT|CHECKSUM_MISMATCH|TRUNCATED) at byte [\d,]+ — damaged\.sst: /,
  );
  expect(await page.isHidden("#table")).toBe(true);
});

describe("a table RocksDB wrote with puts, deletes, merges and range deletions", () => {
  let sf: NodeSstFilter;
  let dir: string;
  let file: string;
  let t: Table;
  let entries: Entry[];
  beforeAll(async () => {
    sf = (await loadBackend(true)) as NodeSstFilter;
    dir = mkdtempSync(path.join(tmpdir(), "sstfilter-viewer-mixed-"));
    file = writeMixedTable(dir);
    t = sf.openTable(new Uint8Array(readFileSync(file)));
    entries = [...t.entries()];
    await page.setInputFiles("#file", file);
    await page.waitForSelector("#status.ok");
    await page.waitForSelector("#map-caption[data-blocks]");
    // Keys and values in hex, as Node's Buffer prints them.
    await page.selectOption("#keys-mode", "hex");
    await page.selectOption("#values-mode", "hex");
  }, 60_000);
  afterAll(() => {
    t?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

  /** The rows of the contents view as [key, seq, type, value] texts. */
  async function shownRows(): Promise<string[][]> {
    return page.$$eval("#entries-body tr", (rows) =>
      rows.map((row) => {
        const cells = row.querySelectorAll("td");
        const value = cells[4]!.querySelector("span")?.textContent ?? "";
        return [cells[1]!.textContent!, cells[2]!.textContent!, cells[3]!.textContent!, value];
      }),
    );
  }

  /** What the view must show for `list` (keys, values in hex; values of deletions empty). */
  function expectedRows(list: Entry[]): string[][] {
    return list.map((e) => [hex(e.key), String(e.seq), e.type!, e.value.length === 0 ? "" : hex(e.value)]);
  }

  test("the corpus table holds every kind the view shows", () => {
    const types = new Set(entries.map((e) => e.type));
    expect([...types].sort()).toEqual(["delete", "merge", "put"]);
    expect(t.rangeDeletions().length).toBeGreaterThan(0);
  });

  test("entries page by page: key, seq, type badge, value, as t.entries() gives them", async () => {
    expect(await shownRows()).toEqual(expectedRows(entries.slice(0, 100)));
    expect(await page.textContent("#entries-caption")).toBe(
      `${entries.length.toLocaleString("en-US")} entries, in file order`,
    );
    await page.click("#entries-next");
    await page.waitForFunction(() =>
      document.getElementById("entries-page")!.textContent!.startsWith("page 2"),
    );
    expect(await shownRows()).toEqual(expectedRows(entries.slice(100, 200)));
    await page.click("#entries-prev");
    await page.waitForFunction(() =>
      document.getElementById("entries-page")!.textContent!.startsWith("page 1"),
    );
    expect(await shownRows()).toEqual(expectedRows(entries.slice(0, 100)));
    // The badges name each type.
    const badges = await page.$$eval("#entries-body .badge", (b) => b.map((x) => x.className));
    expect(badges.length).toBe(100);
    expect(badges.every((c) => /^badge type-(put|delete|merge)$/.test(c))).toBe(true);
  });

  test("a prefix seek (hex) shows what t.entries({ prefix }) gives", async () => {
    const prefix = entries[entries.length >> 1]!.key.subarray(0, 6);
    await page.selectOption("#seek-kind", "prefix");
    await page.fill("#seek-key", hex(prefix));
    await page.selectOption("#seek-mode", "hex");
    await page.click("#seek-form button[type=submit]");
    await page.waitForFunction(() =>
      document.getElementById("entries-caption")!.textContent!.startsWith("keys with"),
    );
    const expected = [...t.entries({ prefix })];
    expect(expected.length).toBeGreaterThan(0);
    expect(await shownRows()).toEqual(expectedRows(expected.slice(0, 100)));
    await page.click("#seek-clear");
    await page.waitForFunction(() =>
      document.getElementById("entries-caption")!.textContent!.endsWith("in file order"),
    );
  });

  test("range deletions: start, end, seq as t.rangeDeletions() gives them", async () => {
    const deletions = t.rangeDeletions();
    const shown = await page.$$eval("#range-dels-body tr", (rows) =>
      rows.map((row) =>
        Array.from(row.querySelectorAll("td"))
          .slice(1)
          .map((td) => td.textContent),
      ),
    );
    expect(shown).toEqual(deletions.map((d) => [hex(d.start), hex(d.end), String(d.seq)]));
    expect(await page.isVisible("#range-dels")).toBe(true);
  });

  test("the file map lists the blocks t.layout() lists; a click on a data block shows its entries", async () => {
    const layout = t.layout();
    const blocks = layout.filter((r) => r.trailerSize > 0);
    expect(await page.getAttribute("#map-caption", "data-blocks")).toBe(String(blocks.length));
    const dataRow = page.locator("#regions-body tr[data-kind=data]");
    const data = layout.filter((r) => r.kind === "data");
    expect(await dataRow.locator("td").nth(1).textContent()).toBe(String(data.length));
    expect(await page.locator("#regions-body tr[data-kind=range-del]").count()).toBe(1);

    // Each data block's first entry is the one after the entries of the blocks before it.
    const firsts: number[] = [];
    let before = 0;
    for (const block of t.dataBlocks()) {
      firsts.push(before);
      before += block.keys.length;
    }
    const fileSize = readFileSync(file).length;
    const box = (await page.locator("#map").boundingBox())!;
    for (const i of [0, data.length >> 1, data.length - 1]) {
      const r = data[i]!;
      const x = ((r.offset + (r.size + r.trailerSize) / 2) / fileSize) * box.width;
      await page.click("#map", { position: { x, y: 20 } });
      await page.waitForFunction(
        (offset) => document.getElementById("entries-caption")!.textContent === `from data block @ ${offset}`,
        r.offset.toLocaleString("en-US"),
      );
      expect([i, await shownRows()]).toEqual([i, expectedRows(entries.slice(firsts[i], firsts[i]! + 100))]);
    }
  });

  test("the index list shows each data block's separator; the properties region leads to the properties", async () => {
    await page.click("#regions-body tr[data-kind=index]");
    await page.waitForSelector("#index-card:not([hidden])");
    const data = t.layout().filter((r) => r.kind === "data");
    const separators = await page.$$eval("#index-body tr td.key", (cells) => cells.map((c) => c.textContent));
    expect(separators).toEqual(data.slice(0, 100).map((r) => hex(r.separator!)));
    await page.click("#regions-body tr[data-kind=properties]");
    await page.waitForSelector("#props-card.flash");
    const inView = await page.$eval("#props-card", (card) => {
      const { top } = card.getBoundingClientRect();
      return top >= 0 && top < window.innerHeight;
    });
    expect(inView).toBe(true);
  });

  /** Bytes as the text view shows them: printable ASCII as text, else hex ("" when empty). */
  const shownAsText = (bytes: Uint8Array): string =>
    bytes.every((b) => b >= 0x20 && b < 0x7f) ? Buffer.from(bytes).toString("latin1") : hex(bytes);

  test("a screenshot of the map and the contents, as text", async () => {
    await page.click("#seek-clear");
    await page.waitForFunction(() =>
      document.getElementById("entries-caption")!.textContent!.endsWith("in file order"),
    );
    await page.selectOption("#keys-mode", "utf8");
    await page.selectOption("#values-mode", "utf8");
    // db_bench's keys hold zero bytes (hex still); its values are printable (text); merge
    // operands are uint64add's fixed64 numbers (hex).
    const rows = await shownRows();
    expect(rows).toEqual(
      entries.slice(0, 100).map((e) => [shownAsText(e.key), String(e.seq), e.type!, shownAsText(e.value)]),
    );
    expect(rows.filter((r) => r[2] === "put" && !/^[0-9a-f]+$/.test(r[3]!)).length).toBeGreaterThan(0);
    // The map: the regions t.layout() lists, runs of unnamed regions of a kind grouped; the
    // canvas drawn (more than one colour).
    const kinds: string[] = [];
    let previous: TableRegion | undefined;
    for (const r of t.layout()) {
      if (previous?.kind !== r.kind || r.name !== undefined || previous.name !== undefined)
        kinds.push(r.kind);
      previous = r;
    }
    expect(await page.$$eval("#regions-body tr", (trs) => trs.map((tr) => tr.dataset.kind))).toEqual(kinds);
    const colours = await page.$eval("#map", (canvas) => {
      const c = canvas as HTMLCanvasElement;
      const pixels = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < pixels.length; i += 4) seen.add(new DataView(pixels.buffer).getUint32(i));
      return seen.size;
    });
    expect(colours).toBeGreaterThan(1);
    await page.evaluate(() => window.scrollTo(0, 0));
    const shot = path.join(ROOT, "build", "viewer-contents.png");
    rmSync(shot, { force: true });
    await page.screenshot({
      path: shot,
      fullPage: true,
      clip: { x: 0, y: 0, width: 1280, height: 1400 },
    });
    // A PNG of the clip's size (IHDR: width, height at bytes 16 and 20), not a blank one.
    const png = readFileSync(shot);
    expect([png.subarray(1, 4).toString("latin1"), png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([
      "PNG",
      1280,
      1400,
    ]);
    expect(png.length).toBeGreaterThan(50_000);
  });

  /** Opens `file` with the page's file picker and waits until it is shown. */
  async function open(file: string): Promise<void> {
    // Files of the same name follow each other: the name shows again once this one opens.
    await page.evaluate(() => (document.getElementById("file-name")!.textContent = ""));
    await page.setInputFiles("#file", file);
    await page.waitForFunction(
      (name) =>
        document.getElementById("file-name")!.textContent === name &&
        document.querySelector("#status.ok") !== null &&
        document.querySelectorAll("#entries-body tr").length > 0,
      path.basename(file),
    );
  }

  test("a table of bare user keys shows no seq or type; a timestamp table shows each entry's timestamp", async () => {
    await page.selectOption("#keys-mode", "hex");
    const userKeys = GENERATED.find<{ id: string; file: { path: string } }>("leveldb_table", "tb_b10_bs1024");
    const userKeysFile = GENERATED.path(userKeys.file.path);
    await page.check("#user-keys");
    await open(userKeysFile);
    {
      using plain = sf.openTable(new Uint8Array(readFileSync(userKeysFile)), { internalKeys: false });
      const first = [...plain.entries({ limit: 3 })];
      const rows = await page.$$eval("#entries-body tr", (trs) =>
        trs.slice(0, 3).map((tr) =>
          Array.from(tr.querySelectorAll("td"))
            .slice(1, 4)
            .map((td) => td.textContent),
        ),
      );
      expect(rows).toEqual(first.map((e) => [hex(e.key), "—", "—"]));
    }
    await page.uncheck("#user-keys");
    const stamped = GENERATED.find<{ id: string; file: { path: string } }>(
      "rocksdb_timestamp",
      "ts_sst_bloom",
    );
    const stampedFile = GENERATED.path(stamped.file.path);
    await open(stampedFile);
    expect(await page.isVisible("#timestamp-head")).toBe(true);
    using ts = sf.openTable(new Uint8Array(readFileSync(stampedFile)));
    const first = [...ts.entries({ limit: 3 })];
    const rows = await page.$$eval("#entries-body tr", (trs) =>
      trs.slice(0, 3).map((tr) =>
        Array.from(tr.querySelectorAll("td"))
          .slice(1, 4)
          .map((td) => td.textContent),
      ),
    );
    expect(rows).toEqual(
      first.map((e) => [hex(e.key), Buffer.from(e.timestamp!).readBigUInt64LE().toString(), String(e.seq)]),
    );
  });

  test("the contents view and the map read the blocks they show, not the whole file", async () => {
    const largeFile = writeLargeTable(path.join(dir, "large"));
    const size = readFileSync(largeFile).length;
    // The worker reads the File through Blob.slice: count the bytes it asks for.
    const [worker] = page.workers();
    await worker!.evaluate(() => {
      const scope = globalThis as unknown as { sliced: number };
      scope.sliced = 0;
      const slice = Blob.prototype.slice;
      Blob.prototype.slice = function (this: Blob, start?: number, end?: number, type?: string) {
        scope.sliced += (end ?? this.size) - (start ?? 0);
        return slice.call(this, start, end, type);
      };
    });
    await open(largeFile);
    await page.waitForSelector("#map-caption[data-blocks]");
    await page.click("#entries-next");
    await page.waitForFunction(() =>
      document.getElementById("entries-page")!.textContent!.startsWith("page 2"),
    );
    const box = (await page.locator("#map").boundingBox())!;
    await page.click("#map", { position: { x: box.width * 0.6, y: 20 } });
    await page.waitForFunction(() =>
      document.getElementById("entries-caption")!.textContent!.startsWith("from data block"),
    );
    const sliced = await worker!.evaluate(() => (globalThis as unknown as { sliced: number }).sliced);
    console.log(`[viewer] ${sliced} of ${size} bytes read for two pages, the map and a data block's entries`);
    expect(sliced).toBeLessThan(size / 8);
  });

  test("blob indexes and wide-column entities show decoded, as sf.decodeBlobIndex / decodeWideColumns give them", async () => {
    await page.selectOption("#keys-mode", "hex");
    await page.selectOption("#values-mode", "hex");
    // Long values show their first 160 characters inline.
    const inline = (text: string): string => (text.length > 160 ? `${text.slice(0, 160)}…` : text);
    let decoded = 0;
    for (const id of ["blob_db_snappy", "blob_crafted", "entities"]) {
      const c = GENERATED.find<{ id: string; file: { path: string } }>("rocksdb_values", id);
      const file = GENERATED.path(c.file.path);
      await open(file);
      using values = sf.openTable(new Uint8Array(readFileSync(file)));
      const shown = await page.$$eval("#entries-body tr", (trs) =>
        trs.map((tr) => {
          const cell = tr.querySelectorAll("td")[4]!;
          const columns = Array.from(cell.querySelectorAll(".column"), (column) =>
            Array.from(column.querySelectorAll("span"), (span) => span.textContent),
          );
          return { columns, text: cell.textContent! };
        }),
      );
      [...values.entries({ limit: 100 })].forEach((e, i) => {
        if (e.type === "wide-column-entity") {
          // The first 16 columns show.
          const columns = sf
            .decodeWideColumns(e.value)
            .slice(0, 16)
            .map((column) => [
              column.name.length === 0 ? "(default)" : hex(column.name),
              column.blobIndex ? `blob file ${column.blobIndex.fileNumber}` : inline(hex(column.value)),
            ]);
          const got = shown[i]!.columns.map(([name, value]) => [
            name,
            value!.startsWith("blob file") ? value!.replace(/ @.*/, "") : value,
          ]);
          expect([id, i, got]).toEqual([id, i, columns]);
          decoded++;
        } else if (e.type === "blob-index") {
          let expected: string;
          try {
            const blob = sf.decodeBlobIndex(e.value);
            expected = blob.type === "inlined-ttl" ? "inlined: " : `blob file ${blob.fileNumber} @ `;
          } catch (error) {
            expected = `does not decode: ${(error as { code: string }).code}`;
          }
          expect([id, i, shown[i]!.text]).toEqual([id, i, expect.stringContaining(expected)]);
          decoded++;
        }
      });
    }
    console.log(`[viewer] ${decoded} blob indexes and entities shown decoded`);
    expect(decoded).toBeGreaterThan(0);
  });

  test("values as JSON: pretty-printed where they parse, as text where not", async () => {
    const jsonFile = writeJsonTable(path.join(dir, "json"));
    await page.selectOption("#keys-mode", "utf8");
    await page.selectOption("#values-mode", "json");
    await open(jsonFile);
    const rows = await page.$$eval("#entries-body tr", (trs) =>
      trs.map((tr) => {
        const cells = tr.querySelectorAll("td");
        return [cells[1]!.textContent, cells[4]!.className, cells[4]!.querySelector("span")!.textContent];
      }),
    );
    expect(rows).toEqual(
      Object.entries(JSON_TABLE_VALUES).map(([key, value]) => {
        try {
          return [key, "value json", JSON.stringify(JSON.parse(value), null, 2)];
        } catch {
          return [key, "value", value];
        }
      }),
    );
  });
});

test("the playground writes a table from pasted lines and opens it", async () => {
  await page.click("#tab-playground");
  await page.fill("#write-lines", "cherry\tdark red\napple\tred\nbanana\tyellow\n");
  await page.click("#write");
  await page.waitForSelector("#write-download:not([hidden])");
  expect(await page.textContent("#written-facts")).toContain("entries3");
  expect(await page.getAttribute("#write-download", "download")).toBe("written.sst");
  await page.click("#write-open");
  await page.waitForSelector("#status.ok");
  expect(await page.textContent("#file-name")).toBe("written.sst");
  expect(await page.textContent("#format-facts")).toContain("format_version5");
  expect(await page.textContent("#filter-facts")).toContain("kindrocksdb-bloom");
  await page.selectOption("#keys-mode", "utf8");
  // The entries of the table shown before stay until the new table's first page is drawn (a
  // loaded machine drew it after the status turned ok): wait for it, then compare.
  const written = ["apple", "banana", "cherry"];
  const shownKeys = (): Promise<(string | null)[]> =>
    page.$$eval("#entries-body tr", (rows) => rows.map((row) => row.querySelectorAll("td")[1]!.textContent));
  await page
    .waitForFunction(
      (want) =>
        Array.from(document.querySelectorAll("#entries-body tr"))
          .map((row) => row.querySelectorAll("td")[1]?.textContent)
          .join("\n") === want,
      written.join("\n"),
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  expect(await shownKeys()).toEqual(written);

  // Keys out of order without sorting: BAD_KEY naming the entry.
  await page.click("#tab-playground");
  await page.uncheck("#write-sort");
  await page.click("#write");
  await page.waitForSelector("#error:not([hidden])");
  expect(await page.textContent("#error")).toMatch(/^BAD_KEY .*entry 1/);
});

test("nothing was fetched from outside the machine", () => expectOnlyLocalRequests(requests));
