#!/bin/bash
# round-trip.sh OUT : the guest side of the lab request/reply benchmark (issue 25); runs INSIDE one
# rxe lab boot, as root. run-round-trip.sh prepares OUT/cp (class path snapshot) on the host.
#
# Two round trips on rxe0, both ends in the guest:
#   perftest  ib_send_lat -d DEV -x GIDX -F -s SIZE -n ITERS (server, then the client to ADDR): RC
#             SEND ping-pong, busy-polling; it reports one-way latency = half the round trip, so
#             its t_typical (median), 99% and 99.9% percentiles are doubled here
#   perftest-e  the same with -e: both sides sleep on CQ events instead of polling
#   java      CallRoundTrip (rar test sources): SrqPeer.call of a pooled connection to an activation
#             in the same JVM that answers with ReceiveCompletion.reply of the request's bytes; one
#             caller thread, each call timed (System.nanoTime, HdrHistogram); one long-lived JVM
#             per profile (BENCH_PROFILES):
#               default  pollMode adaptive, maxConcurrency 1 (delivery on the poller's thread), the
#                        adapter's default spin settings (srq.spinners: vCPUs − 1 = 1 slot; the
#                        caller spins 20 µs, then parks)
#               spin     the low-latency profile: pollMode busy, maxConcurrency 1,
#                        -Dsrq.spinners=2 -Dsrq.call.spinNanos=1000000 (caller and poller spin)
#               nospin   pollMode event, maxConcurrency 1, -Dsrq.spinners=0: no thread spins (the
#                        poller sleeps on its completion channel, the caller parks at once, the
#                        pooled connections' servicing loop polls with 20 µs parks)
#               pool     pollMode adaptive, maxConcurrency 8 (the activation's default: each request
#                        on a pool thread)
# Each JVM is started once and warmed up (calls of every size for BENCH_WARMUP s and until the JIT
# is quiet, BENCH_WARMUP_MAX s at most: JIT compilation is slow on the emulated CPU and must not
# fall into measured runs; each run's per-thread CPU time lands in runs/java-PROFILE.cpu), then frozen with SIGSTOP whenever
# something else is measured (a busy poller would take the emulated CPU). Then, for every SIZE,
# BENCH_REPS interleaved rounds, each one run of every perftest mode and of every JVM; a JVM is told on
# stdin to run ("SIZE ITERS": 100 untimed calls after thawing, then ITERS timed ones).
# Output in OUT: results.txt ("SIZE IMPL ROUND P50 P99 P999 MAX MEAN WALL", round-trip µs, wall s
# of the run — perftest: the client process, connection set-up included), table.md (medians of
# the rounds, ratios of the medians), kernel.txt, guest.txt, runs/* (every log).
# Exit code 0 only if every run gave its result with ITERS round trips and no error.
#
# Knobs (environment, forwarded by run-round-trip.sh):
#   BENCH_SIZES ("16 64 4096")  BENCH_REPS (3)  BENCH_ITERS (1000) round trips per run
#   BENCH_PROFILES ("default spin") Java profiles  BENCH_PERFTESTS ("perftest perftest-e")
#   BENCH_WARMUP (20) BENCH_WARMUP_MAX (150) least and most seconds of each JVM's warm-up (it ends
#                 between the two once the JIT has compiled nothing for 5 s)
#   BENCH_PERFTEST_ARGS extra ib_send_lat args (both sides, e.g. --use-srq)
#   BENCH_RUN_TIMEOUT (300) seconds for one run   BENCH_START_TIMEOUT (300) for a JVM to connect
#   BENCH_JAVA_OPTS extra JVM args   BENCH_DEVICE (rxe0) BENCH_GID_INDEX (1) BENCH_ADDRESS (10.77.0.1)
#   BENCH_JAVA (java of JAVA_HOME)
set -u
OUT=${1:?usage: round-trip.sh OUT}
CP=$(cat "$OUT/cp/classpath.txt") || exit 2
DEV=${BENCH_DEVICE:-rxe0} GIDX=${BENCH_GID_INDEX:-1} ADDR=${BENCH_ADDRESS:-10.77.0.1}
SIZES=${BENCH_SIZES:-16 64 4096} REPS=${BENCH_REPS:-3} ITERS=${BENCH_ITERS:-1000}
PROFILES=${BENCH_PROFILES:-default spin} WARMUP=${BENCH_WARMUP:-20} WARMUP_MAX=${BENCH_WARMUP_MAX:-150} PERFTESTS=${BENCH_PERFTESTS:-perftest perftest-e}
RUN_TO=${BENCH_RUN_TIMEOUT:-300} START_TO=${BENCH_START_TIMEOUT:-300}
JAVA=${BENCH_JAVA:-${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java}
JOPTS="--enable-native-access=ALL-UNNAMED -XX:ErrorFile=$OUT/hs_err_pid%p.log ${BENCH_JAVA_OPTS:-}"
RES=$OUT/results.txt LOGS=$OUT/runs
mkdir -p "$LOGS"; : > "$RES"
PORT=19500 fail=0
declare -A JPID JIN RUNS
trap '' PIPE   # a JVM that died makes a write to its stdin fail, not this script
say() { echo "round-trip: $*"; }
source "$(dirname "$0")/guest-lib.sh"

guest_info "$OUT"
{ echo "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)," \
       "cpu MHz (perftest's cycles → µs): $(grep -m1 'cpu MHz' /proc/cpuinfo | sed 's/.*: //')"
  dmesg | grep -m2 -iE 'tsc: (detected|refined)'; } | tee -a "$OUT/guest.txt"

profile_opts() {
  case $1 in
    default) echo "-Dbench.pollMode=adaptive -Dbench.maxConcurrency=1" ;;
    spin) echo "-Dbench.pollMode=busy -Dbench.maxConcurrency=1 -Dsrq.spinners=2 -Dsrq.call.spinNanos=1000000" ;;
    nospin) echo "-Dbench.pollMode=event -Dbench.maxConcurrency=1 -Dsrq.spinners=0" ;;
    pool) echo "-Dbench.pollMode=adaptive -Dbench.maxConcurrency=8" ;;
    *) return 1 ;;
  esac
}
field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<< "$2"; }
# thread_ticks PID: "TID TICKS NAME" per thread of PID (TICKS: utime + stime, 1/100 s)
thread_ticks() {
  local t st f
  for t in /proc/"$1"/task/*; do
    st=$(cat "$t/stat" 2>/dev/null) || continue
    read -ra f <<< "${st##*) }"   # the fields after the name: f[0] is stat's field 3
    echo "${t##*/} $(( f[11] + f[12] )) $(tr ' ' _ < "$t/comm")"
  done
}
# cpu_ticks: "BUSY IDLE" of all vCPUs (/proc/stat, 1/100 s)
cpu_ticks() { awk '$1 == "cpu" {print $2 + $3 + $4 + $7 + $8, $5 + $6}' /proc/stat; }
# cpu_report BEFORE_THREADS BEFORE_CPU PID: the guest's busy share and the JVM's busiest threads since
cpu_report() {
  local c0 c1; c0=($2); c1=($(cpu_ticks))
  echo "guest vCPUs busy $(awk -v b=$((c1[0] - c0[0])) -v i=$((c1[1] - c0[1])) 'BEGIN{printf "%.0f%%", 100 * b / (b + i + 1e-9)}')," \
       "JVM threads by CPU (1/100 s): $(join <(sort <<< "$1") <(thread_ticks "$3" | sort) |
         awk '{d = $4 - $2; if (d > 0) print d, $3}' | sort -rn | head -6 | awk '{printf "%s %s, ", $2, $1}')"
}

