#!/usr/bin/env bash
# Renders every ```mermaid block of the step-summary report (qoscal report
# --summary) with the mermaid package from npm in headless Chromium, from a
# local page with nothing fetched, and fails on a parse or render error: a
# chart that GitHub would refuse is a failed check. Keeps a screenshot of
# the rendered charts to look at (OUTDIR/mermaid.png).
#
# Needs node/npm (to install mermaid into a cache folder) and Debian's
# chromium. Without them it says so and exits 0, or fails when
# QOSCAL_REQUIRE_BROWSER is set (as .ci/run sets it).
# Usage: scripts/mermaid-check.sh [OUTDIR] [FILE.md...]
#   (default OUTDIR: a temporary folder; default FILE: the report of the
#   bundled Linux sample, and one of names shaped like markup and
#   workflow commands)
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

# The mermaid package, once per machine (pinned major version: GitHub
# renders with a current Mermaid 11).
cache=${QOSCAL_MERMAID_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/qoscal-mermaid}
if [ ! -f "$cache/node_modules/mermaid/dist/mermaid.min.js" ]; then
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-audit --no-fund --silent mermaid@11 >/dev/null
fi

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  go build -o "$out/qoscal" ./cmd/qoscal
  rm -f "$out/summary.md"
  "$out/qoscal" report --summary "$out/summary.md" \
    --baseline glibc=baseline.txt --candidate mimalloc=mimalloc.txt \
    data/samples/linux-glibc-vs-mimalloc/healthy 2>/dev/null
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
  "$out/qoscal" report --higher-is-better --summary "$out/summary.md" "$out/hostile.csv" 2>/dev/null
  files=("$out/summary.md")
fi

# The blocks, as a JSON list of strings, into a local page.
OUT="$out" node -e '
const fs = require("fs");
const blocks = [];
for (const f of process.argv.slice(1)) {
  const re = /^```mermaid\n([\s\S]*?)^```$/gm;
  let m;
  while ((m = re.exec(fs.readFileSync(f, "utf8")))) blocks.push(m[1]);
}
if (blocks.length === 0) {
  console.error("mermaid-check: no mermaid block in " + process.argv.slice(1).join(" "));
  process.exit(1);
}
fs.writeFileSync(process.env.OUT + "/blocks.js", "window.BLOCKS = " + JSON.stringify(blocks) + ";\n");
console.log("mermaid-check: " + blocks.length + " mermaid blocks");
' "${files[@]}"
n=$(node -e 'global.window = {}; require(process.argv[1]); console.log(window.BLOCKS.length)' "$out/blocks.js")
cp "$cache/node_modules/mermaid/dist/mermaid.min.js" "$out/"
cat > "$out/mermaid.html" <<'HTML'
<!doctype html>
<html><head><meta charset="utf-8"><title>mermaid check</title>
<style>body { font-family: sans-serif; width: 1100px; } #charts > div { margin: 1em 0; }</style>
</head><body>
<pre id="result">pending</pre>
<div id="charts"></div>
<script src="mermaid.min.js"></script>
<script src="blocks.js"></script>
<script>
mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });
(async () => {
  const errs = [];
  for (let i = 0; i < window.BLOCKS.length; i++) {
    try {
      await mermaid.parse(window.BLOCKS[i]);
      const { svg } = await mermaid.render("chart" + i, window.BLOCKS[i]);
      if (!svg.includes("<svg") || svg.includes("Syntax error")) throw new Error("no chart drawn");
      const d = document.createElement("div");
      d.innerHTML = svg;
      document.getElementById("charts").appendChild(d);
    } catch (e) {
      errs.push("block " + i + ": " + ((e && e.message) || e));
    }
  }
  document.getElementById("result").textContent =
    errs.length ? "ERRORS\n" + errs.join("\n") : "RENDERED " + window.BLOCKS.length;
})();
</script>
</body></html>
HTML
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
  --disable-background-networking --disable-component-update --disable-sync
  --allow-file-access-from-files --virtual-time-budget=20000)
profile=$(mktemp -d)
timeout 120 "$browser" "${flags[@]}" --user-data-dir="$profile" --dump-dom \
  "file://$out/mermaid.html" >"$out/dom.html" 2>/dev/null || true
rm -rf "$profile"
if ! grep -q "RENDERED $n<" "$out/dom.html"; then
  echo "mermaid-check: the Mermaid blocks did not all render:" >&2
  sed -n '/<pre id="result">/,/<\/pre>/p' "$out/dom.html" >&2
  exit 1
fi
# No markup from input names may survive into the drawn charts.
if grep -q '<img' "$out/dom.html"; then
  echo "mermaid-check: an <img> from an input name reached the rendered page" >&2
  exit 1
fi
profile=$(mktemp -d)
timeout 120 "$browser" "${flags[@]}" --user-data-dir="$profile" --window-size=1200,4000 \
  --screenshot="$out/mermaid.png" "file://$out/mermaid.html" >/dev/null 2>&1 || true
rm -rf "$profile"
bytes=$(stat -c %s "$out/mermaid.png" 2>/dev/null || echo 0)
if [ "$bytes" -lt 20000 ]; then
  echo "mermaid-check: $out/mermaid.png is only $bytes bytes: the charts did not render" >&2
  exit 1
fi
echo "mermaid-check: $n blocks rendered; screenshot $out/mermaid.png ($bytes bytes)"
