#!/usr/bin/env bash
# Renders step summaries (qoscal report --summary) as GitHub shows them, in
# headless Chromium, with the mermaid package from npm drawing every
# ```mermaid block and marked (npm) the Markdown around them, from local
# pages with nothing fetched, in a column of the step summary's width
# (QOSCAL_SUMMARY_WIDTH, default 920 CSS pixels: GitHub gives a summary
# 880 to 1000). It fails when
#   - a block does not parse or draw (GitHub would show an error box);
#   - two text elements of one chart overlap: their boxes, measured in the
#     page (getBoundingClientRect), intersect by more than half a pixel
#     each way (benchmark labels drawn over each other);
#   - a chart's text reaches outside the chart (clipped);
#   - a text bar (a code span in a table cell) is broken over two lines;
#   - markup from an input name reaches the page.
# It prints, for each chart, its text elements, the overlapping pairs and
# the clearance (the smallest gap between two text boxes; negative when
# they overlap), and keeps a screenshot of each summary (OUTDIR/NAME.png)
# to look at.
#
# Needs node/npm (to install mermaid and marked into a cache folder) and
# Debian's chromium. Without them it says so and exits 0, or fails when
# QOSCAL_REQUIRE_BROWSER is set (as .ci/run sets it).
# Usage: scripts/mermaid-check.sh [OUTDIR] [FILE.md...]
#   (default OUTDIR: a temporary folder; default FILEs: the report of the
#   bundled Linux sample (sample.md); the same runs with the regressed
#   sample after them, gated against a calibration of the healthy runs,
#   the first of them marked (gated.md); names shaped like markup and workflow
#   commands (hostile.md); a wide suite, 30 benchmarks of long names over
#   45 runs (wide.md))
set -euo pipefail
cd "$(dirname "$0")/.."
need() {
  if [ -n "${QOSCAL_REQUIRE_BROWSER:-}" ]; then
    echo "mermaid-check: $1, and QOSCAL_REQUIRE_BROWSER is set" >&2
    exit 1
  fi
  echo "mermaid-check: $1; skipped"
  exit 0
}
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || need "no chromium on this machine"
command -v npm >/dev/null 2>&1 || need "no npm on this machine"