# start_java PROFILE: starts its JVM, waits for the end of its warm-up (READY), freezes it
start_java() {
  local p=$1 opts log=$LOGS/java-$1.log fifo=/tmp/round-trip.$$.$1.in t fd
  opts=$(profile_opts "$p") || { say "unknown profile $p"; return 1; }
  rm -f "$fifo"; mkfifo "$fifo" || return 1
  t=$(now)
  # shellcheck disable=SC2086
  "$JAVA" $JOPTS $opts -Dbench.warmupMaxSeconds="$WARMUP_MAX" -cp "$CP" io.rdma.srq.ra.bench.CallRoundTrip "$DEV" "$ADDR" "$WARMUP" "$(echo $SIZES | tr " " ,)" \
    < "$fifo" > "$log" 2> "$log.err" &
  JPID[$p]=$! RUNS[$p]=0
  exec {fd}> "$fifo"; JIN[$p]=$fd; rm -f "$fifo"
  if ! wait_for "$log" '^READY' "$((START_TO + WARMUP_MAX))" "${JPID[$p]}"; then
    say "$p JVM did not get ready (see $log.err)"; kill -KILL "${JPID[$p]}" 2>/dev/null; unset "JPID[$p]"; return 1
  fi
  kill -STOP "${JPID[$p]}"
  say "$p JVM ready after $(since "$t") s: $(grep -E '^(CONNECTED|READY)' "$log" | tr '\n' ' ')(pid ${JPID[$p]}, frozen until its runs)"
}

