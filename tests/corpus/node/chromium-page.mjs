// @ts-check
// The page that tests/corpus/node/chromium.mjs serves to Chromium: it writes IndexedDB,
// localStorage and sessionStorage in two browser starts (start1, start2); reading everything back
// through the web APIs (readIndexedDB, readStorage), with keys and values in the tagged JSON of
// tests/corpus/README.md (section chromium_stores), is chromium-page-read.mjs, which chromium.mjs
// serves next to it. Runs in the browser only.

import { open, readIndexedDB, readStorage } from "./chromium-page-read.mjs";

/** A small deterministic generator (mulberry32), so that every run writes the same data. */
function prng(/** @type {number} */ seed) {
  let a = seed >>> 0;
  return (/** @type {number} */ n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n) >>> 0;
  };
}

/** Bytes from the generator: incompressible data. */
function randomBytes(/** @type {(n: number) => number} */ rng, /** @type {number} */ n) {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = rng(256);
  return out;
}

const WORDS = ["alpha", "βeta", "gamma", "дельта", "epsilon", "ζήτα", "数据", "キー", "😀", "naïve", "x"];

/** A text of `n` to `m` characters drawn from WORDS (Latin-1 and two-byte strings). */
function text(/** @type {(n: number) => number} */ rng, /** @type {number} */ n, /** @type {number} */ m) {
  const target = n + rng(m - n + 1);
  let s = "";
  while (s.length < target) s += WORDS[rng(WORDS.length)] + " ";
  s = s.slice(0, target);
  return /[\ud800-\udbff]$/.test(s) ? s.slice(0, -1) : s; // no emoji cut in half
}

/** A Latin-1 text of `n` to `m` characters. */
function latin(/** @type {(n: number) => number} */ rng, /** @type {number} */ n, /** @type {number} */ m) {
  const target = n + rng(m - n + 1);
  let s = "";
  while (s.length < target) s += String.fromCharCode(0x20 + rng(0x5f)) + (rng(9) === 0 ? "é" : "");
  return s.slice(0, target);
}

/** Resolves with the request's result, rejects with its error. @template T */
function done(/** @type {IDBRequest<T>} */ request) {
  return /** @type {Promise<T>} */ (
    new Promise((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    })
  );
}

/** Resolves once the transaction commits. */
function committed(/** @type {IDBTransaction} */ tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve(undefined);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("transaction aborted"));
  });
}

/**
 * Runs `body` in a readwrite transaction over `stores` and waits for the commit.
 * @param {IDBDatabase} db
 * @param {string[]} stores
 * @param {(tx: IDBTransaction) => void} body
 */
async function write(db, stores, body) {
  const tx = db.transaction(stores, "readwrite", { durability: "strict" });
  body(tx);
  await committed(tx);
}

/** Keys of every IndexedDB key type. */
function everyKey() {
  /** @type {any[]} */
  const keys = [
    0,
    1,
    -1,
    0.5,
    -0.25,
    3.141592653589793,
    1e-300,
    -1e300,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_VALUE,
    Number.MAX_VALUE,
    2 ** 53 + 2,
    Infinity,
    -Infinity,
    new Date(0),
    new Date(-86400000),
    new Date(Date.UTC(2024, 1, 29, 12, 30, 15, 250)),
    new Date(8.64e15),
    "",
    "a",
    "A",
    "ab",
    "a\u0000b",
    "é",
    "naïve",
    "Ω",
    "數據庫",
    "キー",
    "😀",
    "\u{10ffff}",
    "\ud800",
    "x".repeat(300),
    new Uint8Array([]).buffer,
    new Uint8Array([0]).buffer,
    new Uint8Array([0, 1, 2, 255]).buffer,
    new Uint8Array([255, 255]),
    new Uint8Array(64).fill(7),
    [],
    [0],
    [1, "one"],
    [[], [[]]],
    ["nested", [1, [2, [3, "deep"]]]],
    [new Date(1), new Uint8Array([9]).buffer, "s", -5],
  ];
  return keys;
}

