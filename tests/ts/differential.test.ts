// The wasm half of tests/cpp/differential_test.cc: the same generator, formats, sizes and probes,
// folded into the same digest. Every kernel of both modules must reach the digest the native
// scalar and AVX2 kernels reach, so the four targets answer identically, bit for bit.
import type { BuildOptions, SstFilter } from "sstfilter";

import { BACKENDS, loadBackend } from "./backends";

// Keep in step with kDigest in tests/cpp/differential_test.cc.
const DIGEST = 0xc740e3eb;

const BITS_PER_KEY = [1, 2.5, 5, 6.5, 9.9, 10, 15.5, 20, 33.3, 50];
const KEY_COUNTS = [1, 3, 10, 100, 1000, 10000, 60000];
const FORMATS: BuildOptions["format"][] = [
  "leveldb",
  "rocksdb-legacy-bloom",
  "rocksdb-bloom",
  "rocksdb-ribbon",
];

class KeyGenerator {
  private word = 0;
  constructor(private state: number) {}
  next(): number {
    this.state = (this.state + 0x9e3779b9) >>> 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  }
  key(): Uint8Array {
    const key = new Uint8Array(this.next() % 25);
    for (let i = 0; i < key.length; i++) {
      if (i % 4 === 0) this.word = this.next();
      key[i] = (this.word >>> (8 * (i % 4))) & 0xff;
    }
    return key;
  }
}

function runAll(sf: SstFilter): { digest: number; keys: number; probes: number } {
  let digest = 0x811c9dc5;
  let keysAdded = 0;
  let probes = 0;
  let seed = 1;
  for (const format of FORMATS) {
    for (const bits of BITS_PER_KEY) {
      for (const count of KEY_COUNTS) {
        const gen = new KeyGenerator(seed++);
        const keys = Array.from({ length: count }, () => gen.key());
        const probeKeys = keys.concat(Array.from({ length: Math.max(count, 1000) }, () => gen.key()));
        const bitsPerKey = format === "leveldb" ? Math.round(bits) : bits;
        const bytes = sf.buildFilter(keys, { format, bitsPerKey });
        using filter = sf.openFilter(bytes, { format: format === "leveldb" ? "leveldb" : "rocksdb" });
        const answers = filter.mayContainMany(sf.packKeys(probeKeys));
        for (let i = 0; i < probeKeys.length; i++) {
          if (i < count && answers[i] !== 1) {
            throw new Error(`false negative: ${format} bits ${bits} keys ${count} key ${i}`);
          }
          if (i % 97 === 0 && (filter.mayContain(probeKeys[i]!) ? 1 : 0) !== answers[i]) {
            throw new Error(`single vs batch: ${format} bits ${bits} keys ${count} probe ${i}`);
          }
          digest = Math.imul(digest ^ answers[i]!, 0x01000193) >>> 0;
        }
        keysAdded += count;
        probes += probeKeys.length;
      }
    }
  }
  return { digest, keys: keysAdded, probes };
}

describe.each(BACKENDS)("differential on $name", ({ name, simd }) => {
  test("every kernel of the module reaches the native digest", async () => {
    const sf = await loadBackend(simd);
    const kernels = sf.kernels();
    const expected = simd ? ["scalar", "simd128"] : ["scalar"];
    expect(kernels.fastLocalBloom.available).toEqual(expected);
    expect(kernels.ribbon.available).toEqual(expected);
    try {
      for (const bloomKernel of kernels.fastLocalBloom.available) {
        for (const ribbonKernel of kernels.ribbon.available) {
          sf.selectKernel("fastLocalBloom", bloomKernel);
          sf.selectKernel("ribbon", ribbonKernel);
          const run = runAll(sf);
          const label = `${name}, FastLocalBloom kernel ${bloomKernel}, Ribbon kernel ${ribbonKernel}`;
          console.log(
            `[differential] ${label}: ${run.keys} keys, ${run.probes} probes, digest 0x${run.digest.toString(16)}`,
          );
          expect([label, run.digest.toString(16)]).toEqual([label, DIGEST.toString(16)]);
        }
      }
    } finally {
      sf.selectKernel("fastLocalBloom", kernels.fastLocalBloom.active);
      sf.selectKernel("ribbon", kernels.ribbon.active);
    }
  });
  // The digest's filters all stay below the size from which the SIMD128 kernel touches a group's
  // blocks before probing them (kTouchAheadMinBytes, 2 MiB, cpp/filter/kernels/
  // fast_local_bloom_simd128.cc): that path is compared with the scalar kernel here, key by key.
  test("a FastLocalBloom filter above 2 MiB answers as the scalar kernel, key by key", async () => {
    const sf = await loadBackend(simd);
    const kernels = sf.kernels();
    const gen = new KeyGenerator(29);
    const keys = Array.from({ length: 1_000_000 }, () => gen.key());
    const probes = sf.packKeys(keys.concat(Array.from({ length: 500_000 }, () => gen.key())));
    using filter = sf.openFilter(sf.buildFilter(keys, { format: "rocksdb-bloom", bitsPerKey: 20 }), {
      format: "rocksdb",
    });
    expect(filter.details.dataBytes).toBeGreaterThan(2 * 1024 * 1024);
    const answers = new Map<string, Uint8Array>();
    try {
      for (const kernel of kernels.fastLocalBloom.available) {
        sf.selectKernel("fastLocalBloom", kernel);
        answers.set(kernel, filter.mayContainMany(probes).slice());
      }
    } finally {
      sf.selectKernel("fastLocalBloom", kernels.fastLocalBloom.active);
    }
    const scalar = answers.get("scalar")!;
    expect(scalar.subarray(0, keys.length).every((a) => a === 1)).toBe(true);
    for (const [kernel, got] of answers) {
      const differs = got.findIndex((a, i) => a !== scalar[i]);
      expect([kernel, differs]).toEqual([kernel, -1]);
    }
  });
});
