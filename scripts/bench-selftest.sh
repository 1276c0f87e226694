#!/usr/bin/env bash
# Runs here what the benchmark job of .github/workflows/ci.yml does on a
# pull request, on two commits of this repository (HEAD~1 and HEAD, or
# HEAD twice in a clone without history): qoscal's own Go benchmarks,
# interleaved (scripts/bench-compare.sh, short rounds), then the gate on
# them as the job runs it, report-only with --emit-meta, and the result
# folder read back as the artifact the job uploads.
# Usage: scripts/bench-selftest.sh [OUTDIR]   (default: a temporary folder)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-$(mktemp -d)}
mkdir -p "$out"
base=HEAD~1
git rev-parse --verify -q "$base^{commit}" >/dev/null || base=HEAD
scripts/bench-compare.sh -count 2 -benchtime 1x "$base" HEAD "$out/bench-run-1"
go build -o "$out/qoscal" ./cmd/qoscal
for f in base head; do
  for b in BenchmarkGate BenchmarkAnalyze10000Runs BenchmarkReadLargeText BenchmarkInvocation; do
    n=$(grep -c "^$b-[0-9]* " "$out/bench-run-1/$f.txt" || true)
    if [ "$n" -ne 2 ]; then
      echo "bench-selftest: $f.txt holds $n samples of $b, want 2" >&2
      exit 1
    fi
  done
done
# The job's gate step (the action runs the same command line).
GITHUB_RUN_ID=1 GITHUB_RUN_ATTEMPT=1 RUNNER_OS=Linux RUNNER_NAME=selftest \
  "$out/qoscal" gate --report-only --floor 0.9 --emit-meta \
  --baseline base=base.txt --candidate head=head.txt "$out/bench-run-1"
# The uploaded artifact, read back as a calibration run would read it.
"$out/qoscal" ingest --db "$out/q.db" --baseline base=base.txt --candidate head=head.txt "$out"
"$out/qoscal" runs --db "$out/q.db" | grep -q '^bench-run-1 .*os=linux,runner=selftest' || {
  echo "bench-selftest: the run folder did not read back with its qoscal.json labels" >&2
  "$out/qoscal" runs --db "$out/q.db" >&2
  exit 1
}
echo "bench-selftest: passed ($out)"