# run_java PROFILE SIZE ROUND
run_java() {
  local p=$1 s=$2 round=$3 pid=${JPID[$1]:-} log=$LOGS/java-$1.log line run
  [ -n "$pid" ] || return
  local threads cpu
  run=${RUNS[$p]}; RUNS[$p]=$((run + 1))
  threads=$(thread_ticks "$pid") cpu=$(cpu_ticks)
  kill -CONT "$pid"
  echo "$s $ITERS" >&"${JIN[$p]}"
  if ! wait_for "$log" "^CALL run=$run " "$RUN_TO" "$pid"; then
    say "$p: no result for its run $run (size $s, round $round); see $log(.err)"; fail=1
    kill -KILL "$pid" 2>/dev/null; unset "JPID[$p]"; return
  fi
  kill -STOP "$pid"
  line=$(grep -E "^CALL run=$run " "$log")
  echo "size $s round $round: $line; $(cpu_report "$threads" "$cpu" "$pid")" >> "$LOGS/java-$p.cpu"
  if [ "$(field calls "$line")" != "$ITERS" ] || [ "$(field errors "$line")" != 0 ]; then
    say "$p (size $s, round $round): $line"; fail=1
  fi
  echo "$s $p $round $(field p50 "$line") $(field p99 "$line") $(field p999 "$line") $(field max "$line")" \
       "$(field mean "$line") $(field seconds "$line")" >> "$RES"
}

# run_perftest IMPL SIZE ROUND (IMPL perftest: polling; perftest-e: -e, sleeping on CQ events)
run_perftest() {
  local impl=$1 s=$2 round=$3 port=$((++PORT)) log=$LOGS/$1-$2-$3 srv t r i
  # shellcheck disable=SC2086
  local args=(-d "$DEV" -x "$GIDX" -F -s "$s" -n "$ITERS" -p "$port" ${BENCH_PERFTEST_ARGS:-})
  [ "$impl" = perftest-e ] && args+=(-e)
  timeout -k 5 "$RUN_TO" ib_send_lat "${args[@]}" > "$log.server" 2>&1 & srv=$!
  for i in $(seq 200); do ss -Hltn "sport = :$port" | grep -q . && break; sleep 0.05; done
  t=$(now)
  timeout -k 5 "$RUN_TO" ib_send_lat "${args[@]}" "$ADDR" > "$log.client" 2>&1 || { say "perftest client failed: $log.client"; fail=1; }
  t=$(awk "BEGIN{printf \"%.2f\", $(now) - $t}")
  wait "$srv" || { say "perftest server failed: $log.server"; fail=1; }
  # the client's result line: #bytes #iterations t_min t_max t_typical t_avg t_stdev 99% 99.9% (µs, one way)
  r=$(awk -v s="$s" -v n="$ITERS" '$1 == s && $2 == n && NF >= 9 {r = sprintf("%.2f %.2f %.2f %.2f %.2f", 2 * $5, 2 * $8, 2 * $9, 2 * $4, 2 * $6)} END {print r}' "$log.client")
  if [ -z "$r" ]; then say "perftest: no result line for $s B × $ITERS in $log.client"; fail=1; return; fi
  echo "$s $impl $round $r $t" >> "$RES"
}

