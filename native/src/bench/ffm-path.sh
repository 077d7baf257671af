#!/bin/bash
# ffm-path.sh : the FFM path benchmarks of issue #9, Java (JMH, FfmPathBenchmark) against the same
# loops in C (c/ffm_path_loops.c, compiled here with gcc at bench time), in one run, as a markdown
# table of medians and Java/C ratios.
#
#   ffm-path.sh [--provider soft|ibverbs] [--device NAME] [--gid-index N] [--cp-dir DIR] [--out DIR]
#   ffm-path.sh --lab [--cp-dir DIR] [--out DIR]     (host: the same on rxe0 inside the rxe lab VM)
#
# Cases (op = what one ns/op counts):
#   pollEmptyCq            one ibv_poll_cq of up to 32 WCs on an empty CQ of 256 CQEs
#   parse32                reading wr_id, status, opcode, byte_len, wc_flags, imm_data, qp_num, src_qp
#                          of 32 real WCs (32 SEND with immediate received on an SRQ)
#   postSrqRecv chain=N    one ibv_post_srq_recv of a chain of N receive WRs (N = 1, 16, 64), on a
#                          fresh SRQ of max_wr 1024 x N per run
# Medians: of the measured JMH iterations (Java) and of the measured runs of equal length (C), see
# FfmPathBenchmark's javadoc. The soft device (provider soft) lives inside the JVM, so there the C
# column is n/a and only the Java side runs; with provider ibverbs both run.
#
# Where things come from:
#   --cp-dir DIR  a class path snapshot made by it-tests/lab/build-classpath.sh (DIR/classpath.txt), as
#                 run-lab.sh makes in it-tests/target/lab-classpath. Without it the script makes one
#                 into native/target/ffm-path/classpath (host only; nothing is ever compiled by Maven in
#                 the lab guest). MVN_ARGS (env) is added to those Maven calls, e.g. MVN_ARGS="-o".
#   --out DIR     writable dir for the C binary, jmh-*.json, jmh-*.log, c-result.tsv and table.md
#                 (default: a new temp dir). In the lab it must be a host dir shared read-write (RXE_RW).
#   --lab         on the host: prepares the class path, then boots the rxe lab (it-tests/lab/run-in-vm.sh,
#                 which needs RXE_WORK etc. as usual) and runs this script inside it with
#                 --provider ibverbs --device rxe0 --gid-index 1; results land in --out.
# Run lengths (env, both sides): FFM_WARMUP (5) FFM_RUNS (11) FFM_RUN_MS (500) for pollEmptyCq and
# parse32; FFM_POST_WARMUP (100) FFM_POST_RUNS (21) shots of 1024 calls for postSrqRecv. The C side
# has no JIT to warm: it takes at most 3 warmup runs and 10 warmup shots. JMH forks once per case
# (a non-forked -f 0 trial in the lab made parse32 7x slower; JMH keeps those for debugging).
# The emulated lab guest needs a longer JIT warmup: FFM_WARMUP=20 FFM_RUNS=9 FFM_RUN_MS=1000
# FFM_POST_RUNS=31 took 7 min there (boot 15 s; about 40 s per JVM start).
# JAVA_HOME: a JDK 25 (default /usr/lib/jvm/temurin-25-jdk-amd64). Needs gcc, libibverbs-dev and jq.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JAVA=$JAVA_HOME/bin/java
BENCH=io.rdma.srq.verbs.bench.FfmPathBenchmark
WARMUP=${FFM_WARMUP:-5} RUNS=${FFM_RUNS:-11} RUN_MS=${FFM_RUN_MS:-500}
POST_WARMUP=${FFM_POST_WARMUP:-100} POST_RUNS=${FFM_POST_RUNS:-21}
say() { echo "ffm-path: $*" >&2; }
die() { say "$*"; exit 2; }

PROVIDER=soft DEVICE= GIDX= CPDIR= OUT= LAB=0
while [ $# -gt 0 ]; do
  case $1 in
    --provider) PROVIDER=${2:?}; shift 2 ;;
    --device) DEVICE=${2:?}; shift 2 ;;
    --gid-index) GIDX=${2:?}; shift 2 ;;
    --cp-dir) CPDIR=${2:?}; shift 2 ;;
    --out) OUT=${2:?}; shift 2 ;;
    --lab) LAB=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
