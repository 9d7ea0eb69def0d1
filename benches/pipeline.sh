#!/usr/bin/env bash
# The main job against the solver alone: the six runs of a million easy
# Kaggle rows (k1m.csv) in every output format, each timed as a whole
# process, and their pace as a fraction of `bench -j 2` on the same rows
# (the solver's time for one pass over them, from its puzzles/s). 1.0 would
# be a job that costs nothing but solving; see docs/performance.md.
#
#   benches/pipeline.sh [-n RUNS] [--base OTHER_BINARY] [BINARY]
#
# BINARY is target/release/sudoku-batch unless given (build it first:
# `cargo build --release`). With --base, OTHER_BINARY runs each job too,
# in turn with BINARY (A B A B ...), so that both see the same machine;
# its rows are the `base` columns. Prints, per run, the median wall and
# CPU (user + system) seconds of RUNS runs (default 5) and the pace
# (`bench` pass / wall). k1m.csv and the outputs go to $PIPELINE_DIR
# (default ${TMPDIR:-/tmp}/sudoku-batch-pipeline; about 1 GB), which is
# left for the next call (delete it when done).
set -euo pipefail
cd "$(dirname "$0")/.."

runs=5
base=""
binary=target/release/sudoku-batch
while [ $# -gt 0 ]; do
    case "$1" in
        -n) runs="$2"; shift 2 ;;
        --base) base="$2"; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) binary="$1"; shift ;;
    esac
done
for b in "$binary" $base; do
    [ -x "$b" ] || { echo "no executable $b (cargo build --release?)" >&2; exit 2; }
done
dir="${PIPELINE_DIR:-${TMPDIR:-/tmp}/sudoku-batch-pipeline}"
mkdir -p "$dir"
k1m="$dir/k1m.csv"
if [ ! -s "$k1m" ]; then
    (head -n 1 data/kaggle1m_10000.csv
     for _ in $(seq 100); do tail -n +2 data/kaggle1m_10000.csv; done) > "$k1m.part"
    mv "$k1m.part" "$k1m"
fi
rows=$(($(wc -l < "$k1m") - 1))

# Seconds of one pass of `bench -j 2` over k1m.csv: rows / puzzles per s.
bench_pass() {
    "$1" bench "$k1m" --solver fast -j 2 --warmup-s 1 --time-s 3 2>/dev/null |
        awk -v rows="$rows" '
            col { gsub(",", "", $col); printf "%.4f\n", rows / $col; exit }
            { for (i = 1; i <= NF; i++) if ($i == "puzzles_per_s") col = i }'
}

# One whole-process run of job $2 with binary $1 whose outputs are named
# by $3: prints "wall cpu" in seconds.
run_job() {
    local bin="$1" job="$2" tag="$3" TIMEFORMAT="%R %U %S"
    local args
    case "$job" in
        csv-null) args=("$k1m" -o /dev/null) ;;
        csv-csv) args=("$k1m" -o "$dir/r$tag.csv") ;;
        csv-jsonl) args=("$k1m" -o "$dir/r$tag.jsonl") ;;
        csv-parquet) args=("$k1m" -o "$dir/r$tag.parquet") ;;
        parquet-null) args=("$dir/r$tag.parquet" -o /dev/null) ;;
        parquet-parquet) args=("$dir/r$tag.parquet" -o "$dir/r2$tag.parquet") ;;
    esac
    { time "$bin" solve "${args[@]}" --quiet -j 2 >/dev/null 2>&1; } 2>&1 |
        awk '{ printf "%s %.3f\n", $1, $2 + $3 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

pass_before=$(bench_pass "$binary")
declare -A wall cpu
jobs=(csv-null csv-csv csv-jsonl csv-parquet parquet-null parquet-parquet)
for job in "${jobs[@]}"; do
    # One unmeasured run each: page cache, and the Parquet inputs.
    run_job "$binary" "$job" a > /dev/null
    [ -z "$base" ] || run_job "$base" "$job" b > /dev/null
    for _ in $(seq "$runs"); do
        read -r w c < <(run_job "$binary" "$job" a)
        wall[$job,a]+="$w "; cpu[$job,a]+="$c "
        if [ -n "$base" ]; then
            read -r w c < <(run_job "$base" "$job" b)
            wall[$job,b]+="$w "; cpu[$job,b]+="$c "
        fi
    done
done
pass_after=$(bench_pass "$binary")
pass=$(awk -v a="$pass_before" -v b="$pass_after" 'BEGIN { printf "%.4f", (a + b) / 2 }')

describe() {
    case "$1" in
        csv-null) echo "solve k1m.csv -o /dev/null" ;;
        csv-csv) echo "solve k1m.csv -o r.csv" ;;
        csv-jsonl) echo "solve k1m.csv -o r.jsonl" ;;
        csv-parquet) echo "solve k1m.csv -o r.parquet" ;;
        parquet-null) echo "solve r.parquet -o /dev/null" ;;
        parquet-parquet) echo "solve r.parquet -o r2.parquet" ;;
    esac
}

echo "bench -j 2, one pass over $rows rows: $pass s (before $pass_before s, after $pass_after s); medians of $runs runs"
if [ -n "$base" ]; then
    echo "| run | wall | cpu | of bench | base wall | base cpu | base of bench |"
    echo "|---|---|---|---|---|---|---|"
else
    echo "| run | wall | cpu | of bench |"
    echo "|---|---|---|---|"
fi
for job in "${jobs[@]}"; do
    line="| \`$(describe "$job")\`"
    for tag in a ${base:+b}; do
        w=$(tr ' ' '\n' <<< "${wall[$job,$tag]}" | grep . | median)
        c=$(tr ' ' '\n' <<< "${cpu[$job,$tag]}" | grep . | median)
        line+=$(awk -v w="$w" -v c="$c" -v p="$pass" 'BEGIN { printf " | %.2f s | %.2f s | %.2f", w, c, p / w }')
    done
    echo "$line |"
done
ls -l "$dir"/ra.* "$dir"/r2a.* 2>/dev/null | awk '{ printf "%s %d bytes\n", $NF, $5 }'
