#!/bin/bash
# run-benchmarks.sh : every benchmark of the project in one command (issue #9), one summary table.
# Benchmarks, not tests: nothing here passes or fails on a number; the goals are printed beside.
#
#   1. host, soft device (JMH, `mvn -Pbench`): native's SoftFabricBenchmark (the bare loop: SEND →
#      SRQ → poll → repost on one thread), rar's AdapterPathBenchmark (the same with the adapter's
#      poller and delivery to a no-op listener, one thread) and ActivationPipelineBenchmark (two
#      threads: sender and receiver; bare loop, adapter with delivery inline or on a pool)
#   2. FFM path, Java (JMH) against the same loops in C built with gcc now: on the soft device (Java
#      only) and, in step 4, in the rxe lab on rxe0 (native/src/bench/ffm-path.sh; one guest boot)
#   3. host, soft device: registered memory of one activation with 1, 16 and 256 connections
#      (io.rdma.srq.ra.bench.ActivationMemory)
#   4. lab message rate on rxe0: perftest ib_send_bw --use-srq vs the C, Java FFM and adapter
#      receivers fed by one C sender; 64 B and 4 KiB, 1 and 8 QPs (it-tests/lab/bench; one guest boot)
# Output: $BENCH_OUT (default it-tests/target/bench): summary.md (printed at the end) and each
# part's raw results. Needs what the lab needs (it-tests/lab/setup-host.sh: qemu, rdma-core,
# perftest, gcc, jq) and a JDK 25; about 15 minutes on 2 cores, most of it in the emulated guest.
# Knobs: BENCH_OUT; BENCH_SKIP_LAB=1 (host parts only); BENCH_SUMMARY_ONLY=1 (only render summary.md
#        again from the results in BENCH_OUT); MVN_ARGS (extra Maven args, e.g. -o);
#        those of ffm-path.sh (FFM_*), run-message-rate.sh / message-rate.sh (BENCH_*), run-in-vm.sh (RXE_*).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
OUT=${BENCH_OUT:-$REPO/it-tests/target/bench}
say() { echo "run-benchmarks: $*" >&2; }
die() { say "$*"; exit 2; }
if [ "${BENCH_SUMMARY_ONLY:-0}" != 1 ]; then rm -rf "$OUT"; fi
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
command -v jq >/dev/null || die "jq is needed (it-tests/lab/setup-host.sh installs it)"
T0=$(date +%s)

if [ "${BENCH_SUMMARY_ONLY:-0}" != 1 ]; then
# 1. JMH on the soft device ---------------------------------------------------------------------
say "JMH on the soft device (SoftFabricBenchmark, AdapterPathBenchmark, ActivationPipelineBenchmark)"
mvn -B -Dstyle.color=never ${MVN_ARGS:-} -f "$REPO/pom.xml" -pl native,rar -am -Pbench verify -DskipTests \
  -Dbench.include='SoftFabricBenchmark|AdapterPathBenchmark|ActivationPipelineBenchmark' > "$OUT/jmh-soft.log" 2>&1 \
  || die "JMH run failed; see $OUT/jmh-soft.log"
cp "$REPO/native/target/jmh-result.json" "$OUT/jmh-native.json"
cp "$REPO/rar/target/jmh-result.json" "$OUT/jmh-rar.json"
# 2. FFM path on the soft device (its script builds the class path snapshot the rest uses) -------
say "FFM path on the soft device"
MVN_ARGS=${MVN_ARGS:-} "$REPO/native/src/bench/ffm-path.sh" --out "$OUT/ffm-soft" > "$OUT/ffm-soft.log" 2>&1 \
  || die "ffm-path.sh (soft) failed; see $OUT/ffm-soft.log"
CPD=$REPO/native/target/ffm-path/classpath

# 3. registered memory ----------------------------------------------------------------------------
say "registered memory with 1, 16, 256 connections"
"$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$(cat "$CPD/classpath.txt")" \
  io.rdma.srq.ra.bench.ActivationMemory > "$OUT/memory.md" 2> "$OUT/memory.log" \
  || die "ActivationMemory failed; see $OUT/memory.log"

# 4. the lab: FFM path on rxe0, then the message rates (one guest boot each) ---------------------
LAB_RC=skipped
if [ "${BENCH_SKIP_LAB:-0}" != 1 ]; then
  say "FFM path on rxe0 (rxe lab)"
  FFM_WARMUP=${FFM_WARMUP:-15} FFM_RUNS=${FFM_RUNS:-7} FFM_RUN_MS=${FFM_RUN_MS:-700} \
    "$REPO/native/src/bench/ffm-path.sh" --lab --cp-dir "$CPD" --out "$OUT/ffm-rxe" > "$OUT/ffm-rxe.log" 2>&1
  FFM_RC=$?
  say "message rate on rxe0 (rxe lab)"
  mkdir -p "$OUT/rate" && cp -a "$CPD" "$OUT/rate/cp"
  BENCH_OUT=$OUT/rate BENCH_SKIP_BUILD=1 "$REPO/it-tests/lab/bench/run-message-rate.sh" > "$OUT/rate.log" 2>&1
  RATE_RC=$?
  LAB_RC="ffm-path $FFM_RC, message-rate $RATE_RC"