out=${1:-$(mktemp -d)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
shift || true
width=${QOSCAL_SUMMARY_WIDTH:-920}

# The packages, once per machine (pinned major versions: GitHub renders
# with a current Mermaid 11).
cache=${QOSCAL_MERMAID_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/qoscal-mermaid}
if [ ! -f "$cache/node_modules/mermaid/dist/mermaid.min.js" ] || [ ! -f "$cache/node_modules/marked/lib/marked.umd.js" ]; then
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-audit --no-fund --silent mermaid@11 marked@18 >/dev/null
fi
cp "$cache/node_modules/mermaid/dist/mermaid.min.js" "$cache/node_modules/marked/lib/marked.umd.js" scripts/mermaid-check.js "$out/"

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  go build -o "$out/qoscal" ./cmd/qoscal
  q="$out/qoscal"
  sample=data/samples/linux-glibc-vs-mimalloc
  vars=(--baseline glibc=baseline.txt --candidate mimalloc=mimalloc.txt)
  rm -f "$out"/{sample,gated,hostile,wide}.md

  "$q" report --summary "$out/sample.md" "${vars[@]}" "$sample/healthy" >/dev/null 2>&1

  # The healthy runs calibrate; the regressed runs come after them, as
  # the gate saw them, and the first of them is marked.
  rm -rf "$out/runs" && mkdir -p "$out/runs"
  cp -r "$sample/healthy/." "$out/runs/"
  n=12
  for r in "$sample"/regressed/run-*; do n=$((n + 1)); cp -r "$r" "$out/runs/run-$n"; done
  "$q" recommend --write "$out/gate.json" "${vars[@]}" "$sample/healthy" >/dev/null 2>&1
  "$q" report --summary "$out/gated.md" --calibration "$out/gate.json" --run run-13 "${vars[@]}" "$out/runs" >/dev/null 2>&1

  # Names that try to break out of a Mermaid string, the block or the page.
  cat > "$out/hostile.csv" <<'CSV'
run,benchmark,variant,value,role
"r1"" %%{init}%%","a`b""]; ::error::x",base,100,baseline
"r1"" %%{init}%%","a`b""]; ::error::x",cand,120,candidate
"r1"" %%{init}%%","<img src=x onerror=alert(1)> #35;",base,200,baseline
"r1"" %%{init}%%","<img src=x onerror=alert(1)> #35;",cand,230,candidate
r2,"a`b""]; ::error::x",base,100,baseline
r2,"a`b""]; ::error::x",cand,118,candidate
r2,"<img src=x onerror=alert(1)> #35;",base,200,baseline
r2,"<img src=x onerror=alert(1)> #35;",cand,228,candidate
r3,"a`b""]; ::error::x",base,100,baseline
r3,"a`b""]; ::error::x",cand,121,candidate
r3,"<img src=x onerror=alert(1)> #35;",base,200,baseline
r3,"<img src=x onerror=alert(1)> #35;",cand,226,candidate
CSV
  "$q" report --higher-is-better --summary "$out/hostile.md" "$out/hostile.csv" >/dev/null 2>&1

  # A wide suite: 30 benchmarks with long names, 45 runs, deterministic
  # values (each benchmark its own ratio and noise).
  awk 'BEGIN {
    print "run,benchmark,variant,value,role"
    for (r = 1; r <= 45; r++) for (b = 1; b <= 30; b++) {
      name = sprintf("allocator-suite/%s-threads=%d-size=%dB-iterations=%d", (b % 3 == 0 ? "producer-consumer-cross-thread-free" : (b % 3 == 1 ? "many-small-objects-with-random-lifetimes" : "large-block-realloc-growth")), b, 2^(b % 12 + 4), 1000 * b)
      base = 1000 + 37 * b
      ratio = 0.6 + (b * 7 % 23) / 10 + 0.05 * sin(r * 1.7 + b)
      printf "wide-run-%04d,%s,system,%.3f,baseline\n", r, name, base
      printf "wide-run-%04d,%s,candidate,%.3f,candidate\n", r, name, base * ratio
    }
  }' > "$out/wide.csv"
  "$q" report --higher-is-better --summary "$out/wide.md" "$out/wide.csv" >/dev/null 2>&1
  files=("$out/sample.md" "$out/gated.md" "$out/hostile.md" "$out/wide.md")
fi

flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
  --disable-background-networking --disable-component-update --disable-sync
  --allow-file-access-from-files --hide-scrollbars)
status=0
for f in "${files[@]}"; do
  name=$(basename "$f" .md)
  grep -q '^```mermaid$' "$f" || { echo "mermaid-check: no mermaid block in $f" >&2; exit 1; }
  # The summary as a JSON string, into a local page of the summary's width
  # with GitHub's look where it matters (fonts, tables, code spans).
  node -e 'process.stdout.write("window.SUMMARY = " + JSON.stringify(require("fs").readFileSync(process.argv[1], "utf8")) + ";\n")' "$f" >"$out/$name.js"
  cat > "$out/$name.html" <<HTML
