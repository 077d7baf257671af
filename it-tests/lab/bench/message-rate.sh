#!/bin/bash
# message-rate.sh OUT : the guest side of the lab message-rate benchmark (issue #9); runs INSIDE
# one rxe lab boot, as root. run-message-rate.sh prepares OUT on the host: bin/srq_send,
# bin/srq_recv (gcc) and cp/ (class path snapshot); nothing is compiled here.
#
# Receivers (BENCH_IMPLS), each on ONE SRQ of BENCH_DEPTH receive WRs:
#   perftest  ib_send_bw -F --use-srq -q QPS -s SIZE -n N/QPS -r DEPTH, client with -t WINDOW
#             -Q SIGNAL -I 0; the server's (receiver's) MsgRate[Mpps] is recorded
#   c         bench/c/srq_recv.c (rdma_cm + one SRQ in C, the same loop as the Java one)  } all fed by
#   java      SrqRateReceiver (native test sources: the FFM verbs layer)                  } srq_send -q QPS
#   adapter   AdapterRateReceiver (rar test sources: SrqActivation to a no-op endpoint)   } -s SIZE -n N/QPS
#   (adapterK: the same with maxConcurrency K)                                            } -w WINDOW -k SIGNAL -I 0
# c, java and adapter are long-lived processes with BENCH_BUFFER-byte receive buffers (one JVM
# start costs ~1 min on the emulated CPU), each started once and frozen with SIGSTOP whenever
# another receiver is measured (they busy-poll). c and java end a run when all its connections
# are gone; adapter is told on stdin how many messages the sender sent. The JVM receivers first
# get a timed warm-up run (BENCH_WARMUP s; JIT compilation is slow on the emulated CPU and must
# not fall into measured runs). Then the runs interleave: for every SIZE and QPS, BENCH_REPS
# rounds, each one run of every receiver. A run's rate is measured on the receiver between its
# first and its last message.
# Output in OUT: results.txt ("SIZE QPS IMPL ROUND MSG_PER_S MESSAGES RNR_NAKS" per counted run),
# table.md (medians, ratios of medians), kernel.txt, guest.txt, runs/*.
# Exit code 0 only if every run finished with the expected message count and no error completion.
#
# Knobs (environment, forwarded by run-message-rate.sh):
#   BENCH_SIZES ("64 4096")  BENCH_QPS ("1 8")  BENCH_REPS (3)  BENCH_IMPLS ("perftest c java adapter")
#   BENCH_MESSAGES_<SIZE> messages per run over all QPs (64: 30000, 4096: 10000; other sizes
#                 BENCH_MESSAGES, default 10000)
#   BENCH_DEPTH (16384) SRQ receive WRs  BENCH_BUFFER (largest size) receive buffer bytes (c/java/adapter)
#   BENCH_WINDOW (128) send WRs in flight per QP  BENCH_SIGNAL (16) every k-th send signaled (perftest -Q)
#   BENCH_CONCURRENCY (4) the adapter's maxConcurrency (pollMode busy, srqLimit 0)
#   BENCH_WARMUP (20) seconds of the JVM receivers' warm-up run
#   BENCH_RUN_TIMEOUT (120) seconds for one run   BENCH_START_TIMEOUT (300) for a receiver to listen
#   BENCH_JAVA_OPTS extra JVM args   BENCH_DEVICE (rxe0) BENCH_GID_INDEX (1) BENCH_ADDRESS (10.77.0.1)
#   BENCH_JAVA (java of JAVA_HOME)
set -u
OUT=${1:?usage: message-rate.sh OUT}
BIN=$OUT/bin
CP=$(cat "$OUT/cp/classpath.txt") || exit 2
DEV=${BENCH_DEVICE:-rxe0} GIDX=${BENCH_GID_INDEX:-1} ADDR=${BENCH_ADDRESS:-10.77.0.1}
SIZES=${BENCH_SIZES:-64 4096} QPSS=${BENCH_QPS:-1 8} REPS=${BENCH_REPS:-3}
IMPLS=${BENCH_IMPLS:-perftest c java adapter}
DEPTH=${BENCH_DEPTH:-16384} WINDOW=${BENCH_WINDOW:-128} SIGNAL=${BENCH_SIGNAL:-16}
BUFFER=${BENCH_BUFFER:-$(printf '%s\n' $SIZES | sort -n | tail -1)}
WARMUP=${BENCH_WARMUP:-20} CONC=${BENCH_CONCURRENCY:-4} RUN_TO=${BENCH_RUN_TIMEOUT:-120} START_TO=${BENCH_START_TIMEOUT:-300}
JAVA=${BENCH_JAVA:-${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java}
JOPTS="--enable-native-access=ALL-UNNAMED -XX:ErrorFile=$OUT/hs_err_pid%p.log ${BENCH_JAVA_OPTS:-}"
RES=$OUT/results.txt LOGS=$OUT/runs
mkdir -p "$LOGS"; : > "$RES"
PORT=19000 fail=0
declare -A RPID RPORT RUNS RIN
trap '' PIPE   # a receiver that died makes a write to its stdin fail, not this script
say() { echo "message-rate: $*"; }
source "$(dirname "$0")/guest-lib.sh"

guest_info "$OUT"

# RNR NAKs sent by rxe0's responders (rxe hw counter; 0 if missing)
rnr() { cat /sys/class/infiniband/"$DEV"/ports/1/hw_counters/send_rnr_err 2>/dev/null || echo 0; }
messages_for() { local v="BENCH_MESSAGES_$1" d=10000; [ "$1" = 64 ] && d=30000; echo "${!v:-${BENCH_MESSAGES:-$d}}"; }
field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<< "$2"; }

