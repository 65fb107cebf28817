#!/usr/bin/env bash
# Makes opb's pre-commit mirror: a hook repository whose `opb` hook installs
# opb's wheel from PyPI, so a hook run needs no Rust. pre-commit installs a
# python hook by `pip install .` of the hook's repository, which here would
# compile opb with cargo (pyproject.toml is maturin's), so that hook lives in
# a repository of its own, as ruff-pre-commit does for ruff. Its package
# holds no code and requires `opb` at the workspace's version; its hooks are
# this repository's, with the `opb` hook in the python language. A release
# publishes the mirror as the `opb-pre-commit` repository.
#
#   scripts/pre-commit-mirror.sh DIR   writes the mirror into DIR (which must
#                                      not exist) as a git repository with one
#                                      commit, tagged v<version>
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: scripts/pre-commit-mirror.sh DIR" >&2
  exit 2
fi
out="$1"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="$("$root/scripts/workspace-version.sh")"
if [ -e "$out" ]; then
  echo "pre-commit-mirror.sh: $out exists" >&2
  exit 2
fi
mkdir -p "$out"

# The hooks, from this repository's, without its opening comment: the same
# files matched and the same entries.
{
  echo "# opb's pre-commit hooks. \`opb\` installs opb $version from PyPI into"
  echo "# pre-commit's environment for this repository; \`opb-system\` runs the opb on PATH."
  sed -e '1,/^[^#]/{/^#/d}' -e 's/^  language: rust$/  language: python/' "$root/.pre-commit-hooks.yaml"
} > "$out/.pre-commit-hooks.yaml"
if [ "$(grep -c '^  language: python$' "$out/.pre-commit-hooks.yaml")" != 1 ]; then
  echo "pre-commit-mirror.sh: .pre-commit-hooks.yaml should hold exactly one hook in the rust language" >&2
  exit 1
fi

cat > "$out/pyproject.toml" <<TOML
[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[project]
name = "opb-pre-commit"
version = "$version"
description = "pre-commit hooks of opb, installing opb from PyPI"
readme = "README.md"
license = "MIT OR Apache-2.0"
dependencies = ["opb==$version"]

[tool.setuptools]
py-modules = []
TOML

cat > "$out/README.md" <<MARKDOWN
# opb-pre-commit

[pre-commit](https://pre-commit.com) hooks of opb, which checks
OpenPlaybook documents and Orchestrator Zero plugin manifests. The \`opb\`
hook installs opb's wheel from PyPI: no Rust is needed.

\`\`\`yaml
repos:
  - repo: https://example.invalid/opb-pre-commit
    rev: v$version
    hooks:
      - id: opb
\`\`\`

The hooks check staged \`*.opb.json\`, \`*.opb.yaml\`, \`*.opb.yml\` and
\`oz0-plugin.yaml\` files and fail on an error, showing each finding in its
source. \`opb-system\` runs the \`opb\` on PATH instead.

Made from opb $version by \`scripts/pre-commit-mirror.sh\`.
MARKDOWN

git -C "$out" init --quiet
git -C "$out" add .
git -C "$out" -c user.name="opb release" -c user.email="release@example.invalid" commit --quiet -m "opb $version"
git -C "$out" tag "v$version"
