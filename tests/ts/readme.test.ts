// The JavaScript examples of the README and of docs/API.md are executed as written, so the
// documentation cannot rot: every `console.log(...); // text` line must print exactly `text`.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";

const repoRoot = path.join(__dirname, "..", "..");
const documents = ["README.md", "docs/API.md"];
const examples = documents.flatMap((document) => {
  const text = readFileSync(path.join(repoRoot, document), "utf8");
  return [...text.matchAll(/```js\n([\s\S]*?)```/g)].map((match, i) => [
    `${document} example ${i + 1}`,
    match[1]!,
  ]);
});

test.each(documents)("%s has examples", (document) => {
  expect(examples.filter(([name]) => name!.startsWith(`${document} `)).length).toBeGreaterThanOrEqual(1);
});

test("the README has the quick start's examples", () => {
  expect(examples.filter(([name]) => name!.startsWith("README.md ")).length).toBeGreaterThanOrEqual(3);
});

test.each(examples)("%s runs and prints what its comments say", (_name, example) => {
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
