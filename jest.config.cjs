// Jest runs the TypeScript tests against the built package (dist/), CommonJS entry, so the tests
// exercise the same loader and wasm files that users get.
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/tests/ts"],
  testMatch: ["**/*.test.ts"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "<rootDir>/tests/ts/tsconfig.json" }],
  },
  moduleNameMapper: {
    "^sstfilter$": "<rootDir>/dist/cjs/platform/node-cjs.js",
    "^(\\.{1,2}/.*)\\.js$": "$1",
  },
  testTimeout: 120000,
};
