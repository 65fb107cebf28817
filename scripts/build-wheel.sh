#!/usr/bin/env bash
# Builds opb's PyPI wheel (pyproject.toml) with maturin from
# tools/packaging (scripts/setup.sh test): the release build of the root
# package's `opb`, stripped, into target/wheels, emptied first so the wheel
# is the only one there (tests/packaging and tests/editors install it from
# there). Prints the wheel's size and its binary's, the figures
# docs/performance.md records.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

rm -rf target/wheels
tools/packaging/.venv/bin/maturin build --release --out target/wheels
wheel="$(ls target/wheels/opb-*.whl)"
tools/packaging/.venv/bin/python - "$wheel" <<'PYTHON'
import os
import sys
import zipfile

wheel = sys.argv[1]
with zipfile.ZipFile(wheel) as archive:
    binary = next(i for i in archive.infolist() if i.filename.endswith(".data/scripts/opb"))
print(f"{os.path.basename(wheel)}: {os.path.getsize(wheel):,} bytes; opb in it: {binary.file_size:,} bytes", file=sys.stderr)
PYTHON
