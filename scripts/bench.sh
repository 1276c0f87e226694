#!/usr/bin/env bash
# Measures qoscal at scale, side by side with sqlite3 on the same rows
# (issue 19): for each size it generates that many runs of unchanged code
# (10 benchmarks × 2 variants each, scripts/benchgen), then times, with
# peak memory from /usr/bin/time -v:
#
#   ingest of the run folders, and of the same runs as one CSV file,
#     against sqlite3 .import of the same rows (as CSV, into a plain table:
#     the reference), and into the store's own keyed tables (series and
#     measurements, as qoscal's schema version 2 has them);
#   store copy of the CSV's store into a new SQLite store;
#   spread and recommend from the store, and from the CSV file,
#     against sqlite3 reading the same measurements out of the store
#     (select ... from measurements, joined with series for their names);
#   the gate on the seed's pair (data/samples/windows-hoard-first-measurement),
#     the median of 21 runs.
#
# then the peak memory of ingest and store copy at each size against the
# smallest (streamed, it should not grow with the runs), and last the Go
# benchmarks that set qoscal's store against the pure-Go SQLite engine it
# is built on, doing only the same SQL (data/store/sqlite/engine_bench_test.go).
#
# Absolute times vary with the machine and its load; the ratios are what
# to compare: of CPU time (user + system, which the load of a shared
# machine disturbs far less), and of wall time (ingest parses on one core
# while it stores on another, so its wall time is less than its CPU time).
# Every command runs once per size (single runs, not medians: rerun for a
# second opinion).
#
# Usage: scripts/bench.sh [RUNS...]   (default: 1000 10000)
# Needs sqlite3 and GNU time (apt-get install -y sqlite3 time).
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in sqlite3 /usr/bin/time; do
  if ! command -v "$tool" >/dev/null; then
    echo "bench: $tool is missing (apt-get install -y sqlite3 time)" >&2
    exit 1
  fi
done
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/qoscal" ./cmd/qoscal
go build -o "$work/benchgen" ./scripts/benchgen
q="$work/qoscal"

# measure NAME CMD...: runs CMD once, and sets secs (wall time, from the
# shell's clock: time -v rounds to 10 ms), cpu (user + system seconds) and
# rss (peak MiB), from /usr/bin/time -v; CMD's stdout is dropped, its
# stderr kept in $work/err. The ratios are of CPU time, which the load of
# a shared machine disturbs far less than wall time.
measure() {
  local name=$1
  shift
  local start=$EPOCHREALTIME
  if ! /usr/bin/time -v -o "$work/time" "$@" >/dev/null 2>"$work/err"; then
    echo "bench: $name failed:" >&2
    cat "$work/err" >&2
    exit 1
  fi
  secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.4f", b - a}')
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2 / 1024}' "$work/time")
  cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.2f", s}' "$work/time")
}

