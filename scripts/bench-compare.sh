#!/usr/bin/env bash
# qoscal measures itself: builds the Go benchmarks of two commits of this
# repository and runs them interleaved on this machine (base, head, base,
# head, ... COUNT rounds), so that both see the same runner in the same
# minutes, and writes the two result files that 'qoscal gate' compares:
#   OUTDIR/base.txt   the base commit's benchmarks (go test -bench output)
#   OUTDIR/head.txt   the head commit's
# The benchmark job of .github/workflows/ci.yml runs exactly this, then
# gates head against base with the action; scripts/bench-selftest.sh runs it
# here on two commits, so that what the workflow does is tested.
#
# Usage: scripts/bench-compare.sh [-count N] [-benchtime T] BASE HEAD OUTDIR
#   BASE, HEAD: commits (anything git rev-parse takes). Defaults: 5 rounds,
#   200ms per benchmark per round.
set -euo pipefail
cd "$(dirname "$0")/.."
count=5
benchtime=200ms
while [ $# -gt 0 ]; do
  case "$1" in
    -count) count=$2; shift 2 ;;
    -benchtime) benchtime=$2; shift 2 ;;
    -*) echo "bench-compare: unknown flag $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $# -ne 3 ]; then
  echo "usage: scripts/bench-compare.sh [-count N] [-benchtime T] BASE HEAD OUTDIR" >&2
  exit 2
fi
base=$(git rev-parse --verify "$1^{commit}")
head=$(git rev-parse --verify "$2^{commit}")
out=$3
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The suite: package and benchmark pattern. Benchmarks that only one
# commit has are measured on that side only; the gate reports and leaves
# them out of the score. A package may be given as PATH|OLDPATH, for a
# benchmark whose package moved: each commit's tree runs it from the first
# of the paths it has (data/load's were in data before it was split).
suite=(
  "cmd/qoscal:^BenchmarkGate$"
  "calibrate/spread|calibrate:^BenchmarkAnalyze10000Runs$"
  "data/load|data:^BenchmarkReadLarge(Text|JSON)$"
  # qoscal measure's own CPU per invocation of a command: its bound
  # (scripts/bench-overhead.sh) is a benchmark's, compared here.
  "measure:^BenchmarkInvocation$"
)

# pkgdir prints the first of the |-separated package paths $2 that the
# tree $1 has, or nothing.
pkgdir() {
  local p
  local IFS='|'
  for p in $2; do
    if [ -d "$1/$p" ]; then
      echo "$p"
      return
    fi
  done
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Each commit's tree, from git (no worktree, nothing left in .git), and
# its test binaries, built before anything is timed.
for side in base head; do
  rev=${!side}
  mkdir -p "$work/$side"
  git archive "$rev" | tar -x -C "$work/$side"
  for entry in "${suite[@]}"; do
    pkg=$(pkgdir "$work/$side" "${entry%%:*}")
    name=${entry%%:*}
    name=${name//\//-}
    bin="$work/$side-${name//|/-}.test"
    if [ -n "$pkg" ]; then
      (cd "$work/$side" && go test -c -o "$bin" "./$pkg") || {
        echo "bench-compare: $side ($rev) does not build ./$pkg" >&2
        exit 1
      }
    fi
  done
done

: >"$out/base.txt"
: >"$out/head.txt"
for round in $(seq 1 "$count"); do
  for side in base head; do
    for entry in "${suite[@]}"; do
      pkg=$(pkgdir "$work/$side" "${entry%%:*}")
      pattern=${entry#*:}
      name=${entry%%:*}
      name=${name//\//-}
      bin="$work/$side-${name//|/-}.test"
      [ -x "$bin" ] || continue
      # A test binary runs in its package's folder (testdata, samples).
      (cd "$work/$side/$pkg" && "$bin" -test.run='^$' -test.bench="$pattern" \
        -test.benchtime="$benchtime" -test.count=1 -test.benchmem) >>"$out/$side.txt"
    done
  done
  echo "bench-compare: round $round of $count"
done
echo "bench-compare: base $base -> $out/base.txt, head $head -> $out/head.txt"
