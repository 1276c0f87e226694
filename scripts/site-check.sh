#!/usr/bin/env bash
# Checks the history site (qoscal site) in headless Chromium: runs
# TestSiteBrowser, which builds the site of a generated history (1,000 runs
# of 50 benchmarks, two calibrations, verdicts of every kind, marks, a
# regime change, hostile benchmark names) and checks it from disk at 1280
# and 390 CSS pixels: no request leaves the page, no error, the status
# line, the score chart's floor and verdict colours, the what-changed
# table, the filter, no sideways scroll, hostile names inert; it prints
# the first paint's time from Chromium's trace, and TestSiteScale the
# data's size and the time the site took to write. Needs Debian's chromium
# (apt-get install chromium): without it the test skips, or fails when
# QOSCAL_REQUIRE_BROWSER is set (as .ci/run sets it).
# Usage: scripts/site-check.sh [SHOTS]   (SHOTS: a folder to write the
#   screenshots docs/ shows, site-desktop.png and site-phone.png)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${1:-}" ]; then
  mkdir -p "$1"
  export QOSCAL_SITE_SHOTS
  QOSCAL_SITE_SHOTS=$(cd "$1" && pwd)
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
QOSCAL_SLOW_TESTS=1 go test -count=1 -v -run 'TestSiteBrowser|TestSiteScale' ./cmd/qoscal >"$log" 2>&1 || status=$?
grep -E '^(--- |ok|FAIL|PASS)|site_(browser_)?test.go|skip' "$log" || cat "$log"
if [ -n "${QOSCAL_REQUIRE_BROWSER:-}" ] && grep -q -- '--- SKIP: TestSiteBrowser' "$log"; then
  echo "site-check: TestSiteBrowser skipped, and QOSCAL_REQUIRE_BROWSER is set" >&2
  exit 1
fi
exit $status