printf '%-8s %-44s %8s %8s %12s %9s %9s %9s\n' runs what wall-s cpu-s meas/cpu-s RSS-MiB cpu-ratio wall-ratio
row() { # runs what cpu measurements rss cpu-ratio [wall-ratio] (wall time from $secs)
  local rate
  rate=$(awk -v m="$4" -v s="$3" 'BEGIN {printf "%.0f", (s > 0 ? m / s : 0)}')
  printf '%-8s %-44s %8.2f %8.2f %12s %9s %9s %9s\n' "$1" "$2" "$secs" "$3" "$rate" "$5" "$6" "${7:--}"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1fx", (b > 0 ? a / b : 0)}'; }

mem_folders=() mem_csv=() mem_copy=()
for n in "${sizes[@]}"; do
  d="$work/d$n"
  "$work/benchgen" -runs "$n" -out "$d"
  m=$((n * 20))

  # The reference: sqlite3 imports the same rows into a plain table.
  sqlite3 "$d/ref.db" 'CREATE TABLE measurements (run TEXT, benchmark TEXT, variant TEXT, value REAL, unit TEXT, role TEXT, os TEXT);'
  measure "sqlite3 .import" sqlite3 "$d/ref.db" '.mode csv' ".import $d/rows.csv measurements"
  ref_ingest=$cpu ref_ingest_wall=$secs
  row "$n" "sqlite3 .import, plain table (reference)" "$cpu" "$m" "$rss" 1.0x 1.0x
  # And into the store's keyed tables: each series once, measurements by
  # series number (the rows made so beforehand, untimed).
  awk -F, -v OFS=, '{
      key = $3 FS $2 FS $5
      if (!(key in id)) { id[key] = ++ids; print ids, $3, $2, $5 > "/dev/stderr" }
      run = $1; sub(/^run-0*/, "", run)
      print run, id[key], 0, $4
    }' "$d/rows.csv" >"$d/keyed.csv" 2>"$d/series.csv"
  sqlite3 "$d/keyed.db" 'CREATE TABLE series (id INTEGER PRIMARY KEY, variant TEXT NOT NULL, benchmark TEXT NOT NULL, unit TEXT NOT NULL, UNIQUE (variant, benchmark, unit));
    CREATE TABLE measurements (run_seq INTEGER NOT NULL, series INTEGER NOT NULL, sample INTEGER NOT NULL, value REAL NOT NULL, PRIMARY KEY (run_seq, series, sample)) WITHOUT ROWID;'
  measure "sqlite3 .import keyed" sqlite3 "$d/keyed.db" '.mode csv' ".import $d/series.csv series" ".import $d/keyed.csv measurements"
  row "$n" "sqlite3 .import, the store's keyed tables" "$cpu" "$m" "$rss" "$(ratio "$cpu" "$ref_ingest")" "$(ratio "$secs" "$ref_ingest_wall")"

  measure "ingest folders" "$q" ingest --db "$d/folders.db" --baseline system=system.txt --candidate hoard=hoard.txt "$d/folders"
  row "$n" "qoscal ingest (run folders)" "$cpu" "$m" "$rss" "$(ratio "$cpu" "$ref_ingest")" "$(ratio "$secs" "$ref_ingest_wall")"
  mem_folders+=("$n $rss")
  measure "ingest csv" "$q" ingest --db "$d/csv.db" "$d/runs.csv"
  row "$n" "qoscal ingest (one CSV)" "$cpu" "$m" "$rss" "$(ratio "$cpu" "$ref_ingest")" "$(ratio "$secs" "$ref_ingest_wall")"
  mem_csv+=("$n $rss")
  measure "store copy" "$q" store copy --from "$d/csv.db" --to "$d/copy.db"
  row "$n" "qoscal store copy (SQLite to SQLite)" "$cpu" "$m" "$rss" "$(ratio "$cpu" "$ref_ingest")" "$(ratio "$secs" "$ref_ingest_wall")"
  mem_copy+=("$n $rss")

  measure "sqlite3 select" sqlite3 "$d/csv.db" 'SELECT m.run_seq, s.variant, s.benchmark, m.sample, m.value, s.unit FROM measurements m JOIN series s ON s.id = m.series;'
  ref_read=$cpu ref_read_wall=$secs
  row "$n" "sqlite3 select, with names (reference)" "$cpu" "$m" "$rss" 1.0x 1.0x
  measure "sqlite3 select numbers" sqlite3 "$d/csv.db" 'SELECT run_seq, series, sample, value FROM measurements;'
  row "$n" "sqlite3 select, numbers only" "$cpu" "$m" "$rss" "$(ratio "$cpu" "$ref_read")" "$(ratio "$secs" "$ref_read_wall")"
  measure "spread --db" "$q" spread --db "$d/csv.db"
  spread=$cpu spread_wall=$secs
  row "$n" "qoscal spread --db" "$cpu" "$m" "$rss" "$(ratio "$cpu" "$ref_read")" "$(ratio "$secs" "$ref_read_wall")"
  measure "recommend --db" "$q" recommend --db "$d/csv.db"
  row "$n" "qoscal recommend --db" "$cpu" "$m" "$rss" "$(ratio "$cpu" "$ref_read")" "$(ratio "$secs" "$ref_read_wall")"
  both=$(awk -v a="$spread" -v b="$cpu" 'BEGIN {print a + b}')
  secs=$(awk -v a="$spread_wall" -v b="$secs" 'BEGIN {print a + b}')
  row "$n" "spread + recommend --db" "$both" "$m" - "$(ratio "$both" "$ref_read")" "$(ratio "$secs" "$ref_read_wall")"
  measure "spread csv" "$q" spread "$d/runs.csv"
  row "$n" "qoscal spread (CSV)" "$cpu" "$m" "$rss" -
  measure "recommend csv" "$q" recommend "$d/runs.csv"
  row "$n" "qoscal recommend (CSV)" "$cpu" "$m" "$rss" -
  rm -rf "$d"
done

# The gate on the seed's pair: the median wall time of 21 runs.
seed=data/samples/windows-hoard-first-measurement
for i in $(seq 21); do
  measure gate "$q" gate --floor 1.25 --annotations none --baseline "system=$seed/baseline.txt" --candidate "hoard=$seed/hoard.txt"
  echo "$secs $cpu $rss"
done | sort -n | awk 'NR == 11 {printf "%-8s %-44s %8.3f %8.2f %12s %9s %9s %9s\n", 1, "qoscal gate (seed pair, median of 21)", $1, $2, "-", $3, "-", "-"}'

# Peak memory of ingest and store copy against the smallest size: flat in
# the number of runs means a ratio near 1 (issue 19: within 2x).
echo
printf '%-38s %8s %9s %7s\n' "peak memory against ${sizes[0]} runs" runs RSS-MiB ratio
memrows() { # what "runs rss"...
  local what=$1 first=""
  shift
  for e in "$@"; do
    set -- $e
    [ -n "$first" ] || first=$2
    printf '%-38s %8s %9s %7s\n' "$what" "$1" "$2" "$(ratio "$2" "$first")"
  done
}
memrows "qoscal ingest (run folders)" "${mem_folders[@]}"
memrows "qoscal ingest (one CSV)" "${mem_csv[@]}"
memrows "qoscal store copy" "${mem_copy[@]}"

# qoscal's store against the pure-Go SQLite engine it is built on
# (modernc.org/sqlite's), 10,000 runs × 20 measurements, in one go test
# run: Ingest10000 and StoreRuns10000 are the store's ingest and read;
# EngineInsert10000 and EngineSelect10000 do only their SQL, through the
# same binding (zombiezen.com/go/sqlite), with every argument made beforehand.
# The ratio of each pair is qoscal's overhead over its engine: the
# ingest's digests and checks, the read's Go values of every run.
echo
go test -run '^$' -bench 'Ingest10000$|EngineInsert10000$|StoreRuns10000$|EngineSelect10000$' -benchmem -count 1 ./data/store/sqlite |
  awk '/^Benchmark/ {name = $1; sub(/-[0-9]+$/, "", name); ns[name] = $3; print}
    END {
      if (ns["BenchmarkEngineInsert10000"] > 0) printf "store ingest / engine insert: %.2fx\n", ns["BenchmarkIngest10000"] / ns["BenchmarkEngineInsert10000"]
      if (ns["BenchmarkEngineSelect10000"] > 0) printf "store read / engine select:   %.2fx\n", ns["BenchmarkStoreRuns10000"] / ns["BenchmarkEngineSelect10000"]
    }'