# start_receiver IMPL: starts it, waits for LISTENING, freezes it
start_receiver() {
  local impl=$1 port=$((++PORT)) log=$LOGS/$1.receiver cmd total
  total=0; for s in $SIZES; do for q in $QPSS; do total=$((total + REPS)); done; done
  [ "$impl" = c ] || total=$((total + 1))   # + the warm-up run of the JVMs
  case $impl in
    c) cmd=("$BIN/srq_recv" -a "$ADDR" -p "$port" -b "$BUFFER" -r "$DEPTH" -R "$total") ;;
    java) cmd=("$JAVA" $JOPTS -cp "$CP" io.rdma.srq.verbs.lab.bench.SrqRateReceiver "$DEV" "$ADDR" "$port" "$BUFFER" "$DEPTH" "$total") ;;
    adapter*) local k=${impl#adapter}
      cmd=("$JAVA" $JOPTS -cp "$CP" io.rdma.srq.ra.bench.AdapterRateReceiver "$DEV" "$ADDR" "$port" "$BUFFER" "$DEPTH" "${k:-$CONC}") ;;
    *) say "unknown receiver $impl"; return 1 ;;
  esac
  local t=$(now)
  # the adapter receiver reads each run's message count from stdin (a FIFO held open here)
  local fifo=/tmp/message-rate.$$.$impl.in
  rm -f "$fifo"; mkfifo "$fifo" || return 1
  "${cmd[@]}" < "$fifo" > "$log" 2> "$log.err" &
  RPID[$impl]=$! RPORT[$impl]=$port RUNS[$impl]=0
  exec {fd}> "$fifo"; RIN[$impl]=$fd; rm -f "$fifo"
  if ! wait_for "$log" '^LISTENING' "$START_TO" "${RPID[$impl]}"; then
    say "$impl receiver did not start (see $log.err)"; kill -KILL "${RPID[$impl]}" 2>/dev/null; unset "RPID[$impl]"; return 1
  fi
  kill -STOP "${RPID[$impl]}"
  say "$impl receiver listening on port $port after $(since "$t") s (pid ${RPID[$impl]}, frozen until its runs)"
}

