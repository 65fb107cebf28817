#!/usr/bin/env bash
# The playground's download budget (issue 7), checked after a release build
# (`trunk build --release --offline`). Prints every file of dist/ with its raw
# and `gzip -9` size, then the gzipped total of the app: the files a visit to
# the playground downloads (those index.html names: its HTML, JavaScript, CSS
# and wasm). Fails when that total passes the budget.
#
# Not counted in the budget, but listed:
# - fonts (woff2): already compressed (gzip gains nothing) and fetched in
#   parallel with the app; their sizes are printed as a separate total;
# - files no playground visit downloads: the viewer docs sites embed
#   (opb-viewer.js, opb-viewer.css, opb-viewer-core-*.js and .wasm), which
#   have a budget of their own below.
set -euo pipefail

# Gzipped bytes of the app. Issue 7's target is 450 KB (460,800 bytes); it
# is not met: the app is about 835 KB gzipped, the wasm 672 KB of it and the
# CodeMirror bundle 133 KB (docs/performance.md, "Download size": the gap
# and the plan). The budget sits 0.2% above that, so that any growth fails
# the test command and is looked at before it is accepted.
budget=$((817 * 1024))

# Gzipped bytes of the viewer a docs page with one <opb-viewer> downloads:
# the element's script and stylesheet, the viewer's loader and wasm. Issue
# 21's target for the whole cold page is 300 KB (307,200 bytes); it is not
# met: the viewer is about 339 KB gzipped, its wasm 327 KB
# (docs/performance.md, "The docs-site viewer": the profile and the cuts
# made). The budget sits 0.3% above that, as the app's does.
viewer_budget=$((332 * 1024))

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dist="${1:-$root/dist}"
if [ ! -f "$dist/index.html" ]; then
  echo "check-size: no $dist/index.html; build first (trunk build --release --offline)" >&2
  exit 2
fi

# The files index.html refers to by a local address (href, src, data-js,
# data-wasm), fonts aside.
mapfile -t loaded < <(grep -oE '(href|src|data-js|data-wasm)="/?[^":]+"' "$dist/index.html" \
  | sed -E 's/^[a-z-]+="\/?//; s/"$//' | grep -v '\.woff2$' | sort -u)
is_loaded() {
  local name
  for name in "${loaded[@]}"; do [ "$name" = "$1" ] && return 0; done
  return 1
}

app_raw=0 app_gz=0 font_raw=0 other_gz=0 viewer_gz=0
printf '%-44s %10s %10s  %s\n' "file" "bytes" "gzip -9" "counted" >&2
for file in "$dist"/*; do
  [ -f "$file" ] || continue
  name="$(basename "$file")"
  raw=$(stat -c %s "$file")
  gz=$(gzip -9 -c "$file" | wc -c)
  if [[ "$name" == opb-viewer.js || "$name" == opb-viewer.css || "$name" == opb-viewer-core-* ]]; then
    counted="viewer"
    viewer_gz=$((viewer_gz + gz))
  elif [ "$name" = index.html ] || is_loaded "$name"; then
    counted="app"
    app_raw=$((app_raw + raw)) app_gz=$((app_gz + gz))
  elif [[ "$name" == *.woff2 ]]; then
    counted="font (not in budget)"
    font_raw=$((font_raw + raw))
  else
    counted="not loaded by the playground"
    other_gz=$((other_gz + gz))
  fi
  printf '%-44s %10d %10d  %s\n' "$name" "$raw" "$gz" "$counted" >&2
done
printf '\napp total: %d bytes, %d gzipped (budget %d); fonts %d bytes; other files %d gzipped\n' \
  "$app_raw" "$app_gz" "$budget" "$font_raw" "$other_gz" >&2
printf 'viewer total: %d gzipped (budget %d)\n' "$viewer_gz" "$viewer_budget" >&2

status=0
if [ "$app_gz" -gt "$budget" ]; then
  echo "check-size: the app is $app_gz bytes gzipped, over its budget of $budget" >&2
  status=1
fi
if [ "$viewer_gz" -eq 0 ]; then
  echo "check-size: no viewer files in $dist (js/build-viewer.mjs writes them)" >&2
  status=1
elif [ "$viewer_gz" -gt "$viewer_budget" ]; then
  echo "check-size: the viewer is $viewer_gz bytes gzipped, over its budget of $viewer_budget" >&2
  status=1
fi
exit "$status"