T0=$(now)
for p in $PROFILES; do start_java "$p" || fail=1; done
say "JVMs ready in $(since "$T0") s"
T1=$(now)
for s in $SIZES; do
  for round in $(seq 1 "$REPS"); do
    t=$(now)
    for m in $PERFTESTS; do run_perftest "$m" "$s" "$round"; done
    for p in $PROFILES; do run_java "$p" "$s" "$round"; done
    say "size $s, round $round in $(since "$t") s (round trip p50 / p99 µs):" \
        "$(awk -v s="$s" -v r="$round" '$1 == s && $3 == r {printf "%s %s / %s  ", $2, $4, $5}' "$RES")"
  done
done
say "all runs in $(since "$T1") s"
# table: per size, every round trip (ib_send_lat, then the Java profiles): medians of the rounds;
# ratios of the medians to ib_send_lat's (polling) and, for p50, to ib_send_lat -e's
awk -v impls="$PERFTESTS $PROFILES" "$MEDIAN_AWK"'
  function fmt(x) { return x == "" ? "–" : sprintf(x < 100 ? "%.1f" : "%.0f", x) }
  function ratio(a, b) { return (a == "" || b == "" || b == 0) ? "–" : sprintf("%.2f", a / b) }
  { for (f = 4; f <= 6; f++) { key = $1 SUBSEP $2 SUBSEP f; val[key, ++cnt[key]] = $f }
    if (!($1 in seen)) { seen[$1] = 1; order[++ns] = $1 } }
  END {
    n = split(impls, impl, " ")
    name["perftest"] = "ib_send_lat"; name["perftest-e"] = "ib_send_lat -e"
    print "| size | round trip | p50 µs | p99 µs | p99.9 µs | p50 / ib_send_lat p50 | p99 / ib_send_lat p99 | p50 / ib_send_lat -e p50 | p99 / ib_send_lat -e p99 | runs |"
    print "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    for (i = 1; i <= ns; i++) {
      s = order[i]; pp = s SUBSEP "perftest" SUBSEP; pe = s SUBSEP "perftest-e" SUBSEP
      for (k = 1; k <= n; k++) {
        m = s SUBSEP impl[k] SUBSEP
        label = (impl[k] in name) ? name[impl[k]] : "Java call, " impl[k]
        print "| " s " B | " label " | " fmt(median(m 4)) " | " fmt(median(m 5)) " | " fmt(median(m 6)) \
              " | " ratio(median(m 4), median(pp 4)) " | " ratio(median(m 5), median(pp 5)) " | " ratio(median(m 4), median(pe 4)) \
              " | " ratio(median(m 5), median(pe 5)) " | " cnt[m 4] + 0 " |"
      }
    }
  }' "$RES" > "$OUT/table.md"
# thaw every JVM before any ends: a stopped process in this process group when it becomes
# orphaned would get SIGHUP (and so would this script)
for p in "${!JPID[@]}"; do kill -CONT "${JPID[$p]}" 2>/dev/null; done
for p in "${!JIN[@]}"; do        # EOF on every JVM's stdin: it closes both ends and exits
  eval "exec ${JIN[$p]}>&-"
done
for p in "${!JPID[@]}"; do
  ( sleep 60; kill -KILL "${JPID[$p]}" 2>/dev/null ) & killer=$!
  wait "${JPID[$p]}" || { say "$p JVM exit code $? (see $LOGS/java-$p.log.err)"; fail=1; }
  kill "$killer" 2>/dev/null; wait "$killer" 2>/dev/null
done

echo; cat "$OUT/table.md"
sync
exit $fail
