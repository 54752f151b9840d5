#!/bin/sh
# export.sh DIR [REVISION]: writes a student copy of the repository to DIR:
# every file committed at REVISION (default HEAD), without the exercises'
# reference solutions (exercises/*/*_solution.go) and planted bugs
# (exercises/*/bugs/). Uncommitted changes are not exported: commit first.
#
# The copy builds and its own tests pass: the meta-test notices that the
# references are gone and checks only what a student copy has, and
# `make grade` grades the student's files. See docs/exercises.md.
set -eu

usage() { echo "usage: exercises/export.sh DIR [REVISION]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
dest=$1
rev=${2:-HEAD}
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)

if [ -e "$dest" ] && [ -n "$(ls -A "$dest" 2>/dev/null)" ]; then
	echo "export.sh: $dest exists and is not empty" >&2
	exit 1
fi
mkdir -p "$dest"

# git archive takes what is committed, so nothing local (build output, an
# instructor's notes, .git itself) leaks into the copy.
git -C "$root" archive --format=tar "$rev" | tar -x -C "$dest"

for ex in "$dest"/exercises/[0-9][0-9]-*/; do
	rm -f "$ex"*_solution.go
	rm -rf "$ex"bugs
done

# Belt and braces: no reference may survive under another name.
left=$(grep -rl --include='*.go' '^//go:build solution' "$dest" || true)
if [ -n "$left" ]; then
	echo "export.sh: files tagged as references are still in the copy:" >&2
	echo "$left" >&2
	exit 1
fi
echo "student copy of $rev in $dest (references and planted bugs removed)"