fi
echo "$LAB_RC" > "$OUT/lab-rc.txt"
fi   # BENCH_SUMMARY_ONLY

# summary (BENCH_SUMMARY_ONLY=1 renders it again from the results in $BENCH_OUT) -------------------
# name<TAB>param<TAB>median<TAB>min<TAB>max of the measured iterations (ops/s)
jq -r '.[] | (.primaryMetric.rawData | flatten | sort) as $v | ($v | length) as $n
      | [(.benchmark | sub(".*\\."; "")), (.params.workManager // .params.size // ""),
         (if $n % 2 == 1 then $v[($n - 1) / 2] else ($v[$n / 2 - 1] + $v[$n / 2]) / 2 end), $v[0], $v[-1]]
      | @tsv' "$OUT/jmh-native.json" "$OUT/jmh-rar.json" > "$OUT/jmh-soft.tsv"
score() { awk -F'\t' -v b="$1" -v p="$2" '$1 == b && $2 == p {print $3; exit}' "$OUT/jmh-soft.tsv"; }   # the first: native's run
BARE=$(score sendReceivePollRepost 64) ADAPTER=$(score sendDeliverRepost "")
BARE2=$(score sendThroughTheActivation bareLoop) CALLER=$(score sendThroughTheActivation callerRuns) POOL=$(score sendThroughTheActivation pool)


LAB_RC=$(cat "$OUT/lab-rc.txt" 2>/dev/null || echo unknown)
ns() { awk "BEGIN{ if ($1 > 0) printf \"%.0f\", 1e9 / $1; else print \"n/a\" }"; }
mps() { awk "BEGIN{printf \"%.2f M/s\", $1 / 1e6}"; }
{
  echo "# Benchmarks, $(date -u +%FT%TZ)"
  echo
  echo "Host: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores, kernel $(uname -r);" \
       "rdma-core (libibverbs1) $(dpkg-query -W -f='${Version}' libibverbs1 2>/dev/null || echo unknown);" \
       "$("$JAVA_HOME/bin/java" -version 2>&1 | head -1); load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "Command: \`it-tests/bench/run-benchmarks.sh\`; lab parts (exit codes): $LAB_RC."
  echo
  echo "## Soft device (JMH, 64-byte messages; medians of 5 × 2 s after 3 × 2 s warm-up)"
  echo
  echo "One thread (the goals' shape): post 32 SENDs → SRQ → poll → repost, without and with the adapter"
  echo "(AdapterPathBenchmark turns the activation's poller: top-up, poll, one delivery batch to a no-op endpoint)."
  echo
  echo "| path | messages/s (median) | ns per message | overhead over the bare loop | goal |"
  echo "|---|---:|---:|---:|---|"
  echo "| bare loop (SoftFabricBenchmark) | $(mps "$BARE") | $(ns "$BARE") | — | — |"
  echo "| adapter path to a no-op listener (AdapterPathBenchmark) | $(mps "$ADAPTER") | $(ns "$ADAPTER") | $(awk "BEGIN{printf \"%.0f ns\", 1e9/$ADAPTER - 1e9/$BARE}") | ≥ 5 M/s on one core; ≤ 100 ns |"
  echo
  echo "Two threads (sender on one core, receiver on the other; ActivationPipelineBenchmark, window 512):"
  echo "the soft fabric's cross-thread cost dominates here, so these rows show the hand-off, not the adapter."
  echo
  echo "| receiver | messages/s (median) |"
  echo "|---|---:|"
  echo "| bare poll loop on its own thread | $(mps "$BARE2") |"
  echo "| adapter, delivery on the poller's thread | $(mps "$CALLER") |"
  echo "| adapter, delivery on a pool thread (the container's hand-off) | $(mps "$POOL") |"
  echo
  echo "## Registered receive memory of one activation (srqMaxWr 1024 × 4096 B)"
  echo
  cat "$OUT/memory.md"
  echo
  echo "## FFM path, soft device (the device is in the JVM: no C side)"
  echo
  sed -n '/^| case/,$p' "$OUT/ffm-soft/table.md"
  if [ -s "$OUT/ffm-rxe/table.md" ]; then
    echo
    echo "## FFM path, rxe0 in the lab (Java vs the same loop in C; emulated CPU)"
    echo
    cat "$OUT/ffm-rxe/table.md"
  fi
  if [ -s "$OUT/rate/table.md" ]; then
    echo
    echo "## Lab message rate, rxe0 (one C sender; goals: Java ≥ 0.95 × perftest, adapter ≥ 0.85 × perftest)"
    echo
    cat "$OUT/rate/table.md"
    echo
    sed -n '1,3p' "$OUT/rate/guest.txt" 2>/dev/null | sed 's/$/  /'
    echo "(medians of 3 interleaved rounds; raw runs: rate/results.txt)"
  fi
  if [ "${BENCH_SUMMARY_ONLY:-0}" != 1 ]; then
    echo
    echo "Wall time: $(( $(date +%s) - T0 )) s."
  fi
} > "$OUT/summary.md"
cat "$OUT/summary.md"
