#!/bin/bash
# side-by-side.sh : this adapter against WildFly's embedded Artemis on ONE WildFly server, interleaved
# (A B A B ...: the machine is noisy, ±30 % run to run), issues 22 and 25's benchmarks. A benchmark,
# not a test: nothing passes or fails on a number.
#
#   1. builds deployment/ (the provisioned WildFly 39, srq-rar.rar) and the bench war
#      (it-tests/bench/app, srq-bench.war), then runs rar's container-less
#      SinkThroughputBenchmark (JMH) in the same sitting: figure (d), cases (a) and (b) without the
#      container and otherwise alike (the same two senders with 4 pooled peers each, the sinks'
#      activation properties, a pool thread per batch, a no-op single or batch listener)
#   2. under `flock /tmp/wildfly.lock`: a fresh server base dir (target/bench-server, a copy of
#      deployment's pristine standalone/), standalone-full.xml configured offline by deployment's
#      configure.cli and then bench.cli (the bench queues; no paging), WildFly started with it
#      (Artemis in-VM), srq-bench.war deployed
#   3. throughput into no-op MDBs, 64 B, senders inside the server (EJB @Asynchronous):
#        (a) a-srq-required / a-srq-not-supported: SrqReceiveListener MDBs on the soft device,
#            each sender a pooled connection with 4 SrqPeer connections
#        (b) b-srq-batch-required / b-srq-batch-not-supported: SrqBatchListener MDBs (maxBatchSize
#            32, one delivery and so one container transaction per batch), senders as in (a)
#        (c) c-jms-required / c-jms-not-supported: JMS MDBs on Artemis (in-VM, NON_PERSISTENT,
#            address-setting "#" max-size-bytes=-1 so that nothing pages), each sender its own
#            connection, session and producer
#      TP_WARMUPS untimed warm-up runs of each, then ROUNDS rounds of every case in turn; then the check that
#      the receiver is the bottleneck: each case with 1 and 4 senders (same message total), and for
#      the JMS cases the receiver alone, twice: the queue filled while the MDB's delivery is stopped
#      (management stop-delivery), then start-delivery and the MDB's first-to-last delivery rate
#   4. request/reply, EJB callers (@Stateless, one thread each, HdrHistogram) → responder MDB →
#      reply: JMS (temporary reply queue per caller thread, JMSReplyTo + correlation id, NON_PERSISTENT)
#      with the responder under CMT REQUIRED and NOT_SUPPORTED, 64 B and 4 KiB, 1 and 8 callers,
#      ROUNDS interleaved rounds; and over pooled SRQs (srq-required / srq-not-supported: per caller
#      thread a pooled connection and its pooled SrqPeer to the responder, SrqPeer.call per request,
#      the responder answering with ReceiveCompletion.reply; maxConcurrency 8, each request on a
#      pool thread of the container's WorkManager; srq-inline-*: the same responder with
#      maxConcurrency 1, invoked through the container on the activation's poller thread).
#   5. writes $OUT/summary.md (medians and min–max of the rounds, machine, versions, the command)
#      and puts it into it-tests/bench/RESULTS.md as the section "Side by side on one WildFly"
#      (replacing an earlier one).
#
# Usage: it-tests/bench/side-by-side.sh [--skip-build] [--skip-jmh] [--no-results]
#   --skip-build  use what the last build left (deployment/target, it-tests/bench/app/target)
#   --skip-jmh    leave out (d) (its row then says "not run")
#   --no-results  write $OUT/summary.md only, leave RESULTS.md alone
# Knobs (environment): ROUNDS (3), TP_CASES and RR_CASES (the case lists below, e.g. a subset), TP_MESSAGES (messages per run of an SRQ throughput case, 200000:
#   about a second at the rates seen), TP_JMS_MESSAGES (per run of a JMS case, TP_MESSAGES: runs of
#   20000 ended while Artemis' send path was still being compiled and measured a third of its rate),
#   TP_WARMUPS (untimed runs of each case before the rounds, 3), RR_CALLS (timed
#   calls per caller and run, 20000, a quarter as many untimed first), RR_MAX_MS (a run's timed phase
#   ends after this many ms if the calls have not, 5000; the warm-up after a third of it), BENCH_OUT
#   (it-tests/target/side-by-side), MVN_ARGS (e.g. -o), JAVA_HOME (JDK 25), SERVER_JAVA_OPTS (extra JVM
#   arguments of the server, e.g. -Dsrq.call.spinNanos=200000; the summary names them).
# Ports: WildFly's 8080 and 9990 (shared on this machine: the server part waits for the lock).
# About 8-10 minutes on 2 cores.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
OUT=${BENCH_OUT:-$REPO/it-tests/target/side-by-side}
ROUNDS=${ROUNDS:-3}
TP_MESSAGES=${TP_MESSAGES:-200000}
TP_JMS_MESSAGES=${TP_JMS_MESSAGES:-$TP_MESSAGES}
TP_WARMUPS=${TP_WARMUPS:-3}
RR_CALLS=${RR_CALLS:-20000}
RR_MAX_MS=${RR_MAX_MS:-5000}
TP_SENDERS=2
THROUGHPUT_CASES=${TP_CASES:-a-srq-required b-srq-batch-required c-jms-required a-srq-not-supported b-srq-batch-not-supported c-jms-not-supported}
RR_CASES=${RR_CASES:-jms-required srq-required srq-inline-required jms-not-supported srq-not-supported srq-inline-not-supported}
BUILD=true JMH=true RESULTS=true
for a in "$@"; do
  case "$a" in
    --skip-build) BUILD=false ;;
    --skip-jmh) JMH=false ;;
    --no-results) RESULTS=false ;;
    *) echo "side-by-side: unknown option '$a' (--skip-build, --skip-jmh, --no-results)" >&2; exit 2 ;;
  esac
