// Each wasm module links its own memcpy (wasm/memcpy.cc) in place of the C library's: every copy in
// the module goes through it (codecs, blocks, keys), so it must copy exactly whatever the length
// and the alignments. The testing hook copies every length up to 200 bytes between every pair of
// source and target alignments mod 16 and counts the copies that were not exact.
import { BACKENDS } from "./backends";
import { loadTestingBackend, type TestingHooks } from "./testing-backend";

describe.each(BACKENDS)("memcpy of the $name module", ({ simd }) => {
  let core: TestingHooks;
  beforeAll(async () => {
    core = (await loadTestingBackend(simd)).hooks;
  });

  test("copies exactly, touching nothing beside the run, at every length to 200 and every alignment", () => {
    expect(core.memcpyMismatches(200)).toBe(0);
  });
});
