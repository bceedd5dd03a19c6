#!/usr/bin/env bash
# Regenerates the committed headers in include/ from the catalog (after changing ukernels/src/
# catalog.rs, cabi.rs, types.rs, src/rkai_ffi.rs or build/).
set -euo pipefail
cd "$(dirname "$0")/.."
RKAI_BLESS_HEADERS=1 cargo build --quiet
git status --short include/
