// `sstfilter db inspect --json` lists the live files `ldb list_live_files_metadata` (rocksdb-tools
// 7.8.3) lists, column family by column family and level by level, in ldb's order (section
// db_live_files, over the databases of section db_get).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

import { sectionCases } from "./golden";
import { CLI } from "./cli-path";

interface LiveFilesCase {
  id: string;
  dir: string;
  ldb_db: string;
  text: string;
}

/** Per column family: each level's file names, and the blob files, as ldb printed them. */
interface Listing {
  name: string;
  levels: string[][];
  blobFiles: string[];
}

/** Parses ldb's listing; paths lose the `--db` folder they were printed under. */
function parseLdb(text: string, db: string): Listing[] {
  const families: Listing[] = [];
  let into: string[] | null = null;
  for (const line of text.split("\n")) {
    const family = /^===== Column Family: (.*) =====$/.exec(line);
    const level = /^---------- level (\d+) ----------$/.exec(line);
    const current = families[families.length - 1];
    if (family !== null) {
      families.push({ name: family[1]!, levels: [], blobFiles: [] });
      into = null;
    } else if (level !== null && current !== undefined) {
      expect(Number(level[1])).toBe(current.levels.length);
      into = [];
      current.levels.push(into);
    } else if (line === "Live Blob Files:" && current !== undefined) {
      into = current.blobFiles;
    } else if (line === "Live SST Files:" || /^-+$/.test(line) || line === "") {
      into = null;
    } else if (into !== null) {
      expect(line.startsWith(`${db}/`)).toBe(true);
      into.push(line.slice(db.length + 1));
    } else {
      throw new Error(`unexpected line in ldb's listing: ${JSON.stringify(line)}`);
    }
  }
  return families;
}

const CASES = sectionCases<LiveFilesCase>("db_live_files");

test("the corpus lists a database with several levels and one with several column families", () => {
  const listings = CASES.map((c) => parseLdb(readFileSync(c.corpus.path(c.text), "utf8"), c.ldb_db));
  expect(listings.some((l) => l[0]!.levels.filter((files) => files.length > 0).length >= 3)).toBe(true);
  expect(listings.some((l) => l.length >= 3)).toBe(true);
});

test.each(CASES.map((c) => ({ ...c, name: `${c.corpus.name}:${c.id}` })))(
  "$name: db inspect --json lists ldb's live files level by level",
  (c) => {
    const ldb = parseLdb(readFileSync(c.corpus.path(c.text), "utf8"), c.ldb_db);
    const r = spawnSync(process.execPath, [CLI, "db", "inspect", c.corpus.path(c.dir), "--json"], {
      encoding: "utf8",
    });
    expect([r.status, r.stderr]).toEqual([0, ""]);
    const out = JSON.parse(r.stdout) as {
      columnFamilies: {
        name: string;
        levels: { level: number; files: { name: string }[] }[];
        blobFiles: { number: string }[];
      }[];
    };
    const ours: Listing[] = out.columnFamilies.map((cf) => ({
      name: cf.name,
      // ldb prints levels 0 to 6 whether or not they hold files.
      levels: Array.from({ length: 7 }, (_, level) =>
        (cf.levels.find((l) => l.level === level)?.files ?? []).map((f) => f.name),
      ),
      blobFiles: cf.blobFiles.map((b) => `${b.number.padStart(6, "0")}.blob`),
    }));
    expect(ours).toEqual(ldb);
  },
);
