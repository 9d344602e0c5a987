// The README's JavaScript examples are executed as written, so the documentation cannot rot: every
// `console.log(...); // text` line must print exactly `text`.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";

const repoRoot = path.join(__dirname, "..", "..");
const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
const examples = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]!);

test("the README has examples", () => {
  expect(examples.length).toBeGreaterThanOrEqual(2);
});

test.each(examples.map((example, i) => [i + 1, example]))(
  "README example %i runs and prints what its comments say",
  (_n, example) => {
    const promised = example
      .split("\n")
      .filter((line) => line.startsWith("console.log("))
      .map((line) => line.slice(line.lastIndexOf("// ") + 3));
    const printed = execFileSync(process.execPath, ["--input-type=module", "-e", example], { cwd: repoRoot })
      .toString()
      .trim()
      .split("\n");
    expect(printed).toEqual(promised);
  },
);
