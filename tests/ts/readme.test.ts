// The README's JavaScript example is executed as written, so the documentation cannot rot: every
// `console.log(...); // text` line must print exactly `text`.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";

const repoRoot = path.join(__dirname, "..", "..");

test("the README example runs and prints what its comments say", () => {
  const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
  const example = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(example).toBeDefined();
  const promised = example!
    .split("\n")
    .filter((line) => line.startsWith("console.log("))
    .map((line) => line.slice(line.lastIndexOf("// ") + 3));
  const printed = execFileSync(process.execPath, ["--input-type=module", "-e", example!], { cwd: repoRoot })
    .toString()
    .trim()
    .split("\n");
  expect(printed).toEqual(promised);
});
