#!/usr/bin/env bash
# `npm run demo`: set up what is missing, build, and serve the demo on localhost (prints the URL).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
exec node demo/serve.mjs "$@"