done
BASE=$REPO/it-tests/target/bench-server
URL=http://127.0.0.1:8080/srq-bench
. "$HERE/bench-lib.sh"
say() { echo "side-by-side: $*" >&2; }
die() { say "FAILED: $*"; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
T0=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
COMMAND="it-tests/bench/side-by-side.sh${*:+ $*}"

# 1. build, and (d) ----------------------------------------------------------------------------------
bench_build
if $JMH; then
  # the reactor runs JMH in native too (no install, so -am), where a pattern matching nothing fails:
  # native's one-thread bare loop (one case, ~16 s) comes along
  say "(d) container-less: rar's SinkThroughputBenchmark (JMH, about 1 min)"
  mvn -B -Dstyle.color=never ${MVN_ARGS:-} -f "$REPO/pom.xml" -pl native,rar -am -Pbench verify -DskipTests \
    -Dbench.include='SinkThroughputBenchmark|SoftFabricBenchmark' > "$OUT/jmh.log" 2>&1 || die "JMH failed; see $OUT/jmh.log"
  jq -r '.[] | (.primaryMetric.rawData | flatten | sort) as $v | ($v | length) as $n
        | [.params.listener, (if $n % 2 == 1 then $v[($n - 1) / 2] else ($v[$n / 2 - 1] + $v[$n / 2]) / 2 end), $v[0], $v[-1]]
        | @tsv' "$REPO/rar/target/jmh-result.json" > "$OUT/jmh.tsv"
fi

# 2.-4. the server, under the shared lock ----------------------------------------------------------
post() { post_to "$URL" "$@"; } # post PATH QUERY (bench-lib.sh)
server() {
  port_taken() { timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }
  for p in 9990 8080; do port_taken $p && die "port $p is in use although we hold /tmp/wildfly.lock"; done
  say "configuring standalone-full.xml offline (configure.cli, bench.cli)"
  bench_configure "$BASE" offline "$REPO/deployment/src/main/cli/configure.cli" "$HERE/bench.cli"
  say "starting WildFly (standalone-full, base dir $BASE)"
  trap 'stop_server' EXIT
  bench_boot "$BASE" 0 server
  SERVER_PID=$BOOTED_PID
  bench_cli 9990 "deploy $WAR" || die "deploy failed; see $OUT/cli.log"
  say "deployed srq-bench.war"
  : > "$OUT/throughput.txt"; : > "$OUT/roundtrip.txt"
  total() { case $1 in c-jms-*) echo "$TP_JMS_MESSAGES" ;; *) echo "$TP_MESSAGES" ;; esac; }
  tp() { # tp ROUND CASE SENDERS: a run of total(CASE) messages over SENDERS threads
    local r
    r=$(post throughput "case=$2&senders=$3&peers=4&messages=$(( $(total "$2") / $3 ))&size=64&timeoutMs=300000") || return 1
    echo "round=$1 $(tr '\n' ' ' <<< "$r")" >> "$OUT/throughput.txt"
    say "  $1 $2 senders=$3: $(field rate "$r") msg/s (send phase $(field sendRate "$r") msg/s, backlog mean $(field meanBacklog "$r") max $(field maxBacklog "$r"), at send end $(field backlogAtSendEnd "$r"))"
  }
  say "throughput: warm-up (untimed) then $ROUNDS interleaved rounds of $THROUGHPUT_CASES"
  for w in $(seq "$TP_WARMUPS"); do
    for c in $THROUGHPUT_CASES; do tp "warmup$w" "$c" $TP_SENDERS || die "throughput $c"; done
  done
  for r in $(seq "$ROUNDS"); do
    for c in $THROUGHPUT_CASES; do tp "$r" "$c" $TP_SENDERS || die "throughput $c"; done
  done
  say "throughput: is the receiver the bottleneck? each case with 1 and 4 senders"
  for s in 1 4; do
    for c in $THROUGHPUT_CASES; do tp "senders$s" "$c" $s || die "throughput $c"; done
  done
  rr() { # rr ROUND CASE CALLERS SIZE
    local r
    r=$(post roundtrip "case=$2&callers=$3&warmup=$((RR_CALLS / 4))&calls=$RR_CALLS&size=$4&maxMs=$RR_MAX_MS") || return 1
    echo "round=$1 $(tr '\n' ' ' <<< "$r")" >> "$OUT/roundtrip.txt"
    say "  $1 $2 callers=$3 size=$4: $(field calls "$r") calls, $(field callsPerSec "$r") calls/s, p50 $(field p50Us "$r") µs, p99 $(field p99Us "$r") µs, p99.9 $(field p999Us "$r") µs"
  }
  mgmt() { bench_cli 9990 "$1"; }
  drain() { # drain ROUND CASE MDB: the receiver alone
    local r mdb=/deployment=srq-bench.war/subsystem=ejb3/message-driven-bean=$3
    mgmt "$mdb:stop-delivery" || { say "stop-delivery of $3 failed"; return 1; }
    post drain "case=$2&step=prefill&senders=$TP_SENDERS&messages=$((TP_JMS_MESSAGES / TP_SENDERS))" > /dev/null || return 1
    mgmt "$mdb:start-delivery" || { say "start-delivery of $3 failed"; return 1; }
    r=$(post drain "case=$2&step=drain") || return 1
    echo "round=$1 $(tr '\n' ' ' <<< "$r")" >> "$OUT/drain.txt"
    say "  $1 $2 receiver alone (pre-filled queue): $(field drainRate "$r") msg/s"
  }
  : > "$OUT/drain.txt"
  for r in 1 2; do # the JMS cases of TP_CASES only
    case " $THROUGHPUT_CASES " in *" c-jms-required "*) drain "$r" c-jms-required JmsSinkRequired || die "drain c-jms-required" ;; esac
    case " $THROUGHPUT_CASES " in *" c-jms-not-supported "*) drain "$r" c-jms-not-supported JmsSinkNotSupported || die "drain c-jms-not-supported" ;; esac
  done
  say "request/reply: $ROUNDS interleaved rounds of $RR_CASES × 64 B, 4 KiB × 1, 8 callers"
  for r in $(seq "$ROUNDS"); do
    for size in 64 4096; do for n in 1 8; do for c in $RR_CASES; do
      rr "$r" "$c" $n $size || die "round trip $c"
    done; done; done
  done
  grep -m1 -oE 'WildFly [^ ]+ \([^)]*\)|WildFly [0-9][^ ]*' "$BASE/log/server.log" > "$OUT/wildfly-version.txt"
  grep -m1 -oE 'Artemis Message Broker version [0-9.]+' "$BASE/log/server.log" | sed 's/.* //' > "$OUT/artemis-version.txt"
  grep -c 'AMQ222038' "$BASE/log/server.log" > "$OUT/paging-lines.txt"
  stop_server
}
stop_server() {
  local pid=${SERVER_PID:-${BOOTED_PID:-}}   # BOOTED_PID: a boot that failed
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    say "stopping WildFly"
    bench_cli 9990 :shutdown || kill "$pid"
    wait "$pid" 2>/dev/null
  fi
  SERVER_PID= BOOTED_PID=
}
bench_locked server

