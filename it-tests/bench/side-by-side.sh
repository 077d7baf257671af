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
WILDFLY=$REPO/deployment/target/wildfly
BASE=$REPO/it-tests/target/bench-server
WAR=$REPO/it-tests/bench/app/target/srq-bench.war
URL=http://127.0.0.1:8080/srq-bench
CLI="$WILDFLY/bin/jboss-cli.sh"
say() { echo "side-by-side: $*" >&2; }
die() { say "FAILED: $*"; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
T0=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
COMMAND="it-tests/bench/side-by-side.sh${*:+ $*}"

# 1. build, and (d) ----------------------------------------------------------------------------------
if $BUILD; then
  say "building deployment/ and the bench war"
  mvn -B -q ${MVN_ARGS:-} -f "$REPO/pom.xml" -pl deployment,it-tests/bench/app -am package -DskipTests \
    > "$OUT/build.log" 2>&1 || die "build failed; see $OUT/build.log"
fi
for f in "$WILDFLY/bin/standalone.sh" "$REPO/deployment/target/srq-rar.rar" "$WAR" \
         "$REPO/deployment/target/standalone-pristine/configuration/standalone-full.xml"; do
  [ -e "$f" ] || die "$f is missing: run without --skip-build"
done
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
post() { # post PATH QUERY: the answer's key=value lines on stdout; fails on a non-200
  local body code
  body=$(curl -sS -m 900 -X POST -w '\n%{http_code}' "$URL/$1?$2") || return 1
  code=${body##*$'\n'}; body=${body%$'\n'*}
  [ "$code" = 200 ] || { say "POST /$1?$2 answered $code: $body"; return 1; }
  printf '%s\n' "$body"
}
field() { sed -n "s/^$1=//p" <<< "$2"; }
server() {
  port_taken() { timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }
  for p in 9990 8080; do port_taken $p && die "port $p is in use although we hold /tmp/wildfly.lock"; done
  rm -rf "$BASE" && mkdir -p "$(dirname "$BASE")" \
    && cp -a "$REPO/deployment/target/standalone-pristine" "$BASE" || die "cannot make $BASE"
  { echo "embed-server --std-out=discard --server-config=standalone-full.xml"
    cat "$REPO/deployment/src/main/cli/configure.cli"
    cat "$HERE/bench.cli"
    echo "stop-embedded-server"; } > "$OUT/configure-offline.cli"
  say "configuring standalone-full.xml offline (configure.cli, bench.cli)"
  JBOSS_HOME="$WILDFLY" JAVA_OPTS="-Djboss.server.base.dir=$BASE --sun-misc-unsafe-memory-access=allow" \
    timeout 180 "$CLI" --file="$OUT/configure-offline.cli" --resolve-parameter-values \
    --properties="$REPO/deployment/src/main/cli/srq.properties" -Dsrq.rar.path="$REPO/deployment/target/srq-rar.rar" \
    > "$OUT/configure.log" 2>&1 || die "offline configuration failed; see $OUT/configure.log"
  [ -f "$BASE/log/server.log" ] && mv "$BASE/log/server.log" "$BASE/log/configure-embedded.log"
  say "starting WildFly (standalone-full, base dir $BASE)"
  JAVA_OPTS="-Xms2g -Xmx2g -XX:MetaspaceSize=96M -XX:MaxMetaspaceSize=512m -Djava.net.preferIPv4Stack=true -Djava.awt.headless=true -Djboss.modules.system.pkgs=org.jboss.byteman --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED ${SERVER_JAVA_OPTS:-}" \
    nohup "$WILDFLY/bin/standalone.sh" -c standalone-full.xml -Djboss.server.base.dir="$BASE" \
    > "$OUT/console.log" 2>&1 < /dev/null &
  SERVER_PID=$!
  trap 'stop_server' EXIT
  for _ in $(seq 240); do
    grep -qE 'WFLYSRV0025|WFLYSRV0026' "$BASE/log/server.log" 2>/dev/null && break
    kill -0 $SERVER_PID 2>/dev/null || die "WildFly exited; see $OUT/console.log"
    sleep 0.5
  done
  grep -q WFLYSRV0025 "$BASE/log/server.log" || die "WildFly did not boot cleanly; see $BASE/log/server.log"
  JAVA_OPTS="--sun-misc-unsafe-memory-access=allow" timeout 180 "$CLI" -c --controller=127.0.0.1:9990 \
    --command="deploy $WAR" > "$OUT/deploy.log" 2>&1 || die "deploy failed; see $OUT/deploy.log"
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
  mgmt() { JAVA_OPTS="--sun-misc-unsafe-memory-access=allow" timeout 120 "$CLI" -c --controller=127.0.0.1:9990 --command="$1" > /dev/null 2>&1; }
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
  if [ -n "${SERVER_PID:-}" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    say "stopping WildFly"
    JAVA_OPTS="--sun-misc-unsafe-memory-access=allow" timeout 60 "$CLI" -c --controller=127.0.0.1:9990 \
      --command=:shutdown > /dev/null 2>&1 || kill "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null
  fi
  SERVER_PID=
}
say "waiting for /tmp/wildfly.lock"
exec 8>/tmp/wildfly.lock
flock 8
( server ) || die "server part failed; the server log is $BASE/log/server.log"
flock -u 8

# 5. the summary -----------------------------------------------------------------------------------
# stats FILE KEY=VALUE-FILTER... FIELD: "median (min–max)" of FIELD over the rounds 1..ROUNDS matching
stats() {
  local file=$1 fieldname=$2; shift 2
  grep -E '^round=[0-9]+ ' "$file" | awk -v f="$fieldname" -v filters="$*" '
    BEGIN { n = split(filters, fl, " ") }
    { delete kv; for (i = 1; i <= NF; i++) { split($i, p, "="); kv[p[1]] = p[2] }
      ok = 1; for (j = 1; j <= n; j++) { split(fl[j], q, "="); if (kv[q[1]] != q[2]) ok = 0 }
      if (ok) v[m++] = kv[f] + 0 }
    END { if (m == 0) { print "n/a"; exit }
          asort(v); med = (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
          frac = 0; for (k = 1; k <= m; k++) if (v[k] != int(v[k])) frac = 1
          fmt = (v[m] >= 100 || !frac) ? "%.0f" : "%.1f"
          printf(fmt " (" fmt "–" fmt ")", med, v[1], v[m]) }'
}
one() { # one FILE ROUND CASE FIELD: FIELD of that single run
  grep -E "^round=$2 case=$3 " "$1" | tr ' ' '\n' | sed -n "s/^$4=//p" | head -1
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0) printf "%.3g", a / b; else print "n/a" }'; }
med() { stats "$@" | cut -d' ' -f1; }
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
cat "$OUT/summary.md"
if $RESULTS; then
  R=$HERE/RESULTS.md
  awk '/^## Side by side on one WildFly/ {skip = 1; next} skip && /^## / {skip = 0} !skip' "$R" > "$OUT/RESULTS.rest"
  { cat "$OUT/RESULTS.rest"; echo; cat "$OUT/summary.md"; } | cat -s > "$R"
  say "RESULTS.md updated"
fi
