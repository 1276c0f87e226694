#!/usr/bin/env bash
# What qoscal's binary weighs, and what each module costs in it (issue 36,
# docs/scale.md): builds linux/amd64 as a release does, with and without
# its symbol tables (-s -w), then adds up `go tool nm -size` by the module
# each symbol belongs to (the longest module path it starts with; the rest
# is the standard library, the runtime's tables and the types). Symbols in
# .bss and .noptrbss (from runtime.bss on) take no room in the file and
# are left out; the sum is the symbols' share of the file, which also
# holds the function tables (.gopclntab) and the headers.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build() {
  GOFLAGS=-buildvcs=false CGO_ENABLED=0 GOOS=linux GOARCH=amd64 GOAMD64=v1 go build -trimpath "$@" ./cmd/qoscal
}
build -o "$work/full"
build -ldflags '-s -w -buildid=' -o "$work/stripped"
full=$(wc -c <"$work/full")
stripped=$(wc -c <"$work/stripped")
gz=$(gzip -9 -n -c "$work/stripped" | wc -c)
awk -v f="$full" -v s="$stripped" -v g="$gz" 'BEGIN {
  printf "linux/amd64: %.1f MB with symbols, %.1f MB stripped (-s -w), %.1f MB gzipped\n", f/1e6, s/1e6, g/1e6 }'
GOOS=linux GOARCH=amd64 go list -deps -f '{{if .Module}}{{.Module.Path}}{{end}}' ./cmd/qoscal | sort -u >"$work/mods"
go tool nm -size "$work/full" >"$work/nm"
awk '
  FNR == 1 { pass++ }
  pass == 1 { mods[++n] = $0; next }
  pass == 2 { if ($4 == "runtime.bss") bss = $1; next }
  {
    if (length($1) == length(bss) ? $1 >= bss : length($1) > length(bss)) next
    name = $4
    sub(/^(type:\.eq\.|type:|go:itab\.|go:)/, "", name)
    sub(/^[*(]+/, "", name)
    best = ""
    for (i = 1; i <= n; i++) {
      m = mods[i]
      if (length(m) > length(best) && (index(name, m ".") == 1 || index(name, m "/") == 1)) best = m
    }
    if (best == "") best = ($4 ~ /^(go:|type:|runtime\.)/) ? "(the runtime, its tables and the types)" : "(the standard library)"
    size[best] += $2
    total += $2
  }
  END {
    for (m in size) printf "%8.2f MB  %5.1f%%  %s\n", size[m]/1e6, 100*size[m]/total, m | "sort -rn"
    close("sort -rn")
    printf "%8.2f MB  the symbols in all\n", total/1e6
  }' "$work/mods" "$work/nm" "$work/nm"
