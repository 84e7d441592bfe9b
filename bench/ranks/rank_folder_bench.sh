#!/usr/bin/env bash
# A rank folder against one trace of the same bytes (issue #66): for each N,
# bench_rank_folder makes N rank traces of about 8 MB from HTA's real NCCL
# rank traces (once; kept in the work folder) and one trace of the same bytes
# beside them, then this times
#   CLI trace-stats FOLDER --view distributed
# cold (an empty TRAINSCOPE_CACHE_DIR, no *.tsrank summaries in the folder)
# and warm (the same cache and summaries, --runs times, the median), and
#   CLI trace-stats SINGLE
# cold and warm likewise, each with /usr/bin/time's wall time and peak RSS.
# Prints a markdown table. Runs with any trainscope-cli, today's or later.
#
#   bench/ranks/rank_folder_bench.sh CLI [N...]     (default N: 64 256 1024)
#     --runs R          warm runs (default 3; the median is shown)
#     --single-max N    time the single trace only for N ranks or fewer
#                       (default: every N; 1,024 ranks make a 9 GB one)
#     --timeout S       a run past S seconds is killed and shown as ">S" (default 1800)
#     --work DIR        where the folders are kept (default /tmp/rank-bench)
#     --gen PATH        bench_rank_folder (default build/default/bench/bench_rank_folder)
#     --rank-mb MB      size of each rank's trace (default 8)
#     --no-prewarm      do not read the traces once before the cold run (by default
#                       they are, so that cold means Trainscope's cold, the traces in
#                       the OS page cache, whatever ran before: 1,024 ranks and their
#                       single trace are 18 GB, more than this machine's page cache)
#     --gz              gzip-compressed traces (rank-<r>.json.gz, as torch.profiler's
#                       use_gzip=True writes them) in ranks-N-gz; GB is still JSON's
#     --clean           delete the work folder's traces and caches, then stop
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
runs=3
single_max=
timeout_s=1800
work=/tmp/rank-bench
gen=$root/build/default/bench/bench_rank_folder
rank_mb=8
clean=0
prewarm=1
gz=
cli=
ns=()
usage() { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [[ $# -gt 0 ]]; do
    case $1 in
    --runs) runs=$2; shift 2 ;;
    --single-max) single_max=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --gen) gen=$2; shift 2 ;;
    --rank-mb) rank_mb=$2; shift 2 ;;
    --clean) clean=1; shift ;;
    --no-prewarm) prewarm=0; shift ;;
    --gz) gz=-gz; shift ;;
    -h | --help) usage ;;
    -*) echo "rank_folder_bench.sh: unknown option '$1'" >&2; usage ;;
    *) if [[ -z $cli ]]; then cli=$1; else ns+=("$1"); fi; shift ;;
    esac
done
if [[ $clean == 1 ]]; then
    # Only what this script and bench_rank_folder make, never the folder's other files.
    rm -rf "$work"/ranks-* "$work"/cache-* "$work"/out-*
    echo "rank_folder_bench.sh: cleaned $work"
    exit 0
