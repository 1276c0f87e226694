#!/usr/bin/env bash
# bench-pg.sh measures qoscal's PostgreSQL store at scale, side by side
# with the SQLite store, on a throwaway server (scripts/pg-test-server.sh,
# with fsync on, as a real server runs):
#
#     scripts/bench-pg.sh [RUNS]      (default 100000)
#
#  1. Store.Ingest of RUNS runs × 10 benchmarks × 2 variants (20 × RUNS
#     measurements) in one call: SQLite, then PostgreSQL via COPY (the Go
#     benchmark BenchmarkIngest, so parsing is left out);
#  2. psql \copy of the same measurement rows as CSV into the same tables
#     (same keys and foreign keys): the engine's own limit;
#  3. qoscal ingest of the same runs from a CSV file into each backend
#     (parsing included), then runs --label os=linux (the store's read
#     alone) and recommend --label os=linux over them: time and peak
#     memory (half the runs carry os=linux);
#  4. 8 concurrent qoscal ingest processes × 200 runs each into one
#     PostgreSQL store (want 1,600 stored, 0 errors), then the same 200
#     runs from 8 processes at once into another (want 200 stored).
#
# It prints one line per measurement; the figures are for the machine it
# ran on.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-100000}
case "$runs" in
  '' | *[!0-9]*) echo "usage: $0 [RUNS]" >&2; exit 2 ;;
esac
if [ -z "${QOSCAL_TEST_PG:-}" ]; then
  export QOSCAL_PG_OPTIONS="-c fsync=on -c max_wal_size=4GB -c shared_buffers=512MB"
  exec scripts/pg-test-server.sh "$0" "$@"
fi
base=$QOSCAL_TEST_PG
work=$(mktemp -d "${TMPDIR:-/tmp}/qoscal-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

export PGOPTIONS="-c client_min_messages=warning"

# url SCHEMA makes an empty schema on the server and prints a URL for it.
url() {
  psql -q "$base" -c "DROP SCHEMA IF EXISTS $1 CASCADE; CREATE SCHEMA $1" >/dev/null
  echo "$base&options=-csearch_path%3D$1%20-cclient_min_messages%3Dwarning"
}
# measure LABEL COMMAND... runs COMMAND and prints its wall time and peak
# memory (RSS).
measure() {
  local label=$1
  shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/out" 2>"$work/err" || {
    echo "$label: failed:" >&2
    tail -n 5 "$work/err" >&2
    return 1
  }
  read -r secs kib <"$work/time"
  printf '%-58s %8.2f s  %7.0f MiB peak\n' "$label" "$secs" "$((kib / 1024))"
}

go build -o "$work/qoscal" ./cmd/qoscal
q=$work/qoscal
m=$((runs * 20))
echo "== $runs runs x 10 benchmarks x 2 variants = $m measurements"
echo "== $(psql -Atq "$base" -c 'SELECT version()' | cut -d, -f1), fsync on; $(nproc) cores"

echo "-- 1. Store.Ingest in one call (go test -bench BenchmarkIngest)"
QOSCAL_BENCH_RUNS=$runs go test ./data/store -run '^$' -bench '^BenchmarkIngest$' -benchtime 1x -timeout 60m |
  awk '/^BenchmarkIngest\// {printf "%-58s %8.2f s  %9.0f measurements/s\n", $1, $3/1e9, $5}'

# The same runs as CSV: linux.csv and mac.csv hold half each (the Go
# benchmark's labels), values from awk's seeded generator.
awk -v n="$runs" -v f="$work" 'BEGIN {
  srand(1)
  print "run,benchmark,variant,value,unit,role" > (f "/linux.csv")
  print "run,benchmark,variant,value,unit,role" > (f "/mac.csv")
  for (i = 0; i < n; i++) {
    out = (i % 2 == 0) ? (f "/linux.csv") : (f "/mac.csv")
    for (b = 0; b < 10; b++) {
      v = 1000 * (b + 1)
      printf "run-%07d,bench-%02d,glibc,%.4f,ops/sec,baseline\n", i, b, v * (1 + 0.03 * (rand() - 0.5)) > out
      printf "run-%07d,bench-%02d,mimalloc,%.4f,ops/sec,candidate\n", i, b, 1.2 * v * (1 + 0.03 * (rand() - 0.5)) > out
      # seq, series, sample, value: the measurements table rows
      # themselves, for psql \copy (series 100 + 2 × benchmark + variant).
      printf "%d,%d,0,%.4f\n", i + 1, 100 + 2 * b, v > (f "/rows.csv")
      printf "%d,%d,0,%.4f\n", i + 1, 101 + 2 * b, 1.2 * v > (f "/rows.csv")
    }
  }
}'

