// Standard128Ribbon's sizing must not depend on the C library: RocksDB computes it with glibc's
// log, exp and pow, and these modules link musl. The core computes it without them
// (cpp/src/rocksdb_ribbon_sizing.cc); here each wasm module folds whole sweeps of sizing decisions
// into digests, which must equal the native build's (tests/cpp/rocksdb_ribbon_test.cc,
// RibbonSizing.SweepDigests, where the same values are checked against RocksDB's formulas run
// with glibc).
import { BACKENDS } from "./backends";
import { loadTestingBackend, type TestingHooks } from "./testing-backend";

// The native build's digests (RibbonSizing.SweepDigests prints them).
const NATIVE_DIGESTS = {
  everyCountTo1e5: "76d34e60af10e62b",
  sampledTo1e8: "a9c5c349996dff24",
  sampledTo950e6: "74ef869d4e98cab1",
  fpRateTargets: "1e5e0f1ab6237dd3",
};

describe.each(BACKENDS)("Ribbon sizing on $name equals the native build's", ({ simd }) => {
  let core: TestingHooks;
  beforeAll(async () => {
    core = (await loadTestingBackend(simd)).hooks;
  });

  test("FP-rate targets: bits per key 0.5..100 by 0.001, and 100000 random values", () => {
    expect(core.ribbonFpRateTargetDigest(100000)).toBe(NATIVE_DIGESTS.fpRateTargets);
  });

  test("slots and solution bytes for every key count to 10^5 (55 bits-per-key values, 4 roundings)", () => {
    expect(core.ribbonSizingDigest(1, 100000, 1)).toBe(NATIVE_DIGESTS.everyCountTo1e5);
  });

  test("slots and solution bytes for key counts sampled to 10^8 and on to 950 million", () => {
    expect(core.ribbonSizingDigest(100000, 100000000, 997)).toBe(NATIVE_DIGESTS.sampledTo1e8);
    expect(core.ribbonSizingDigest(100000000, 950000000, 99991)).toBe(NATIVE_DIGESTS.sampledTo950e6);
  });
});
