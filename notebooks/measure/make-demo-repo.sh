#!/bin/sh
# make-demo-repo.sh DIR makes DIR a git repository of four commits of
# hashsort (notebooks/measure/hashsort), the third of which makes it do
# 40% more work: a real slowdown for 'git bisect run' to find. The
# commits' authors and dates are fixed, so that their hashes are too.
set -eu
dir=$1
src=$(cd "$(dirname "$0")" && pwd)/hashsort
mkdir "$dir"
cd "$dir"
export GIT_AUTHOR_NAME=qoscal GIT_AUTHOR_EMAIL=qoscal@example.com
export GIT_COMMITTER_NAME=qoscal GIT_COMMITTER_EMAIL=qoscal@example.com
git init -q -b main
printf 'module demo\n\ngo 1.26\n' >go.mod
commit() {
	GIT_AUTHOR_DATE="2026-12-0$1T08:00:00Z" GIT_COMMITTER_DATE="2026-12-0$1T08:00:00Z" git commit -q -a -m "$2"
}
cp "$src"/*.go .
git add go.mod ./*.go
commit 1 "hashsort: hash a buffer and sort a slice"
sed 's|^// Command hashsort is|// Command hashsort, a benchmark, is|' main.go >main.go.new && mv main.go.new main.go
commit 2 "hashsort: say what it is"
sed 's|flag.Float64("extra", 0,|flag.Float64("extra", 0.4,|' main.go >main.go.new && mv main.go.new main.go
commit 3 "hashsort: check the work twice over"
sed 's|^// -impl chooses|// The flag -impl chooses|' main.go >main.go.new && mv main.go.new main.go
commit 4 "hashsort: tidy a comment"