# 5. the summary -----------------------------------------------------------------------------------
TP=$OUT/throughput.txt RT=$OUT/roundtrip.txt
{
  echo "## Side by side on one WildFly: this adapter vs the embedded Artemis, $(date -u +%FT%TZ)"
  echo
  echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores; kernel $(uname -r);" \
       "rdma-core (libibverbs1) $(dpkg-query -W -f='${Version}' libibverbs1 2>/dev/null || echo 'not installed');" \
       "$("$JAVA_HOME/bin/java" -version 2>&1 | head -1); $(cat "$OUT/wildfly-version.txt"), standalone-full," \
       "embedded Artemis $(cat "$OUT/artemis-version.txt") (in-VM); load average at the start: $LOAD_START, at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "Command: \`$COMMAND\` (ROUNDS=$ROUNDS, TP_MESSAGES=$TP_MESSAGES, TP_JMS_MESSAGES=$TP_JMS_MESSAGES, RR_CALLS=$RR_CALLS," \
       "RR_MAX_MS=$RR_MAX_MS); wall time $(( $(date +%s) - T0 )) s. Medians of $ROUNDS" \
       "interleaved rounds (min–max in brackets), after $TP_WARMUPS untimed warm-up runs of each throughput case."
  echo "Server JVM: -Xms2g -Xmx2g${SERVER_JAVA_OPTS:+ $SERVER_JAVA_OPTS}, C2 (no TieredStopAtLevel). The soft device (provider=soft) is in the"
  echo "server's JVM: senders and receivers share its 2 cores. Artemis: NON_PERSISTENT, address-setting \`#\`"
  echo "max-size-bytes=-1 (bench.cli), so nothing pages: \`AMQ222038\` (starting paging) lines in the run's"
  echo "server log: $(cat "$OUT/paging-lines.txt")."
  echo
  echo "### Throughput into a no-op MDB, 64 B ($TP_MESSAGES messages per SRQ run, $TP_JMS_MESSAGES per JMS run, $TP_SENDERS sender threads in the server, timed from the first send: the senders' connections are made before)"
  echo
  echo "| case | MDB | transaction | msg/s delivered | send phase msg/s | mean backlog | max backlog | backlog when the senders finished |"
  echo "|---|---|---|---:|---:|---:|---:|---:|"
  for c in $THROUGHPUT_CASES; do
    case $c in
      a-srq-required) d="(a) adapter, SrqReceiveListener|REQUIRED" ;;
      a-srq-not-supported) d="(a) adapter, SrqReceiveListener|NOT_SUPPORTED" ;;
      b-srq-batch-required) d="(b) adapter, SrqBatchListener (maxBatchSize 32)|REQUIRED" ;;
      b-srq-batch-not-supported) d="(b) adapter, SrqBatchListener (maxBatchSize 32)|NOT_SUPPORTED" ;;
      c-jms-required) d="(c) Artemis, MessageListener|REQUIRED" ;;
      c-jms-not-supported) d="(c) Artemis, MessageListener|NOT_SUPPORTED" ;;
    esac
    echo "| $c | $d | $(stats "$TP" rate case=$c) | $(stats "$TP" sendRate case=$c) | $(stats "$TP" meanBacklog case=$c) | $(stats "$TP" maxBacklog case=$c) | $(stats "$TP" backlogAtSendEnd case=$c) |"
  done
  if [ -s "$OUT/jmh.tsv" ]; then
    while IFS=$'\t' read -r l m lo hi; do
      echo "| (d) SinkThroughputBenchmark $l | no-op $l listener, no container (JMH: send rate, 2 senders × 4 pooled peers) | none | $(awk -v a="$m" -v b="$lo" -v c="$hi" 'BEGIN{printf "%.0f (%.0f–%.0f)", a, b, c}') | | | | |"
    done < "$OUT/jmh.tsv"
  else
    echo "| (d) SinkThroughputBenchmark | container-less | — | not run (--skip-jmh) | | | | |"
  fi
  echo
  aR=$(med "$TP" rate case=a-srq-required) aN=$(med "$TP" rate case=a-srq-not-supported)
  bR=$(med "$TP" rate case=b-srq-batch-required) bN=$(med "$TP" rate case=b-srq-batch-not-supported)
  cR=$(med "$TP" rate case=c-jms-required) cN=$(med "$TP" rate case=c-jms-not-supported)
  dS=$(awk -F'\t' '$1 == "single" {print $2}' "$OUT/jmh.tsv" 2>/dev/null)
  dB=$(awk -F'\t' '$1 == "batch" {print $2}' "$OUT/jmh.tsv" 2>/dev/null)
  echo "Like for like (medians): (a)/(c) REQUIRED $(ratio "$aR" "$cR"), NOT_SUPPORTED $(ratio "$aN" "$cN") (goal ≥ 1.5);" \
       "(a) NOT_SUPPORTED/(d) single $(ratio "$aN" "${dS:-0}"); (b)/(c) REQUIRED $(ratio "$bR" "$cR"), NOT_SUPPORTED $(ratio "$bN" "$cN") (goal ≥ 5);" \
       "(b) NOT_SUPPORTED/(d) batch $(ratio "$bN" "${dB:-0}") (goal ≥ 0.5). (d) is the same senders and activation without the"
  echo "container: the ratio to it is what WildFly's MDB container and WorkManager cost."
  echo
  echo "Is the receiving side the bottleneck? The backlog (sent − delivered, sampled every 5 ms), the same"
  echo "message total with 1 and 4 sender threads (one run each, after the rounds) and, for JMS, the receiver"
  echo "alone: the queue filled while the MDB's delivery was stopped (stop-delivery), then start-delivery and"
  echo "the MDB's rate from its first to its last delivery (two runs). An SRQ sender cannot run ahead of"
  echo "the SRQ's receive buffers (receiver-not-ready holds it back), so there the sign is a backlog that"
  echo "stays near the SRQ's depth (srqMaxWr 1024) instead of near 0. (Senders publish their count in steps"
  echo "of 256, so a sampled backlog can be slightly negative.)"
  echo
  echo "| case | 1 sender msg/s | $TP_SENDERS senders msg/s (median) | 4 senders msg/s | mean backlog, 1 / $TP_SENDERS (median) / 4 senders | backlog at send end, 1 / 4 senders | receiver alone msg/s |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  for c in $THROUGHPUT_CASES; do
    alone="n/a (SRQ)"
    case $c in c-jms-*) alone="$(one "$OUT/drain.txt" 1 "$c" drainRate), $(one "$OUT/drain.txt" 2 "$c" drainRate)" ;; esac
    echo "| $c | $(one "$TP" senders1 "$c" rate) | $(med "$TP" rate case=$c) | $(one "$TP" senders4 "$c" rate) | $(one "$TP" senders1 "$c" meanBacklog) / $(med "$TP" meanBacklog case=$c) / $(one "$TP" senders4 "$c" meanBacklog) | $(one "$TP" senders1 "$c" backlogAtSendEnd) / $(one "$TP" senders4 "$c" backlogAtSendEnd) | $alone |"
  done
  echo
  echo "### Request/reply: EJB caller → responder MDB → reply (JMS: temporary reply queue per caller thread, JMSReplyTo + correlation id, NON_PERSISTENT; SRQ: per caller thread a pooled connection's pooled SrqPeer, SrqPeer.call, ReceiveCompletion.reply)"
  echo
  echo "Per run and caller thread: up to $((RR_CALLS / 4)) untimed calls (at most $((RR_MAX_MS / 3)) ms), then up to $RR_CALLS timed calls"
  echo "(at most $RR_MAX_MS ms; \"calls\" is what the run timed, all callers); the callers' histograms merged"
  echo "(HdrHistogram, 3 digits). Latencies in µs."
  echo
  echo "| case | responder transaction | size | callers | calls timed per run | calls/s | p50 µs | p99 µs | p99.9 µs |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
  for size in 64 4096; do for n in 1 8; do for c in $RR_CASES; do
    t=REQUIRED; case $c in *-not-supported) t=NOT_SUPPORTED ;; esac
    case $c in srq-inline-*) t="$t, maxConcurrency 1 (on the poller's thread)" ;; srq-*) t="$t, maxConcurrency 8 (pool thread)" ;; esac
    f="case=$c callers=$n size=$size"
    echo "| $c | $t | $size B | $n | $(stats "$RT" calls $f) | $(stats "$RT" callsPerSec $f) | $(stats "$RT" p50Us $f) | $(stats "$RT" p99Us $f) | $(stats "$RT" p999Us $f) |"
  done; done; done
  echo
  echo "Like for like (medians, 64 B): SRQ p50 / JMS p50, 1 caller: REQUIRED $(ratio "$(med "$RT" p50Us case=srq-required callers=1 size=64)" "$(med "$RT" p50Us case=jms-required callers=1 size=64)")," \
       "NOT_SUPPORTED $(ratio "$(med "$RT" p50Us case=srq-not-supported callers=1 size=64)" "$(med "$RT" p50Us case=jms-not-supported callers=1 size=64)");" \
       "SRQ calls/s / JMS calls/s, 8 callers: REQUIRED $(ratio "$(med "$RT" callsPerSec case=srq-required callers=8 size=64)" "$(med "$RT" callsPerSec case=jms-required callers=8 size=64)")," \
       "NOT_SUPPORTED $(ratio "$(med "$RT" callsPerSec case=srq-not-supported callers=8 size=64)" "$(med "$RT" callsPerSec case=jms-not-supported callers=8 size=64)")." \
       "With the responder on the poller's thread (srq-inline-*): p50 / JMS p50, 1 caller: REQUIRED $(ratio "$(med "$RT" p50Us case=srq-inline-required callers=1 size=64)" "$(med "$RT" p50Us case=jms-required callers=1 size=64)")," \
       "NOT_SUPPORTED $(ratio "$(med "$RT" p50Us case=srq-inline-not-supported callers=1 size=64)" "$(med "$RT" p50Us case=jms-not-supported callers=1 size=64)")."
  echo
  echo "Issue 25's goal in WildFly, one caller, warm (p50 ≤ 20 µs, p99 ≤ 100 µs): the 4 KiB rows run after the 64 B ones"
  echo "(a warmer JIT). p50 / p99 µs, medians: srq-inline-not-supported $(med "$RT" p50Us case=srq-inline-not-supported callers=1 size=4096) / $(med "$RT" p99Us case=srq-inline-not-supported callers=1 size=4096)," \
       "srq-inline-required $(med "$RT" p50Us case=srq-inline-required callers=1 size=4096) / $(med "$RT" p99Us case=srq-inline-required callers=1 size=4096);" \
       "on a pool thread: srq-not-supported $(med "$RT" p50Us case=srq-not-supported callers=1 size=4096) / $(med "$RT" p99Us case=srq-not-supported callers=1 size=4096)," \
       "srq-required $(med "$RT" p50Us case=srq-required callers=1 size=4096) / $(med "$RT" p99Us case=srq-required callers=1 size=4096)."
  echo
  echo "Raw runs: \`${OUT#"$REPO"/}\` (throughput.txt, drain.txt, roundtrip.txt, jmh.tsv; the server log in it-tests/target/bench-server/log)."
} > "$OUT/summary.md"
bench_results "Side by side on one WildFly"