case $PROVIDER in
  soft) DEVICE=${DEVICE:-soft_rxe0} GIDX=${GIDX:-0} ;;
  ibverbs) DEVICE=${DEVICE:-rxe0} GIDX=${GIDX:-1} ;;
  *) die "--provider must be soft or ibverbs" ;;
esac
for v in WARMUP RUNS RUN_MS POST_WARMUP POST_RUNS GIDX; do
  [[ ${!v} =~ ^[0-9]+$ ]] || die "$v must be a number, got '${!v}'"
done
[ "$RUNS" -ge 1 ] && [ "$RUN_MS" -ge 1 ] && [ "$POST_RUNS" -ge 1 ] || die "FFM_RUNS, FFM_RUN_MS, FFM_POST_RUNS must be >= 1"
[ -x "$JAVA" ] || die "no java at $JAVA (set JAVA_HOME to a JDK 25)"
command -v jq >/dev/null || die "jq is needed to read JMH's JSON"

# class path snapshot (host, Maven) ----------------------------------------------------------------
if [ -z "$CPDIR" ]; then
  command -v mvn >/dev/null || die "no --cp-dir and no mvn to build one"
  CPDIR=$REPO/native/target/ffm-path/classpath
  LAB_MVN_ARGS=${MVN_ARGS:-} "$REPO/it-tests/lab/build-classpath.sh" "$CPDIR" || die "building the class path failed"
fi
CPDIR=$(cd "$CPDIR" && pwd)
[ -d "$CPDIR/native-test-classes/io/rdma/srq/verbs/bench" ] && [ -s "$CPDIR/classpath.txt" ] \
  || die "$CPDIR is not a class path snapshot with the benchmarks (it-tests/lab/build-classpath.sh makes one)"

if [ -z "$OUT" ]; then OUT=$(mktemp -d "${TMPDIR:-/tmp}/ffm-path.XXXXXX"); fi
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)

# --lab: the same, inside the rxe lab guest --------------------------------------------------------
if [ "$LAB" = 1 ]; then
  say "booting the rxe lab; results in $OUT"
  RXE_RW=$OUT${RXE_RW:+:$RXE_RW} RXE_ENV="FFM_WARMUP FFM_RUNS FFM_RUN_MS FFM_POST_WARMUP FFM_POST_RUNS ${RXE_ENV:-}" \
  FFM_WARMUP=$WARMUP FFM_RUNS=$RUNS FFM_RUN_MS=$RUN_MS FFM_POST_WARMUP=$POST_WARMUP FFM_POST_RUNS=$POST_RUNS \
  RXE_CMD_TIMEOUT=${RXE_CMD_TIMEOUT:-900} RXE_TIMEOUT=${RXE_TIMEOUT:-1200} \
    "$REPO/it-tests/lab/run-in-vm.sh" "$HERE/ffm-path.sh" --provider ibverbs --device rxe0 --gid-index 1 \
      --cp-dir "$CPDIR" --out "$OUT"
  exit $?
fi

# C side (ibverbs only) ----------------------------------------------------------------------------
: > "$OUT/c-result.tsv"
if [ "$PROVIDER" = ibverbs ]; then
  say "compiling c/ffm_path_loops.c into $OUT"
  gcc -O2 -Wall -std=gnu11 -o "$OUT/ffm_path_loops" "$HERE/c/ffm_path_loops.c" -libverbs \
    || die "gcc failed (is libibverbs-dev installed?)"
  say "C loops on $DEVICE"
  "$OUT/ffm_path_loops" "$DEVICE" "$GIDX" $((WARMUP < 3 ? WARMUP : 3)) "$RUNS" "$RUN_MS" \
    $((POST_WARMUP < 10 ? POST_WARMUP : 10)) "$POST_RUNS" \
    | tee "$OUT/c-result.tsv" >&2 || die "the C loops failed"
else
  say "provider soft: the soft device lives in the JVM, no C side"
fi