/** Values of every structured-clone type (and a Blob and a File). */
function everyValue() {
  /** @type {any[]} */
  const sparse = [1, 2];
  sparse[10] = "ten";
  const holes = [1, , 3]; // eslint-disable-line no-sparse-arrays
  const withProps = Object.assign([1, 2, 3], { extra: "not represented" });
  const buffer = new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]).buffer;
  const nested = { a: { b: { c: { d: [1, { e: "deep" }] } } } };
  /** @type {[string, any][]} */
  const values = [
    ["undefined", undefined],
    ["null", null],
    ["true", true],
    ["false", false],
    ["zero", 0],
    ["negative zero", -0],
    ["int", 42],
    ["negative int", -7],
    ["int32 max", 2147483647],
    ["beyond int32", 2147483648],
    ["double", 1.5],
    ["tiny", 5e-324],
    ["NaN", NaN],
    ["Infinity", Infinity],
    ["-Infinity", -Infinity],
    ["bigint", 123456789012345678901234567890n],
    ["negative bigint", -9007199254740993n],
    ["bigint zero", 0n],
    ["empty string", ""],
    ["latin1 string", "héllo wörld ÿ"],
    ["two-byte string", "Привет, 世界"],
    ["emoji string", "😀👍🏽"],
    ["lone surrogate", "a\ud800b"],
    ["object", { name: "x", n: 1, list: [1, 2] }],
    ["nested object", nested],
    ["integer-like keys", { b: 1, 2: "two", a: 2, 1: "one", "-1": "minus", 4294967295: "big" }],
    ["empty object", {}],
    ["dollar object", { $date: 5 }],
    ["dense array", [1, "two", { three: 3 }, [4]]],
    ["empty array", []],
    ["sparse array", sparse],
    ["array with holes", holes],
    ["array with a property", withProps],
    ["very sparse array", Object.assign(new Array(1000), { 3: "x", 999: "y" })],
    ["date", new Date(Date.UTC(2020, 0, 2, 3, 4, 5, 6))],
    ["invalid date", new Date(NaN)],
    ["regexp", /ab+c/gi],
    ["regexp unicode", /\p{L}+/su],
    [
      "map",
      new Map(
        /** @type {[any, any][]} */ ([
          ["a", 1],
          [2, { b: [3] }],
          [null, undefined],
        ]),
      ),
    ],
    ["set", new Set([1, "one", null, [2]])],
    ["arraybuffer", buffer],
    ["empty arraybuffer", new ArrayBuffer(0)],
    ["Uint8Array", new Uint8Array([1, 2, 250])],
    ["Int8Array", new Int8Array([-1, 2, -128])],
    ["Uint8ClampedArray", new Uint8ClampedArray([0, 255, 128])],
    ["Int16Array", new Int16Array([-300, 300])],
    ["Uint16Array", new Uint16Array([65535, 1])],
    ["Int32Array", new Int32Array([-100000, 7])],
    ["Uint32Array", new Uint32Array([4000000000])],
    ["Float32Array", new Float32Array([1.5, -0.25])],
    ["Float64Array", new Float64Array([Math.PI, -0])],
    ["BigInt64Array", new BigInt64Array([-5n, 1n << 62n])],
    ["BigUint64Array", new BigUint64Array([(1n << 64n) - 1n])],
    ["subarray view", new Uint16Array(buffer, 4, 3)],
    ["DataView", new DataView(buffer, 2, 5)],
    ["boxed number", new Number(3.5)],
    ["boxed string", new String("boxed ü")],
    ["boxed true", new Boolean(true)],
    ["boxed false", new Boolean(false)],
    ["boxed bigint", Object(10n)],
    ["shared buffer twice", { one: new Uint8Array(buffer, 0, 2), two: new Uint8Array(buffer, 8, 2) }],
    [
      "repeated object",
      (() => {
        const o = { r: 1 };
        return [o, o, { o }];
      })(),
    ],
    ["everything", { u: undefined, m: new Map([[1, new Set(["s"])]]), d: new Date(5), r: /x/, b: 1n }],
    ["blob", new Blob(["blob contents ✓"], { type: "text/plain" })],
    [
      "file",
      new File([new Uint8Array([1, 2, 3])], "data.bin", {
        type: "application/octet-stream",
        lastModified: 1700000000000,
      }),
    ],
    ["blobs in an object", { first: new Blob(["1"]), second: new Blob(["22"], { type: "x/y" }) }],
  ];
  return values;
}

