#!/usr/bin/env bash
# Renders the HTML report of the bundled samples in headless Chromium, at a
# laptop's and a phone's width, and checks that the screenshots are real
# pictures. Needs Debian's chromium (apt-get install chromium); without it,
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
