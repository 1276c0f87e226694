#!/usr/bin/env bash
# Renders the HTML report of the bundled samples in headless Chromium, at a
# laptop's and a phone's width, checks that the screenshots are real
# pictures, and measures the page at each width: it fails when a table is
# wider than its column without a scroll container around it, when the page
# itself scrolls sideways, or when the smallest chart text is rendered under
# 11 CSS pixels. The measuring script runs in a copy of the report (the
# report itself has no scripts); its result is read with --dump-dom.
# Then TestReportBrowser shows the report in a frame of a phone's true
# viewport (390 by 844; the window above is at least 500 px wide, so the
# body is held to 390 px) and of a laptop's: no sideways scroll, every
# chart and its text (the floor's label among it) within the width, no
# run id over two lines. Needs Debian's chromium (apt-get install chromium); without it,
# says so and exits 0, or fails when QOSCAL_REQUIRE_BROWSER is set (as
# .ci/run sets it, after installing chromium).
# Usage: scripts/browser-check.sh [OUTDIR]   (default: a temporary folder)
set -euo pipefail
cd "$(dirname "$0")/.."
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  if [ -n "${QOSCAL_REQUIRE_BROWSER:-}" ]; then
    echo "browser-check: no chromium on this machine, and QOSCAL_REQUIRE_BROWSER is set" >&2
    exit 1
  fi
  echo "browser-check: no chromium on this machine; skipped"
  exit 0
fi
out=${1:-$(mktemp -d)}
mkdir -p "$out"
go run ./cmd/qoscal report --out "$out/report.html" \
  --baseline glibc=baseline.txt --candidate mimalloc=mimalloc.txt \
  data/samples/linux-glibc-vs-mimalloc/healthy 2>/dev/null
for size in 1280,3000 390,5000; do
  name="$out/report-${size%,*}px.png"
  profile=$(mktemp -d)
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --window-size="$size" --screenshot="$name" \
    "file://$(cd "$out" && pwd)/report.html" >/dev/null 2>&1
  rm -rf "$profile"
  bytes=$(stat -c %s "$name" 2>/dev/null || echo 0)
  # A blank page compresses to a few kilobytes; the report with its charts
  # is far larger.
  if [ "$bytes" -lt 50000 ]; then
    echo "browser-check: $name is only $bytes bytes: the report did not render" >&2
    exit 1
  fi
  echo "browser-check: $name ($bytes bytes)"
done

# The measurement: a copy of the report with a script that writes what it
# finds into the page, read back with --dump-dom at each width.
cat > "$out/measure.js" <<'JS'
addEventListener('load', () => {
  const bad = [];
  for (const t of document.querySelectorAll('table')) {
    const box = t.parentElement;
    const ov = getComputedStyle(box).overflowX;
    if (t.scrollWidth > box.clientWidth + 1 && ov !== 'auto' && ov !== 'scroll') bad.push('table overflows without a scroll container');
  }
  const W = document.body.clientWidth;
  if (document.body.scrollWidth > W + 1) bad.push('the page scrolls sideways (' + document.body.scrollWidth + ' px in ' + W + ')');
  let min = Infinity;
  for (const svg of document.querySelectorAll('figure svg')) {
    // Each chart is there twice, for a desktop and a phone: the one not
    // shown at this width has no box.
    const shown = svg.getBoundingClientRect().width;
    if (shown === 0) continue;
    const scale = shown / svg.viewBox.baseVal.width;
    for (const t of svg.querySelectorAll('text')) {
      min = Math.min(min, parseFloat(getComputedStyle(t).fontSize) * scale);
    }
  }
  const p = document.createElement('pre');
  p.id = 'measure';
  p.textContent = 'MEASURE min-chart-text=' + min.toFixed(2) + ' width=' + W + ' problems=' + (bad.join('; ') || 'none');
  document.body.appendChild(p);
});
JS
fail=0
for size in 1280,3000 390,5000; do
  # Headless Chromium's window is at least 500 px wide: the body is held to
  # the width measured instead.
  sed "s|</head>|<style>body { width: ${size%,*}px; }</style><script src=\"measure.js\"></script></head>|" "$out/report.html" > "$out/report-measure.html"
  profile=$(mktemp -d)
  line=$(timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --allow-file-access-from-files --user-data-dir="$profile" --window-size="$size" --dump-dom \
    "file://$(cd "$out" && pwd)/report-measure.html" 2>/dev/null | grep -o 'MEASURE[^<]*' || true)
  rm -rf "$profile"
  if [ -z "$line" ]; then
    echo "browser-check: at ${size%,*} px the measuring script reported nothing" >&2
    fail=1
    continue
  fi
  echo "browser-check: ${size%,*} px: ${line#MEASURE }"
  min=$(echo "$line" | sed 's/.*min-chart-text=\([0-9.]*\).*/\1/')
  if ! awk -v m="$min" 'BEGIN { exit !(m >= 11) }'; then
    echo "browser-check: at ${size%,*} px the smallest chart text is $min px, under 11" >&2
    fail=1
  fi
  case "$line" in *"problems=none"*) ;; *) echo "browser-check: at ${size%,*} px: ${line#*problems=}" >&2; fail=1 ;; esac
done

log="$out/report-browser-test.log"
QOSCAL_SLOW_TESTS=1 go test -count=1 -v -run 'TestReportBrowser' ./cmd/qoscal >"$log" 2>&1 || fail=1
grep -E '^(--- |    --- |ok|FAIL|PASS)|report_browser_test.go' "$log" || cat "$log"
if [ -n "${QOSCAL_REQUIRE_BROWSER:-}" ] && grep -q -- '--- SKIP: TestReportBrowser' "$log"; then
  echo "browser-check: TestReportBrowser skipped, and QOSCAL_REQUIRE_BROWSER is set" >&2
  fail=1
fi
exit $fail
