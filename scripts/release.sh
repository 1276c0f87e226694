#!/usr/bin/env bash
# Builds a qoscal release: scripts/release.sh VERSION OUTDIR
#
# VERSION is the release's version, 1.2.3 or its tag v1.2.3. OUTDIR gets
#   qoscal_VERSION_OS_ARCH.tar.gz   linux and darwin, amd64 and arm64
#   qoscal_VERSION_windows_ARCH.zip windows, amd64 and arm64
#   qoscal_VERSION_checksums.txt    the SHA-256 of each, as sha256sum -c reads it
# each archive holding the binary (qoscal, qoscal.exe), README.md and
# LICENSE. docs/releasing.md says how a release is made.
#
# Reproducible: two runs on one commit give the same bytes, here or on
# GitHub's runner (the release workflow checks its build against the
# checksums committed in release/checksums/). Nothing is fetched but the
# Go modules go.sum pins (from the module cache when it has them); the
# binaries are built without cgo, with -trimpath, an empty build id,
# without symbol tables and DWARF (-s -w), with the Go that
# release/go-version names (another Go builds other bytes: refused unless
# QOSCAL_RELEASE_ANY_GO=1), and the version and commit set with -X; the
# archives (scripts/archive) have one time, the commit's, no owner, and a
# fixed order and modes.
#
# The commit is the last one that changed anything but release/checksums/
# (built from its files, not the checkout's):
# the commit that adds a release's checksums file (made after this script
# ran, before the tag) builds the same bytes as the one before it.
set -euo pipefail

usage() {
  echo "usage: scripts/release.sh VERSION OUTDIR   (VERSION: 1.2.3 or v1.2.3)" >&2
  exit 2
}
[ $# -eq 2 ] || usage
version=${1#v}
out=$2
if ! [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
  echo "release.sh: version '$1' is not MAJOR.MINOR.PATCH (with an optional -PRERELEASE)" >&2
  exit 2
fi
tag=v$version
cd "$(dirname "$0")/.."
root=$PWD
case $out in /*) ;; *) out=$root/$out ;; esac

want_go=go$(tr -d ' \r\n' <release/go-version)
have_go=$(go env GOVERSION)
if [ "$have_go" != "$want_go" ] && [ "${QOSCAL_RELEASE_ANY_GO:-}" != 1 ]; then
  echo "release.sh: this is $have_go; a release is built with $want_go (release/go-version), whose bytes the committed checksums are" >&2
  echo "release.sh: hint: GOTOOLCHAIN=$want_go scripts/release.sh $1 $2" >&2
  exit 2
fi
commit=$(git log -1 --format=%H -- . ':(exclude)release/checksums')
when=$(git log -1 --format=%ct "$commit")
if [ -n "$(git status --porcelain --untracked-files=no -- . ':(exclude)release/checksums')" ]; then
  echo "release.sh: note: the checkout has uncommitted changes; the release is built from commit $commit, without them" >&2
fi

mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The commit's files, not the checkout's: what is built is what the
# commit holds, whatever the checkout has changed since (or changes while
# this runs). -trimpath keeps the folder out of the binaries.
mkdir "$work/src"
git archive "$commit" | tar -x -C "$work/src"
cd "$work/src"

# The archive writer, built once for this machine.
GOFLAGS=-buildvcs=false CGO_ENABLED=0 go build -o "$work/archive" ./scripts/archive

pkg=github.com/qoscal/qoscal/internal/version
ldflags="-s -w -buildid= -X $pkg.tag=$tag -X $pkg.commit=$commit"
sums=()
for target in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64; do
  os=${target%/*}
  arch=${target#*/}
  exe=qoscal
  ext=.tar.gz
  if [ "$os" = windows ]; then exe=qoscal.exe; ext=.zip; fi
  name=qoscal_${version}_${os}_${arch}
  mkdir -p "$work/$name"
  # GOFLAGS, GOAMD64 and GOARM64 are set, not taken from the caller's
  # environment: they change the bytes.
  GOFLAGS=-buildvcs=false CGO_ENABLED=0 GOOS=$os GOARCH=$arch GOAMD64=v1 GOARM64=v8.0 \
    go build -trimpath -ldflags "$ldflags" -o "$work/$name/$exe" ./cmd/qoscal
  "$work/archive" -time "$when" -o "$out/$name$ext" -x "$work/$name/$exe" README.md LICENSE
  sums+=("$name$ext")
  echo "release.sh: $name$ext"
done

# sha256sum (Linux, Git Bash) or shasum (macOS), the same format.
sha=(sha256sum)
command -v sha256sum >/dev/null 2>&1 || sha=(shasum -a 256)
(cd "$out" && "${sha[@]}" "${sums[@]}") >"$work/checksums.txt"
mv "$work/checksums.txt" "$out/qoscal_${version}_checksums.txt"
echo "release.sh: qoscal_${version}_checksums.txt ($tag, commit $commit)"
