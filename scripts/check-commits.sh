#!/usr/bin/env bash
# check-commits.sh checks the commit messages of new commits against the
# habit CONTRIBUTING.md states: a subject of at most 72 characters, then,
# when there is more, a blank line before the body.
#
#     scripts/check-commits.sh            the new commits of HEAD
#     scripts/check-commits.sh RANGE...   the commits git rev-list RANGE names
#                                         (e.g. origin/main..HEAD)
#
# The new commits are those from 98608bb (the merge that brought this check
# to main) to HEAD; older history is exempt: 28 subjects of the branches
# merged before it, written in parallel before the check existed, run
# over 72 characters, and rewriting merged history would break every
# branch built on it. In a clone whose history of HEAD lacks
# that commit (a shallow clone, a fork rebased on other history), it
# checks the last 50 commits of HEAD instead, and says so. It prints every
# commit that breaks the habit and exits 1 if any does.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C.UTF-8 # ${#subject} counts characters, not bytes

first=98608bb
fallback=50
if [ $# -gt 0 ]; then
  commits=$(git rev-list "$@")
  what="the commits of $*"
elif git merge-base --is-ancestor "$first" HEAD 2>/dev/null; then
  commits=$( { git rev-list "$first..HEAD"; git rev-parse "$first^{commit}"; } )
  what="the commits since $first"
else
  commits=$(git rev-list --max-count="$fallback" HEAD)
  what="the last $fallback commits of HEAD ($first, where the habit starts, is not in its history)"
fi

bad=0
n=0
if [ -z "$commits" ]; then
  echo "check-commits: no commit to check, $what"
  exit 0
fi
# One git log for all: each commit's short hash and its message as
# written (%B; %s would join a subject that runs on to the second line),
# ended by \x01.
while IFS= read -r -d $'\x01' rec; do
  n=$((n + 1))
  rec=${rec#$'\n'}
  short=${rec%% *}
  msg=${rec#* }
  msg=${msg%$'\n'}
  subject=${msg%%$'\n'*}
  if [ "$subject" != "$msg" ]; then
    rest=${msg#*$'\n'}
    second=${rest%%$'\n'*}
    if [ -n "$second" ]; then
      echo "check-commits: $short: the second line is not blank: a blank line goes between the subject and the body" >&2
      bad=$((bad + 1))
    fi
  fi
  if [ "${#subject}" -gt 72 ]; then
    echo "check-commits: $short: the subject is ${#subject} characters, more than 72: $subject" >&2
    bad=$((bad + 1))
  elif [ -z "$subject" ]; then
    echo "check-commits: $short: the message's first line is empty: it should be the subject" >&2
    bad=$((bad + 1))
  fi
done < <(printf '%s\n' $commits | git log --stdin --no-walk=unsorted --format='%h %B%x01')
if [ "$bad" -gt 0 ]; then
  echo "check-commits: $bad problem(s) in $n commit(s), $what (CONTRIBUTING.md, Commits)" >&2
  exit 1
fi
echo "check-commits: $n commit(s) checked, $what"