# run_ours IMPL SIZE QPS ROUND SENDER_ARGS...: one run of the C sender against a started receiver
# (ROUND 0 = warm-up, not recorded)
run_ours() {
  local impl=$1 s=$2 q=$3 round=$4 pid=${RPID[$1]:-} log=$LOGS/$1.receiver r0 line sent m errs rate
  shift 4
  [ -n "$pid" ] || return
  local run=${RUNS[$impl]}; RUNS[$impl]=$((run + 1))
  kill -CONT "$pid"
  r0=$(rnr)
  if ! line=$(timeout -k 5 "$RUN_TO" "$BIN/srq_send" -a "$ADDR" -p "${RPORT[$impl]}" -q "$q" -s "$s" -w "$WINDOW" \
       -k "$SIGNAL" -I 0 "$@" 2>> "$LOGS/$impl.sender"); then
    say "$impl: sender failed (size $s, $q QPs, round $round; see $LOGS/$impl.sender)"; fail=1
  fi
  echo "$line" >> "$LOGS/$impl.sender"
  sent=$(field messages "$line")
  case $impl in adapter*) echo "${sent:-0}" >&"${RIN[$impl]}" ;; esac   # it waits for this many messages
  if ! wait_for "$log" "^RECEIVER .* run=$run " "$RUN_TO" "$pid"; then
    say "$impl: no result for its run $run (size $s, $q QPs); see $log(.err)"; fail=1
    kill -KILL "$pid" 2>/dev/null; unset "RPID[$impl]"; return
  fi
  kill -STOP "$pid" 2>/dev/null   # (gone if that was its last run)
  line=$(grep -E "^RECEIVER .* run=$run " "$log")
  m=$(field messages "$line"); errs=$(field errors "$line"); rate=$(field msg_per_s "$line")
  if [ -z "$sent" ] || [ "$m" != "$sent" ] || [ "$errs" != 0 ]; then
    say "$impl (size $s, $q QPs, round $round): received $m of ${sent:-?} messages sent; $errs error completions"; fail=1
  fi
  [ "$round" = 0 ] || echo "$s $q $impl $round $rate $m $(( $(rnr) - r0 ))" >> "$RES"
}

# run_perftest SIZE QPS N_PER_QP ROUND
run_perftest() {
  local s=$1 q=$2 n=$3 round=$4 port=$((++PORT)) log=$LOGS/perftest-$1-$2-$4 srv r0 rate iters i
  local args=(-d "$DEV" -x "$GIDX" -p "$port" -F --use-srq -q "$q" -s "$s" -n "$n" -r "$DEPTH" -t "$WINDOW" -Q "$SIGNAL" -I 0)
  r0=$(rnr)
  timeout -k 5 "$RUN_TO" ib_send_bw "${args[@]}" > "$log.server" 2>&1 & srv=$!
  for i in $(seq 200); do ss -Hltn "sport = :$port" | grep -q . && break; sleep 0.05; done
  timeout -k 5 "$RUN_TO" ib_send_bw "${args[@]}" 127.0.0.1 > "$log.client" 2>&1 || { say "perftest client failed: $log.client"; fail=1; }
  wait "$srv" || { say "perftest server failed: $log.server"; fail=1; }
  # the server's result line: SIZE ITERATIONS(all QPs) PEAK AVG MSGRATE[Mpps]
  rate=$(awk -v s="$s" '$1 == s && NF >= 5 {r = $5} END {if (r != "") printf "%.1f", r * 1e6}' "$log.server")
  iters=$(awk -v s="$s" '$1 == s && NF >= 5 {i = $2} END {print i}' "$log.server")
  if [ -z "$rate" ] || [ "$iters" != $((n * q)) ]; then say "perftest: no result or $iters iterations in $log.server"; fail=1; return; fi
  [ "$round" = 0 ] || echo "$s $q perftest $round $rate $iters $(( $(rnr) - r0 ))" >> "$RES"
}

T0=$(now)
for impl in $IMPLS; do
  [ "$impl" = perftest ] || start_receiver "$impl" || fail=1
