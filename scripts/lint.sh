#!/usr/bin/env bash
# The style and static checks CI runs (scripts/test.sh):
#   scripts/lint.sh format          every C++ file against .clang-format (no changes made)
#   scripts/lint.sh format --fix    rewrites the files that differ
#   scripts/lint.sh tidy [FILE...]  .clang-tidy's checks, by default over the layers
#                                   without LibTorch, the widgets and the two mains
#                                   (Torch translation units take ~10 s each to parse;
#                                   name them to check them)
#   scripts/lint.sh tidy --ci       what CI checks: the core layers without LibTorch
#                                   (~4 min on 2 cores; all of the default set takes
#                                   ~11, which CI's 50 minutes cannot spare)
# clang-tidy reads build/default/compile_commands.json: build first.
set -euo pipefail
cd "$(dirname "$0")/.."

cpp_files() { git ls-files --cached --others --exclude-standard '*.h' '*.cpp' | grep -v '^tests/data/'; }

case "${1:-}" in
format)
    # One clang-format a file, a core each (a thousand files, 40 s one by one).
    # shellcheck disable=SC2016
    bad=$(cpp_files | xargs -P "$(nproc)" -n 64 sh -c \
        'for f; do clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || echo "$f"; done' _ | sort)
    if [ "${2:-}" = "--fix" ]; then
        # Only the files that differ: rewriting the others would touch their
        # times and make the next build recompile everything.
        [ -z "$bad" ] || echo "$bad" | xargs clang-format -i
        exit 0
    fi
    if [ -n "$bad" ]; then
        echo "lint: these files differ from .clang-format (scripts/lint.sh format --fix):" >&2
        echo "$bad" | sed 's/^/  /' >&2
        exit 1
    fi
    echo "lint: $(cpp_files | wc -l) files match .clang-format"
    ;;
tidy)
    shift
    db=build/default
    [ -f "$db/compile_commands.json" ] || { echo "lint: no $db/compile_commands.json; build first" >&2; exit 2; }
    # The core layers without LibTorch: what CI checks.
    core=('core/util/*.cpp' 'core/config/*.cpp' 'core/records/*.cpp' 'core/datasets/*.cpp'
        'core/pickle/*.cpp' 'core/trace/*.cpp' 'core/analysis/*.cpp' 'core/report/*.cpp'
        'core/sources/*.cpp' 'core/ondemand/*.cpp' 'core/scriptrun/*.cpp')
    if [ "${1:-}" = "--ci" ]; then
        mapfile -t files < <(git ls-files "${core[@]}")
    elif [ $# -gt 0 ]; then
        files=("$@")
    else
        mapfile -t files < <(git ls-files "${core[@]}" 'widgets/*.cpp' 'app/*.cpp')
    fi
    log=$(mktemp)
    # clang cannot read GCC's precompiled headers: the files that use one
    # (LibTorch's, Qt's) are checked without it, from a copy of the database.
    # Unity builds (cmake/TrainscopeUnity.cmake) compile batches of files:
    # the copy gives each file of a batch the batch's command.
    tidy_db=$(mktemp -d)
    trap 'rm -rf "$log" "$tidy_db"' EXIT
    python3 - "$db/compile_commands.json" >"$tidy_db/compile_commands.json" <<'EOF'
import json, re, sys
entries = []
for entry in json.load(open(sys.argv[1])):
    command = re.sub(r" -include \S*cmake_pch\.hxx| -Winvalid-pch", "", entry["command"])
    batch = entry["file"]
    files = [batch]
    if "/Unity/unity_" in batch:
        files = re.findall(r'^#include "([^"]+)"', open(batch).read(), re.M)
    entries += [dict(entry, file=f, command=command.replace(batch, f)) for f in files]
json.dump(entries, sys.stdout, indent=1)
EOF
    # Two at a time: each clang-tidy of a Qt translation unit holds ~300 MB.
    if ! printf '%s\n' "${files[@]}" |
        xargs -P "$(nproc)" -n 4 clang-tidy -p "$tidy_db" --quiet >"$log" 2>&1; then
        grep -E '(warning|error):' "$log" | sort -u >&2 || cat "$log" >&2
        echo "lint: clang-tidy found problems (above)" >&2
        exit 1
    fi
    echo "lint: clang-tidy clean on ${#files[@]} files"
    ;;
*)
    echo "usage: scripts/lint.sh format [--fix] | tidy [FILE...]" >&2
    exit 2
    ;;
esac