<!doctype html>
<html><head><meta charset="utf-8"><title>$name: step summary check</title>
<style>
body { margin: 0; padding: 8px; font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #1f2328; }
#summary { width: ${width}px; }
table { border-collapse: collapse; display: block; max-width: 100%; overflow: auto; }
td, th { border: 1px solid #d1d9e0; padding: 6px 13px; }
code { font: 85%/1.45 ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace; background: #eff1f3; border-radius: 6px; padding: .2em .4em; white-space: break-spaces; }
pre > code { white-space: pre; }
.chart { margin: 1em 0; }
#result { display: none; }
</style>
</head><body>
<pre id="result">pending</pre>
<div id="summary"></div>
<script src="mermaid.min.js"></script>
<script src="marked.umd.js"></script>
<script src="$name.js"></script>
<script src="mermaid-check.js"></script>
</body></html>
HTML
  profile=$(mktemp -d)
  timeout 120 "$browser" "${flags[@]}" --user-data-dir="$profile" --window-size=$((width + 16)),2000 \
    --virtual-time-budget=20000 --dump-dom "file://$out/$name.html" >"$out/$name.dom.html" 2>/dev/null || true
  rm -rf "$profile"
  # The measurement, as lines to print; the last line is the page's height
  # and the number of failures.
  report=$(node -e '
const dom = require("fs").readFileSync(process.argv[1], "utf8");
const m = /RESULT (.*?) END/s.exec(dom);
if (!m) { console.log("no result from the page: it did not run\n0 1"); process.exit(0); }
const r = JSON.parse(m[1].replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, "\"").replace(/&#39;/g, "\x27").replace(/&amp;/g, "&"));
let bad = r.errors.length + r.wrapped.length;
for (const e of r.errors) console.log("  ERROR " + e);
for (const c of r.charts) {
  console.log("  chart " + c.index + " \"" + c.title + "\": " + c.texts + " texts, " + c.overlaps.length + " overlapping pairs, clearance " + c.clearance + " px, " + c.width + " px wide");
  // The worst few of each kind; the count says how many there are.
  const worst = c.overlaps.sort((x, y) => y.w * y.h - x.w * x.h).slice(0, 5);
  for (const o of worst) console.log("    OVERLAP \"" + o.a + "\" and \"" + o.b + "\" by " + o.w + " x " + o.h + " px");
  if (c.overlaps.length > worst.length) console.log("    ... and " + (c.overlaps.length - worst.length) + " more overlapping pairs");
  for (const o of c.clipped.slice(0, 5)) console.log("    CLIPPED \"" + o.text + "\" at " + JSON.stringify(o.box) + " in " + JSON.stringify(o.chart));
  if (c.clipped.length > 5) console.log("    ... and " + (c.clipped.length - 5) + " more clipped texts");
  bad += c.overlaps.length + c.clipped.length;
}
for (const w of r.wrapped) console.log("  WRAPPED text bar " + JSON.stringify(w));
console.log(r.height + " " + bad);
' "$out/$name.dom.html")
  echo "mermaid-check: $name ($f)"
  echo "$report" | sed '$d'
  read -r height bad <<<"$(echo "$report" | tail -n 1)"
  if [ "$bad" -gt 0 ]; then
    echo "mermaid-check: $name: $bad problems (above)" >&2
    status=1
  fi
  # No markup from input names may survive into the page.
  if grep -q '<img' "$out/$name.dom.html"; then
    echo "mermaid-check: $name: an <img> from an input name reached the rendered page" >&2
    status=1
  fi
  height=$(( height < 400 ? 400 : (height > 16000 ? 16000 : height) ))
  profile=$(mktemp -d)
  timeout 120 "$browser" "${flags[@]}" --user-data-dir="$profile" --window-size=$((width + 16)),"$height" \
    --virtual-time-budget=20000 --screenshot="$out/$name.png" "file://$out/$name.html" >/dev/null 2>&1 || true
  rm -rf "$profile"
  bytes=$(stat -c %s "$out/$name.png" 2>/dev/null || echo 0)
  if [ "$bytes" -lt 20000 ]; then
    echo "mermaid-check: $out/$name.png is only $bytes bytes: the page did not render" >&2
    status=1
  fi
  echo "  screenshot $out/$name.png ($bytes bytes, $((width + 16))x$height)"
done
[ "$status" -eq 0 ] && echo "mermaid-check: every chart drawn, no text overlapping or clipped, no text bar broken"
exit "$status"