done
say "receivers started in $(since "$T0") s"
# JIT warm-up of the JVM receivers: one timed run each (size and QPs of the first configuration)
WSIZE=${SIZES%% *} WQPS=$(printf '%s\n' $QPSS | sort -n | tail -1)
for impl in $IMPLS; do
  case $impl in perftest|c) continue ;; esac
  t=$(now); run_ours "$impl" "$WSIZE" "$WQPS" 0 -t "$WARMUP"
  say "$impl warm-up ($WARMUP s of $WSIZE B on $WQPS QPs) in $(since "$t") s: $(grep -E '^RECEIVER .* run=0 ' "$LOGS/$impl.receiver" | sed 's/.* msg_per_s=/msg_per_s=/')"
done
T1=$(now)
for s in $SIZES; do
  for q in $QPSS; do
    N=$(messages_for "$s"); n=$(( (N + q - 1) / q ))
    for round in $(seq 1 "$REPS"); do
      t=$(now)
      for impl in $IMPLS; do
        case $impl in perftest) run_perftest "$s" "$q" "$n" "$round" ;; *) run_ours "$impl" "$s" "$q" "$round" -n "$n" ;; esac
      done
      say "size $s, $q QPs, $((n * q)) messages per run, round $round in $(since "$t") s:" \
          "$(awk -v s="$s" -v q="$q" -v r="$round" '$1 == s && $2 == q && $4 == r {printf "%s %.0f  ", $3, $5}' "$RES")"
    done
  done
done
say "all runs in $(since "$T1") s"
for impl in "${!RIN[@]}"; do     # EOF on every receiver's stdin (the adapter's end), before any
  eval "exec ${RIN[$impl]}>&-"    # child below could inherit a write end and hold it open
done
for impl in "${!RPID[@]}"; do   # every receiver has served all its runs and exits by itself
  kill -CONT "${RPID[$impl]}" 2>/dev/null
  ( sleep 30; kill -KILL "${RPID[$impl]}" 2>/dev/null ) & killer=$!
  wait "${RPID[$impl]}" || { say "$impl receiver exit code $? (see $LOGS/$impl.receiver.err)"; fail=1; }
  kill "$killer" 2>/dev/null; wait "$killer" 2>/dev/null
done

# table: medians per (size, QPs, receiver); ratios of the medians
awk "$MEDIAN_AWK"'
  function fmt(x) { return x == "" ? "–" : sprintf("%.0f", x) }
  function ratio(a, b) { return (a == "" || b == "" || b == 0) ? "–" : sprintf("%.2f", a / b) }
  { key = $1 SUBSEP $2 SUBSEP $3; val[key, ++cnt[key]] = $5; rnr[key] += $7
    if (!(($1 SUBSEP $2) in seen)) { seen[$1 SUBSEP $2] = 1; order[++nc] = $1 SUBSEP $2 } }
  END {
    print "| size | QPs | perftest msg/s | C recv msg/s | Java msg/s | Java/perftest | Java/C | adapter msg/s | adapter/perftest | adapter/C | runs p/c/j/a | RNR NAKs p/c/j/a |"
    print "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
    for (i = 1; i <= nc; i++) {
      split(order[i], sq, SUBSEP); c = order[i] SUBSEP
      p = median(c "perftest"); cc = median(c "c"); j = median(c "java"); a = median(c "adapter")
      print "| " sq[1] " B | " sq[2] " | " fmt(p) " | " fmt(cc) " | " fmt(j) " | " ratio(j, p) " | " ratio(j, cc) \
            " | " fmt(a) " | " ratio(a, p) " | " ratio(a, cc) " | " cnt[c "perftest"] + 0 "/" cnt[c "c"] + 0 "/" cnt[c "java"] + 0 "/" cnt[c "adapter"] + 0 \
            " | " rnr[c "perftest"] + 0 "/" rnr[c "c"] + 0 "/" rnr[c "java"] + 0 "/" rnr[c "adapter"] + 0 " |"
    }
  }' "$RES" > "$OUT/table.md"
echo; cat "$OUT/table.md"
sync
exit $fail