/**
 * A database created, filled and deleted: Chromium deletes its records and compacts their range,
 * which flushes LevelDB's memtable to a first small table.
 */
async function doomed() {
  const rng = prng(0);
  const db = await open("doomed", 1, (db) => db.createObjectStore("s"));
  await write(db, ["s"], (tx) => {
    const s = tx.objectStore("s");
    for (let i = 0; i < 200; i++) s.put(text(rng, 50, 150), i);
  });
  db.close();
  await done(indexedDB.deleteDatabase("doomed"));
  return "ok";
}

/** The first start: three databases (and one deleted), localStorage, sessionStorage. */
async function start1() {
  const rng = prng(1);

  const main = await open("corpus-main", 1, (db) => {
    db.createObjectStore("keys"); // out-of-line keys of every type
    db.createObjectStore("values"); // out-of-line keys, values of every type
    const people = db.createObjectStore("people", { keyPath: "id" });
    people.createIndex("by_name", "name");
    people.createIndex("by_email", "email", { unique: true });
    people.createIndex("by_tags", "tags", { multiEntry: true });
    people.createIndex("by_city_age", ["address.city", "age"]);
    db.createObjectStore("auto", { autoIncrement: true });
    db.createObjectStore("auto_inline", { keyPath: "id", autoIncrement: true });
    db.createObjectStore("bulk");
    db.createObjectStore("dropped");
    db.createObjectStore("churn"); // overwritten round after round (churn): fills LevelDB's memtable
  });
  await write(main, ["keys", "values", "people", "auto", "auto_inline", "bulk", "dropped"], (tx) => {
    const keys = tx.objectStore("keys");
    everyKey().forEach((key, i) => keys.put({ i, note: `key ${i}` }, key));
    const values = tx.objectStore("values");
    for (const [name, value] of everyValue()) values.put(value, name);
    const people = tx.objectStore("people");
    const cities = ["Zürich", "Αθήνα", "東京", "Lima", ""];
    for (let i = 0; i < 300; i++) {
      const tags = ["t" + rng(10), "t" + rng(10), rng(2) ? "ü" + rng(3) : [rng(3), "arr"]];
      people.put({
        id: i % 7 === 0 ? [i, "compound"] : i % 5 === 0 ? `person-${i}` : i,
        name: text(rng, 3, 12),
        email: `user${i}@例え.jp`,
        age: 18 + rng(60),
        address: { city: cities[rng(cities.length)], zip: 1000 + rng(9000) },
        tags,
        bio: text(rng, 20, 100),
      });
    }
    const auto = tx.objectStore("auto");
    for (let i = 0; i < 50; i++) auto.add({ i, text: latin(rng, 10, 60) });
    auto.put("explicit key", 1000);
    auto.add("after the explicit key");
    const autoInline = tx.objectStore("auto_inline");
    for (let i = 0; i < 30; i++) autoInline.add({ payload: text(rng, 5, 40) });
    autoInline.put({ id: 500.5, payload: "fractional explicit id" });
    const bulk = tx.objectStore("bulk");
    for (let i = 0; i < 1200; i++) {
      const key = i % 3 === 0 ? `bulk-${String(i).padStart(5, "0")}` : i;
      const value =
        i % 8 === 0 ? randomBytes(rng, 100 + rng(400)) : { i, s: latin(rng, 20, i % 5 ? 80 : 400) };
      bulk.put(value, key);
    }
    const dropped = tx.objectStore("dropped");
    for (let i = 0; i < 100; i++) dropped.put(latin(rng, 50, 100), i);
  });
  // Overwrites and deletions.
  await write(main, ["bulk", "people", "keys"], (tx) => {
    const bulk = tx.objectStore("bulk");
    for (let i = 0; i < 1200; i += 10) bulk.put({ i, overwritten: true, s: text(rng, 50, 200) }, i);
    bulk.delete(IDBKeyRange.bound(200, 400));
    bulk.delete("bulk-00003");
    const people = tx.objectStore("people");
    for (let i = 1; i < 300; i += 13) if (i % 7 && i % 5) people.delete(i);
    tx.objectStore("keys").delete("ab");
  });
  main.close();

  // Version 2: an index on an existing store, a store deleted, a store created.
  const main2 = await open("corpus-main", 2, (db, tx) => {
    db.deleteObjectStore("dropped");
    tx.objectStore("bulk").createIndex("by_i", "i");
    const large = db.createObjectStore("large");
    large.createIndex("by_kind", "kind");
  });
  await write(main2, ["large"], (tx) => {
    const large = tx.objectStore("large");
    const lrng = prng(7);
    // Chromium compresses the larger values that compress well and moves the ones still large
    // to blob files.
    large.put({ kind: "string", value: "L".repeat(100 * 1024) }, "100 KB string");
    large.put({ kind: "two-byte", value: "語".repeat(12 * 1024) }, "12 K two-byte characters");
    large.put({ kind: "buffer", value: randomBytes(lrng, 70 * 1024).buffer }, "70 KB random ArrayBuffer");
    large.put({ kind: "buffer", value: new Uint8Array(8 * 1024).fill(0x61) }, "8 KB repeated bytes");
    large.put({ kind: "buffer", value: randomBytes(lrng, 8 * 1024) }, "8 KB random bytes");
    large.put({ kind: "text", value: latin(lrng, 10000, 10000) }, "10 KB Latin-1 text");
    large.put({ kind: "string", value: "M".repeat(62 * 1024) }, "62 KB string");
    large.put({ kind: "small", value: 1 }, "small");
  });
  main2.close();

  const second = await open("second db ✓", 3, (db) => {
    const s = db.createObjectStore("nested", { keyPath: "a.b" });
    s.createIndex("by_c", "a.c");
    s.createIndex("by_c_unique", "a.c", { unique: true });
    const bin = db.createObjectStore("binary");
    bin.createIndex("by_len", "len");
  });
  await write(second, ["nested", "binary"], (tx) => {
    const s = tx.objectStore("nested");
    for (let i = 0; i < 200; i++) s.put({ a: { b: `k${i}`, c: i * 2 }, pad: latin(rng, 10, 80) });
    const bin = tx.objectStore("binary");
    for (let i = 0; i < 250; i++) {
      const key = randomBytes(rng, 1 + rng(20));
      bin.put({ len: key.length, data: randomBytes(rng, 10 + rng(100)) }, key);
    }
  });
  second.close();

  localStorage.clear();
  for (let i = 0; i < 300; i++) {
    const key = i % 4 === 0 ? `ключ-${i}` : i % 4 === 1 ? `key-${i}` : i % 4 === 2 ? `キー${i}😀` : `${i}`;
    localStorage.setItem(key, i % 3 === 0 ? text(rng, 5, 200) : latin(rng, 0, 100));
  }
  localStorage.setItem("", "empty key");
  localStorage.setItem("empty value", "");
  for (let i = 0; i < 300; i += 7) localStorage.removeItem(`${i}`);
  for (let i = 1; i < 300; i += 11) localStorage.setItem(`key-${i}`, "overwritten ✓");
  sessionStorage.setItem("start", "1");
  sessionStorage.setItem("会话", "セッション");
  for (let i = 0; i < 20; i++) sessionStorage.setItem(`s${i}`, latin(rng, 10, 50));
  return "ok";
}

