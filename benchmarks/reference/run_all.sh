#!/usr/bin/env bash
# Build every reference program and time it RUNS times (default 5) with /usr/bin/time.
# Prints, per program: median wall seconds, median peak RSS (MiB), and the individual runs.
# Usage: bash run_all.sh [RUNS]     (binaries go to $BUILD_DIR, default /tmp/vecsearch-reference)
set -euo pipefail
RUNS=${1:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD_DIR=${BUILD_DIR:-/tmp/vecsearch-reference}
mkdir -p "$BUILD_DIR"
for p in sliding3x3 sliding3x4 cubic8 pocket2x2; do
    g++ -O2 -march=native -std=c++17 -Wall -o "$BUILD_DIR/$p" "$HERE/$p.cpp"
done

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

bench() {  # name, command...
    local name=$1; shift
    local walls=() rss=()
    for ((i = 0; i < RUNS; i++)); do
        local load; load=$(cut -d' ' -f1 /proc/loadavg)
        /usr/bin/time -f "%e %M" -o "$BUILD_DIR/time.txt" "$@" > "$BUILD_DIR/out.txt"
        grep -q '^OK' "$BUILD_DIR/out.txt" || { echo "$name: layer counts MISMATCH"; exit 1; }
        read -r w m < "$BUILD_DIR/time.txt"
        walls+=("$w"); rss+=("$m")
        echo "  $name run $((i + 1)): ${w} s, $((m / 1024)) MiB (loadavg before: $load)"
    done
    local mw mr
    mw=$(printf '%s\n' "${walls[@]}" | median)
    mr=$(printf '%s\n' "${rss[@]}" | median)
    printf '%-22s median wall %8.3f s   median peak RSS %7.1f MiB\n' "$name" "$mw" "$(awk -v k="$mr" 'BEGIN {print k / 1024}')"
    tail -2 "$BUILD_DIR/out.txt" | sed 's/^/    /'
}

bench sliding3x3 "$BUILD_DIR/sliding3x3"
bench cubic8 "$BUILD_DIR/cubic8"
bench pocket2x2 "$BUILD_DIR/pocket2x2"
bench sliding3x4-plain "$BUILD_DIR/sliding3x4" plain
bench sliding3x4-prefetch "$BUILD_DIR/sliding3x4" prefetch