fi
[[ -n $cli && -x $cli ]] || { echo "rank_folder_bench.sh: give the trainscope-cli to time (got '${cli}')" >&2; usage; }
[[ -x $gen ]] || { echo "rank_folder_bench.sh: $gen is not built: cmake --build --preset default --target bench_rank_folder" >&2; exit 2; }
[[ ${#ns[@]} -gt 0 ]] || ns=(64 256 1024)
for n in "${ns[@]}"; do [[ $n =~ ^[0-9]+$ && $n -ge 2 ]] || { echo "rank_folder_bench.sh: '$n' is no rank count (2 or more)" >&2; exit 2; }; done
mkdir -p "$work"

# time_run LABEL CACHE_DIR ARGS...: runs CLI ARGS with the cache, prints
# "seconds rss_kb lines rc cpu_seconds" and keeps stdout in $work/out-LABEL.txt.
# The CPU seconds (user + sys) vary less than the wall time on a busy machine.
time_run() {
    local label=$1 cache=$2; shift 2
    local out=$work/out-$label.txt tm=$work/out-$label.time rc=0
    TRAINSCOPE_CACHE_DIR=$cache /usr/bin/time -f '%e %M %U %S' -o "$tm" \
        timeout "$timeout_s" "$cli" "$@" >"$out" 2>"$work/out-$label.err" || rc=$?
    local secs rss user sys
    read -r secs rss user sys < <(tail -1 "$tm")
    [[ $rc == 124 ]] && secs=">$timeout_s"
    echo "$secs $rss $(wc -l <"$out") $rc $(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.1f", u + s}')"
}

# median of the numbers on stdin
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

# cold then warm: prints "cold_s cold_rss_kb lines rc cold_cpu_s warm_median_s warm_max_rss_kb warm_lines"
measure() {
    local label=$1 cache=$2; shift 2
    rm -rf "$cache"; mkdir -p "$cache"
    local cold; cold=$(time_run "$label-cold" "$cache" "$@")
    if [[ ${cold%% *} == ">"* ]]; then echo "$cold - 0 0"; return; fi # no warm runs after a timeout
    local times=() rss=0 lines=0 r s m l
    for ((r = 1; r <= runs; r++)); do
        read -r s m l _ _ < <(time_run "$label-warm$r" "$cache" "$@")
        times+=("$s"); ((m > rss)) && rss=$m; lines=$l
    done
    echo "$cold $(printf '%s\n' "${times[@]}" | median) $rss $lines"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0) printf "%.1fx", a / b; else printf "-"}'; }
mb() { awk -v k="$1" 'BEGIN {printf "%.0f", k / 1024}'; }

rows=()
for n in "${ns[@]}"; do
    folder=$work/ranks-$n$gz
    single_args=()
    if [[ -z $single_max || $n -le $single_max ]]; then single_args=(--single); fi
    gen_args=(--ranks "$n" --rank-mb "$rank_mb" --out "$folder" "${single_args[@]}")
    [[ -n $gz ]] && gen_args+=(--gz)
    "$gen" "${gen_args[@]}"
    bytes=$(awk '/"bytes"/ {gsub(/[^0-9]/, ""); print; exit}' "$folder.done")
    find "$folder" -maxdepth 1 -name '*.tsrank' -delete
    [[ $prewarm == 1 ]] && find "$folder" -maxdepth 1 \( -name '*.json' -o -name '*.json.gz' \) -print0 | xargs -0 cat >/dev/null
    echo "load before N=$n: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    read -r fc frss flines frc fcpu fw fwrss fwlines < <(measure "ranks-$n$gz" "$work/cache-ranks-$n$gz" \
        trace-stats "$folder" --view distributed)
    [[ $frc == 0 ]] || echo "N=$n folder: exit $frc (see $work/out-ranks-$n$gz-cold.err)" >&2
    [[ $flines == "$fwlines" ]] || echo "N=$n folder: $flines lines cold, $fwlines warm" >&2
    sc=- srss=0 sw=- swrss=0 scpu=-
    if [[ ${#single_args[@]} -gt 0 ]]; then
        single=$folder-single.json${gz:+.gz}
        rm -f "$single".tsrank
        [[ $prewarm == 1 ]] && cat "$single" >/dev/null
        read -r sc srss _ src scpu sw swrss _ < <(measure "single-$n$gz" "$work/cache-single-$n$gz" trace-stats "$single")
        [[ $src == 0 ]] || echo "N=$n single: exit $src (see $work/out-single-$n$gz-cold.err)" >&2
    fi
    rows+=("| $n | $(awk -v b="$bytes" 'BEGIN {printf "%.2f", b / 1e9}') | $fc ($fcpu) | $fw | $(mb "$frss") / $(mb "$fwrss") | $flines | $sc ($scpu) | $sw | $(mb "$srss") / $(mb "$swrss") | $(ratio "$fc" "$sc") | $(ratio "$fw" "$sw") |")
    echo "${rows[-1]}" >&2
done

echo
echo "trace-stats with $cli${gz:+, gzip-compressed traces}; warm: median of $runs; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| Ranks | GB | Folder cold (s) (CPU s) | Folder warm (s) | Folder RSS cold / warm (MB) | Lines | Single cold (s) (CPU s) | Single warm (s) | Single RSS cold / warm (MB) | Cold folder / single | Warm folder / single |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