/** The second start: more writes, overwrites and deletions, and a third database. */
async function start2() {
  const rng = prng(2);
  const main = await open("corpus-main", undefined);
  await write(main, ["bulk", "people", "values", "auto"], (tx) => {
    const bulk = tx.objectStore("bulk");
    for (let i = 1500; i < 2100; i++) bulk.put({ i, s: latin(rng, 20, i % 4 ? 80 : 400), second: true }, i);
    for (let i = 1; i < 1200; i += 17) bulk.put({ i, s: text(rng, 20, 100), again: true }, i);
    bulk.delete(IDBKeyRange.bound("bulk-00600", "bulk-00900"));
    const people = tx.objectStore("people");
    people.put({
      id: "new person",
      name: "Nuevo",
      email: "nuevo@example.org",
      age: 33,
      tags: ["n"],
      address: { city: "Lima" },
    });
    people.delete(IDBKeyRange.bound(100, 150));
    tx.objectStore("values").put("overwritten in start 2", "int");
    tx.objectStore("values").delete("tiny");
    tx.objectStore("auto").add("added in start 2");
  });
  main.close();
  const third = await open("третья", 1, (db) => {
    const s = db.createObjectStore("log", { keyPath: ["day", "seq"] });
    s.createIndex("by_level", "level");
  });
  await write(third, ["log"], (tx) => {
    const s = tx.objectStore("log");
    for (let i = 0; i < 400; i++)
      s.put({
        day: new Date(Date.UTC(2025, 0, 1 + (i % 30))),
        seq: i,
        level: ["info", "warn", "error"][rng(3)],
        msg: text(rng, 10, 60),
      });
  });
  third.close();
  for (let i = 0; i < 300; i += 5) localStorage.removeItem(`ключ-${i}`);
  for (let i = 300; i < 400; i++) localStorage.setItem(`second-${i}`, text(rng, 10, 100));
  localStorage.setItem("key-1", "overwritten in start 2");
  sessionStorage.setItem("start", "2");
  sessionStorage.setItem("ß", "second start ✓");
  for (let i = 0; i < 30; i++) sessionStorage.setItem(`second-${i}`, text(rng, 5, 60));
  sessionStorage.removeItem("second-3");
  return "ok";
}

