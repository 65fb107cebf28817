#!/usr/bin/env bash
# The playground's download budgets (issues 7, 21 and 24), checked after a
# release build (`trunk build --release --offline`). Prints every file of
# dist/ with its raw and gzipped size (the zopfli gzip the build wrote beside
# it, FILE.gz, which a host sends as it is; `gzip -9` for a file without
# one), then the gzipped total of the app: the files a visit to the
# playground downloads (those index.html names: its HTML, JavaScript, CSS
# and wasm), and of the reading view a shared link opens, the docs-site
# viewer and the embed page. Fails when a total passes its budget.
#
# Not counted in the budget, but listed:
# - fonts (woff2): already compressed (gzip gains nothing) and fetched in
#   parallel with the app; their sizes are printed as a separate total;
# - files no playground visit downloads: the reading view's (opb-read-*.js,
#   opb-read-core-*.js and .wasm, and the viewer's stylesheet), the viewer
#   docs sites embed (opb-viewer.js, opb-viewer.css, opb-viewer-core-*.js
#   and .wasm) and the embed page (embed.html, opb-embed.js,
#   opb-embed-core-*.js and .wasm, and the viewer's stylesheet), which have
#   budgets of their own below.
set -euo pipefail

# Gzipped bytes of the app. Issue 7's target is 450 KB (460,800 bytes); it
# is not met: the app is about 839 KB gzipped, the wasm 671 KB of it and the
# CodeMirror bundle 137 KB (docs/performance.md, "Download size": the gap
# and the plan). The budget sits 0.3% above that, so that any growth fails
# the test command and is looked at before it is accepted.
budget=$((822 * 1024))

# Gzipped bytes of the viewer a docs page with one <opb-viewer> downloads:
# the element's script and stylesheet, the viewer's loader and wasm. The
# budget is issue 21's target for the whole cold page, 300 KB (307,200
# bytes): the viewer is about 301 KB gzipped, its wasm 293 KB
# (docs/performance.md, "The docs-site viewer": the profile and the cuts
# made).
viewer_budget=$((300 * 1024))

# Gzipped bytes of the reading view a shared link opens (issue 24): the page
# (index.html, which holds the router and the reading view's stylesheet),
# the reading view's script (the element and js/reading.js), the viewer's
# stylesheet, the reading view's loader and wasm (the viewer's, and
# opb-share's reading of links but for the inflating). The budget is the
# issue's, 300 KB by the time the trust banner is on screen, and the page
# loads nothing else before it (scripts/bench-link.mjs counts what was
# transferred, headers included). It is 5 KB over that since the graph's
# layout has a budget and the view is made in slices (about 6.4 KB on each
# build) and the credentials are masked by what the rules found (about
# 2.3 KB): docs/performance.md, "Size options, measured". The budget sits
# 0.3% above today's 312 KB.
reading_budget=$((306 * 1024))

# Gzipped bytes of the embed page (what an <iframe> of it downloads): its
# HTML and script, the viewer's stylesheet, the embed's loader and wasm
# (the viewer's, and opb-share's reading of links and messages). About
# 328 KB; the budget sits 0.2% above.
embed_budget=$((321 * 1024))

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

# The bytes a host sends of FILE gzipped: the build's FILE.gz, else gzip -9's.
gzipped() {
  if [ -f "$1.gz" ]; then stat -c %s "$1.gz"; else gzip -9 -c "$1" | wc -c; fi
}

app_raw=0 app_gz=0 font_raw=0 other_gz=0 viewer_gz=0 embed_gz=0 reading_gz=0
printf '%-44s %10s %10s  %s\n' "file" "bytes" "gzipped" "counted" >&2
for file in "$dist"/*; do
  [ -f "$file" ] || continue
  name="$(basename "$file")"
  [[ "$name" == *.gz ]] && continue
  raw=$(stat -c %s "$file")
  gz=$(gzipped "$file")
  if [[ "$name" == opb-viewer.css ]]; then
    counted="viewer, embed, reading"
    viewer_gz=$((viewer_gz + gz)) embed_gz=$((embed_gz + gz)) reading_gz=$((reading_gz + gz))
  elif [[ "$name" == opb-read-* ]]; then
    counted="reading"
    reading_gz=$((reading_gz + gz))
  elif [ "$name" = index.html ]; then
    counted="app, reading"
    app_raw=$((app_raw + raw)) app_gz=$((app_gz + gz)) reading_gz=$((reading_gz + gz))
  elif [[ "$name" == opb-viewer.js || "$name" == opb-viewer-core-* ]]; then
    counted="viewer"
    viewer_gz=$((viewer_gz + gz))
  elif [[ "$name" == embed.html || "$name" == opb-embed.js || "$name" == opb-embed-core-* ]]; then
    counted="embed"
    embed_gz=$((embed_gz + gz))
  elif is_loaded "$name"; then
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
printf 'reading view total: %d gzipped (budget %d)\n' "$reading_gz" "$reading_budget" >&2
printf 'viewer total: %d gzipped (budget %d)\n' "$viewer_gz" "$viewer_budget" >&2
printf 'embed page total: %d gzipped (budget %d)\n' "$embed_gz" "$embed_budget" >&2

status=0
if [ "$app_gz" -gt "$budget" ]; then
  echo "check-size: the app is $app_gz bytes gzipped, over its budget of $budget" >&2
  status=1
fi
# within WHAT TOTAL BUDGET: says so and fails when the build wrote none of
# WHAT's files (js/build-viewer.mjs writes them), or too many bytes.
within() {
  if [ "$2" -eq 0 ]; then
    echo "check-size: no files of the $1 in $dist (js/build-viewer.mjs writes them)" >&2
    status=1
  elif [ "$2" -gt "$3" ]; then
    echo "check-size: the $1 is $2 bytes gzipped, over its budget of $3" >&2
    status=1
  fi
}
within "reading view" "$reading_gz" "$reading_budget"
within viewer "$viewer_gz" "$viewer_budget"
within "embed page" "$embed_gz" "$embed_budget"
exit "$status"