# Java side: two JMH runs, as each mode has its own run lengths ------------------------------------
CP=$(cat "$CPDIR/classpath.txt")
JVM_ARGS="--enable-native-access=ALL-UNNAMED -Dverbs.provider=$PROVIDER -Dverbs.device=$DEVICE -Dverbs.gidIndex=$GIDX"
jmh() {   # jmh NAME REGEX JMH-ARGS...
  local name=$1 regex=$2; shift 2
  say "JMH $name on $PROVIDER:$DEVICE (log: $OUT/jmh-$name.log)"
  : > "$OUT/jmh-$name.log"
  "$JAVA" -cp "$CP" org.openjdk.jmh.Main "$regex" -f 1 -jvmArgsAppend "$JVM_ARGS" \
      -rf json -rff "$OUT/jmh-$name.json" "$@" > "$OUT/jmh-$name.log" 2>&1 &
  local pid=$!
  tail -n +1 -f --pid="$pid" "$OUT/jmh-$name.log" | grep --line-buffered -E '^# (Benchmark|Parameters):|^Iteration +1:|ERROR|Exception' >&2 || true
  wait "$pid" || die "JMH $name failed; see $OUT/jmh-$name.log"
}
jmh timed "^$BENCH\.(pollEmptyCq|parse32)\$" -wi "$WARMUP" -w "${RUN_MS}ms" -i "$RUNS" -r "${RUN_MS}ms"
jmh shots "^$BENCH\.postSrqRecv\$" -wi "$POST_WARMUP" -i "$POST_RUNS"

# one row per case, as the C program prints them: name, median ns/op, runs, min, max (postSrqRecv per
# call: JMH's score is per shot of batchSize calls)
jq -r '.[] | (.primaryMetric.rawData | flatten | sort) as $v | ($v | length) as $n
      | (if $n % 2 == 1 then $v[($n - 1) / 2] else ($v[$n / 2 - 1] + $v[$n / 2]) / 2 end) as $med
      | (.benchmark | sub(".*\\."; "")) as $b
      | (if $b == "postSrqRecv" then .measurementBatchSize else 1 end) as $per
      | [$b + (if .params.chain then ":chain=" + .params.chain else "" end), $med / $per, $n, $v[0] / $per, $v[-1] / $per]
      | @tsv' "$OUT/jmh-timed.json" "$OUT/jmh-shots.json" > "$OUT/java-result.tsv"

# table --------------------------------------------------------------------------------------------
{
  echo "FFM path, $PROVIDER:$DEVICE (gid index $GIDX), $(date -u +%FT%TZ)"
  echo "machine: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cpus; kernel $(uname -r);" \
       "rdma-core (libibverbs1) $(dpkg-query -W -f='${Version}' libibverbs1 2>/dev/null || echo unknown);" \
       "$("$JAVA" -version 2>&1 | head -1); $(gcc --version 2>/dev/null | head -1 || echo 'no gcc')"
  echo "medians of $RUNS runs of ${RUN_MS} ms (pollEmptyCq, parse32; after $WARMUP warmup runs) and of" \
       "$POST_RUNS shots of 1024 calls (postSrqRecv; after $POST_WARMUP warmup shots; C: at most 3 and 10)"
  echo
  echo "| case | op | Java ns/op (median) | C ns/op (median) | ratio Java/C | Java min–max | C min–max |"
  echo "|---|---|---:|---:|---:|---:|---:|"
  for c in pollEmptyCq parse32 postSrqRecv:chain=1 postSrqRecv:chain=16 postSrqRecv:chain=64; do
    read -r java _ jmin jmax < <(awk -F'\t' -v c="$c" '$1 == c {print $2, $3, $4, $5}' "$OUT/java-result.tsv") || true
    [ -n "${java:-}" ] || die "no JMH result for $c"
    read -r cns _ cmin cmax < <(awk -F'\t' -v c="$c" '$1 == c {print $2, $3, $4, $5}' "$OUT/c-result.tsv") || cns=
    case $c in
      pollEmptyCq) op="one ibv_poll_cq, num_entries 32" ;;
      parse32) op="a batch of 32 WCs" ;;
      postSrqRecv:chain=*) op="one ibv_post_srq_recv of ${c#*=} WR(s)" ;;
      *) op=? ;;
    esac
    if [ -n "$cns" ]; then
      printf '| %s | %s | %.1f | %.1f | %.2f | %.1f–%.1f | %.1f–%.1f |\n' "${c/:/ }" "$op" "$java" "$cns" \
        "$(awk "BEGIN{print $java / $cns}")" "$jmin" "$jmax" "$cmin" "$cmax"
    else
      printf '| %s | %s | %.1f | n/a | n/a | %.1f–%.1f | n/a |\n' "${c/:/ }" "$op" "$java" "$jmin" "$jmax"
    fi
  done
} > "$OUT/table.md"
cat "$OUT/table.md"
say "results in $OUT"