echo "-- 2. psql \\copy of the $m measurement rows as CSV (the engine's limit)"
copy_url=$(url bench_copy)
printf 'run,benchmark,variant,value,unit,role\nr,b,v,1,ops/sec,baseline\nr,b,w,1,ops/sec,candidate\n' >"$work/one.csv"
"$q" ingest --db "$copy_url" "$work/one.csv" >/dev/null 2>&1
psql -q "$copy_url" -c "TRUNCATE runs CASCADE; INSERT INTO runs (seq, id, source, digest, ingested_at) SELECT g, 'run-' || g, 'x', 'd', 't' FROM generate_series(1, $runs) g;
  INSERT INTO series (id, variant, benchmark, unit) SELECT 100 + 2 * b + v, (ARRAY['glibc', 'mimalloc'])[v + 1], 'bench-' || lpad(b::text, 2, '0'), 'ops/sec' FROM generate_series(0, 9) b, generate_series(0, 1) v" >/dev/null
start=$(date +%s.%N)
psql -q "$copy_url" -c "\\copy measurements (run_seq, series, sample, value) FROM '$work/rows.csv' CSV"
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" -v m="$m" 'BEGIN {printf "%-58s %8.2f s  %9.0f measurements/s\n", "psql \\copy into measurements", e - s, m / (e - s)}'
psql -q "$base" -c "DROP SCHEMA bench_copy CASCADE" >/dev/null

echo "-- 3. qoscal ingest of the CSV files (parsing included), then recommend --label os=linux"
export SOURCE_DATE_EPOCH=1796112000
pg_url=$(url bench_store)
sq=$work/q.db
measure "ingest linux.csv ($((runs / 2)) runs) into SQLite" "$q" ingest --db "$sq" --label os=linux "$work/linux.csv"
measure "ingest mac.csv ($((runs - runs / 2)) runs) into SQLite" "$q" ingest --db "$sq" --label os=mac "$work/mac.csv"
measure "ingest linux.csv ($((runs / 2)) runs) into PostgreSQL" "$q" ingest --db "$pg_url" --label os=linux "$work/linux.csv"
measure "ingest mac.csv ($((runs - runs / 2)) runs) into PostgreSQL" "$q" ingest --db "$pg_url" --label os=mac "$work/mac.csv"
measure "runs --label os=linux --format json over $runs, SQLite" "$q" runs --db "$sq" --label os=linux --format json
measure "runs --label os=linux --format json over $runs, PostgreSQL" "$q" runs --db "$pg_url" --label os=linux --format json
measure "recommend --label os=linux over $runs runs, SQLite" "$q" recommend --db "$sq" --label os=linux
measure "recommend --label os=linux over $runs runs, PostgreSQL" "$q" recommend --db "$pg_url" --label os=linux
psql -q "$base" -c "DROP SCHEMA bench_store CASCADE" >/dev/null

echo "-- 4. 8 concurrent qoscal ingest processes x 200 runs"
for p in 0 1 2 3 4 5 6 7; do
  awk -v p="$p" 'BEGIN {
    print "run,benchmark,variant,value,unit,role"
    for (i = 0; i < 200; i++) for (b = 0; b < 10; b++) {
      printf "job%d-run-%03d,bench-%02d,glibc,%d,ops/sec,baseline\n", p, i, b, 1000 + i + b
      printf "job%d-run-%03d,bench-%02d,mimalloc,%d,ops/sec,candidate\n", p, i, b, 1200 + i + b
    }
  }' >"$work/job$p.csv"
done
sed 's/^job0-//' "$work/job0.csv" >"$work/same.csv"
# parallel URL FILE: 8 ingests at once, of FILE with @ replaced by the
# process number; prints how many failed.
parallel() {
  local u=$1 pattern=$2 failed=0 pids=()
  for p in 0 1 2 3 4 5 6 7; do
    "$q" ingest --db "$u" "${pattern//@/$p}" >"$work/par$p.out" 2>"$work/par$p.err" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do
    wait "$pid" || failed=$((failed + 1))
  done
  echo "$failed"
}
# concurrently SCHEMA PATTERN WHAT WANT: 8 ingests of PATTERN into a new
# store in SCHEMA, then how many runs it holds against WANT.
concurrently() {
  local u start end errors stored
  u=$(url "$1")
  start=$(date +%s.%N)
  errors=$(parallel "$u" "$2")
  end=$(date +%s.%N)
  stored=$("$q" runs --db "$u" --format json | grep -c '"id":')
  awk -v s="$start" -v e="$end" -v w="$3" -v st="$stored" -v want="$4" -v er="$errors" \
    'BEGIN {printf "%-58s %8.2f s  %d of %d stored, %d errors\n", w, e - s, st, want, er}'
}
concurrently bench_distinct "$work/job@.csv" "8 processes x 200 distinct runs into one store" 1600
concurrently bench_same "$work/same.csv" "8 processes x the same 200 runs into one store" 200
psql -q "$base" -c "DROP SCHEMA bench_distinct CASCADE; DROP SCHEMA bench_same CASCADE" >/dev/null
