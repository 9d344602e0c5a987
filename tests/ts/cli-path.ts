// The `sstfilter` command as the package ships it ("bin" in package.json: the bundle scripts/build.sh
// writes), for the tests that run it as a user does.
import * as path from "node:path";

/** The path of the built `sstfilter` command (run it with process.execPath). */
export const CLI = path.join(__dirname, "..", "..", "dist", "esm", "bin", "sstfilter.js");