/**
 * One round of overwrites of the store "churn" (300 keys, values of 200 to 350 characters that
 * compress well, so that the tables they fill stay small): the generator repeats it until LevelDB writes a table.
 */
async function churn(/** @type {number} */ round) {
  const rng = prng(1000 + round);
  const db = await open("corpus-main", undefined);
  await write(db, ["churn"], (tx) => {
    const store = tx.objectStore("churn");
    for (let i = 0; i < 300; i++) {
      const word = WORDS[rng(WORDS.length)];
      const s = `${word} ${round} ${"-".repeat(200 + rng(150))}`;
      store.put({ round, i, s }, `churn-${String(i).padStart(3, "0")}`);
    }
    if (round % 3 === 2) store.delete(IDBKeyRange.bound("churn-100", "churn-120"));
  });
  db.close();
  return round;
}

/**
 * The last writes of the second start, left in the live logs: a few only, as every read that
 * passes a level-0 table without finding its key counts towards compacting that table away.
 */
async function tail() {
  const rng = prng(3);
  const main = await open("corpus-main", undefined);
  await write(main, ["bulk", "churn", "people"], (tx) => {
    const bulk = tx.objectStore("bulk");
    for (let i = 0; i < 10; i++) bulk.put({ i, s: latin(rng, 100, 400), tail: true }, 5000 + i);
    bulk.delete(IDBKeyRange.bound(1000, 1010));
    for (let i = 0; i < 20; i++)
      tx.objectStore("churn").put(`tail ${i}`, `churn-${String(i).padStart(3, "0")}`);
    tx.objectStore("churn").delete("churn-299");
    tx.objectStore("people").put({
      id: 3,
      name: "Tail",
      email: "tail@example.org",
      age: 1,
      tags: [],
      address: {},
    });
  });
  main.close();
  localStorage.setItem("tail ✓", "the last localStorage write");
  sessionStorage.setItem("tail ✓", "the last sessionStorage write");
  return "ok";
}

Object.assign(globalThis, { doomed, start1, start2, churn, tail, readIndexedDB, readStorage });
