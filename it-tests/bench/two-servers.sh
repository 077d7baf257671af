#!/bin/bash
# two-servers.sh : this adapter over libfabric's tcp against Artemis over its remote connector,
# between TWO WildFly servers on one machine (issue 35's side-by-side). A benchmark, not a test:
# nothing passes or fails on a number.
#
#   1. builds deployment/ (the provisioned WildFly 39, srq-rar.rar) and the bench war (unless --skip-build)
#   2. under `flock /tmp/wildfly.lock`: two fresh server base dirs (it-tests/target/two-servers-{a,b},
#      copies of deployment's pristine standalone/), standalone-full.xml of each configured offline by
#      deployment's configure.cli and fabric.cli (java:/eis/SrqFabric: provider fabric, device tcp),
#      bench.cli (the bench queues, no paging) and:
#        A: an http-connector to B's http-acceptor (127.0.0.1:8180) and a connection factory on it,
#           java:/jms/bench/RemoteB — WildFly's remote connector, not pooled, as the one-server
#           cases use the in-VM java:/ConnectionFactory
#        B: Artemis' security-enabled=false (a remote client would otherwise need an application
#           user; the adapter's side runs without an admission token: like for like)
#      B starts at port offset 100; srq-bench.war deployed on both; on B the fabric MDBs'
#      delivery started (jboss-ejb3.xml keeps them inactive elsewhere)
#   3. request/reply, EJB callers on A (one thread each, HdrHistogram) → responder MDB on B → reply:
#        remote-jms-*  JMS through java:/jms/bench/RemoteB (temporary reply queue on B per caller,
#                      JMSReplyTo + correlation id, NON_PERSISTENT) to B's JmsResponder*
#        remote-srq-*  per caller thread a pooled connection of java:/eis/SrqFabric and its SrqPeer
#                      to B's FabricResponder* (127.0.0.1:7597/7598), SrqPeer.call
#      REQUIRED and NOT_SUPPORTED responders, 64 B and 4 KiB, 1 and 8 callers, ROUNDS interleaved rounds
#   4. one-way throughput A → B into no-op NOT_SUPPORTED MDBs on B, 64 B, 2 sender threads on A:
#        r-srq-batch-not-supported  B's FabricBatchSinkNotSupported (SrqBatchListener, maxBatchSize 32)
#        r-jms-not-supported        B's JmsSinkNotSupported (MessageListener)
#      B counts (armed before each run); the rate is B's, from its first to its last delivery.
#      TP_WARMUPS untimed runs of each, then ROUNDS interleaved rounds.
#   5. writes $OUT/summary.md and puts it into it-tests/bench/RESULTS.md as the section "Two
#      servers" (replacing an earlier one).
#
# Usage: it-tests/bench/two-servers.sh [--skip-build] [--no-results]
# Knobs (environment): ROUNDS (3), RR_CASES, RR_CALLS (timed calls per caller and run, 10000, a
#   quarter as many untimed first), RR_MAX_MS (5000: a run's timed phase ends then), TP_MESSAGES
#   (200000 per throughput run), TP_WARMUPS (2), BENCH_OUT (it-tests/target/two-servers), MVN_ARGS,
#   JAVA_HOME (JDK 25), SERVER_JAVA_OPTS (extra JVM arguments of both servers).
# Ports: 8080/9990 (A), 8180/10090 (B), 7597–7599 (B's fabric activations). About 10 minutes on 2 cores.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
. "$HERE/bench-lib.sh"
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
OUT=${BENCH_OUT:-$REPO/it-tests/target/two-servers}
ROUNDS=${ROUNDS:-3}
RR_CALLS=${RR_CALLS:-10000}
RR_MAX_MS=${RR_MAX_MS:-5000}
TP_MESSAGES=${TP_MESSAGES:-200000}
TP_WARMUPS=${TP_WARMUPS:-2}
RR_CASES=${RR_CASES:-remote-jms-required remote-srq-required remote-jms-not-supported remote-srq-not-supported}
TP_CASES="r-srq-batch-not-supported r-jms-not-supported"
BUILD=true RESULTS=true
for a in "$@"; do
  case "$a" in
    --skip-build) BUILD=false ;;
    --no-results) RESULTS=false ;;
    *) echo "two-servers: unknown option '$a' (--skip-build, --no-results)" >&2; exit 2 ;;
  esac
done
A=http://127.0.0.1:8080/srq-bench B=http://127.0.0.1:8180/srq-bench
say() { echo "two-servers: $*" >&2; }
die() { say "FAILED: $*"; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
T0=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
COMMAND="it-tests/bench/two-servers.sh${*:+ $*}"

bench_build

configure() { # configure NAME EXTRA_CLI_TEXT: server NAME's base dir, standalone-full.xml configured offline
  echo "$2" > "$OUT/extra-$1.cli"
  bench_configure "$REPO/it-tests/target/two-servers-$1" "$1" "$REPO/deployment/src/main/cli/configure.cli" \
    "$REPO/deployment/src/main/cli/fabric.cli" "$HERE/bench.cli" "$OUT/extra-$1.cli"
}
start() { # start NAME OFFSET: boots it, sets PID_<NAME>
  bench_boot "$REPO/it-tests/target/two-servers-$1" "$2" "$1"
  eval "PID_$1=$BOOTED_PID"
}
stop_servers() {
  for s in a:9990 b:10090; do
    local pid_var=PID_${s%%:*}
    if [ -n "${!pid_var:-}" ] && kill -0 "${!pid_var}" 2>/dev/null; then
      bench_cli "${s#*:}" :shutdown || kill "${!pid_var}"
      wait "${!pid_var}" 2>/dev/null
    fi
  done
  if [ -n "${BOOTED_PID:-}" ] && kill -0 "$BOOTED_PID" 2>/dev/null; then kill "$BOOTED_PID"; fi   # a boot that failed
  return 0
}
servers() {
  port_taken() { timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }
  for p in 9990 8080 10090 8180; do port_taken $p && die "port $p is in use although we hold /tmp/wildfly.lock"; done
  say "configuring both servers offline (configure.cli, fabric.cli, bench.cli; A: the remote connection factory, B: no Artemis security)"
  configure a '# A reaches B'"'"'s Artemis through its http-acceptor (B: port offset 100)
/socket-binding-group=standard-sockets/remote-destination-outbound-socket-binding=bench-server-b:add(host=127.0.0.1, port=8180)
/subsystem=messaging-activemq/server=default/http-connector=bench-server-b:add(socket-binding=bench-server-b, endpoint=http-acceptor)
/subsystem=messaging-activemq/server=default/connection-factory=BenchRemoteB:add(connectors=[bench-server-b], entries=[java:/jms/bench/RemoteB])'
  configure b '/subsystem=messaging-activemq/server=default:write-attribute(name=security-enabled, value=false)'
  trap 'stop_servers' EXIT
  say "starting server B (port offset 100), then server A"
  start b 100
  start a 0
  bench_cli 10090 "deploy $WAR" || die "deploy on B failed; see $OUT/cli.log"
  bench_cli 9990 "deploy $WAR" || die "deploy on A failed; see $OUT/cli.log"
  for m in FabricResponderRequired FabricResponderNotSupported FabricBatchSinkNotSupported; do
    bench_cli 10090 "/deployment=srq-bench.war/subsystem=ejb3/message-driven-bean=$m:start-delivery" \
      || die "start-delivery of $m on B failed; see $OUT/cli.log"
  done
  say "deployed srq-bench.war on both; B's fabric MDBs delivering"
  : > "$OUT/roundtrip.txt"; : > "$OUT/throughput.txt"
  rr() { # rr ROUND CASE CALLERS SIZE
    local r
    r=$(post_to "$A" roundtrip "case=$2&callers=$3&warmup=$((RR_CALLS / 4))&calls=$RR_CALLS&size=$4&maxMs=$RR_MAX_MS") || return 1
    echo "round=$1 $(tr '\n' ' ' <<< "$r")" >> "$OUT/roundtrip.txt"
    say "  $1 $2 callers=$3 size=$4: $(field calls "$r") calls, $(field callsPerSec "$r") calls/s, p50 $(field p50Us "$r") µs, p99 $(field p99Us "$r") µs"
  }
  sink_of() { case $1 in r-jms-not-supported) echo c-jms-not-supported ;; *) echo "$1" ;; esac; }
  tp() { # tp ROUND CASE: B armed, A sends, B's first-to-last delivery rate
    local s d
    post_to "$B" drain "case=$(sink_of "$2")&step=arm&messages=$TP_MESSAGES" > /dev/null || return 1
    s=$(post_to "$A" throughput "mode=send&case=$2&senders=2&peers=1&messages=$((TP_MESSAGES / 2))&size=64") || return 1
    d=$(post_to "$B" drain "case=$(sink_of "$2")&step=drain") || return 1
    echo "round=$1 case=$2 sendRate=$(field sendRate "$s") rate=$(field drainRate "$d") drainMs=$(field drainMs "$d")" >> "$OUT/throughput.txt"
    say "  $1 $2: $(field drainRate "$d") msg/s delivered on B (A's send phase $(field sendRate "$s") msg/s)"
  }
  say "throughput A → B: $TP_WARMUPS warm-up runs, then $ROUNDS interleaved rounds of $TP_CASES"
  for w in $(seq "$TP_WARMUPS"); do for c in $TP_CASES; do tp "warmup$w" "$c" || die "throughput $c"; done; done
  for r in $(seq "$ROUNDS"); do for c in $TP_CASES; do tp "$r" "$c" || die "throughput $c"; done; done
  say "request/reply A → B → A: $ROUNDS interleaved rounds of $RR_CASES × 64 B, 4 KiB × 1, 8 callers"
  for r in $(seq "$ROUNDS"); do
    for size in 64 4096; do for n in 1 8; do for c in $RR_CASES; do
      rr "$r" "$c" $n $size || die "round trip $c"
    done; done; done
  done
  grep -m1 -oE 'WildFly [^ ]+ \([^)]*\)|WildFly [0-9][^ ]*' "$REPO/it-tests/target/two-servers-a/log/server.log" > "$OUT/wildfly-version.txt"
  grep -m1 -oE 'Artemis Message Broker version [0-9.]+' "$REPO/it-tests/target/two-servers-b/log/server.log" | sed 's/.* //' > "$OUT/artemis-version.txt"
  stop_servers
}
bench_locked servers

TP=$OUT/throughput.txt RT=$OUT/roundtrip.txt
{
  echo "## Two servers: this adapter over libfabric tcp vs Artemis over its remote connector, $(date -u +%FT%TZ)"
  echo
  echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores; kernel $(uname -r);" \
       "libfabric $(dpkg-query -W -f='${Version}' libfabric1 2>/dev/null || echo '?');" \
       "$("$JAVA_HOME/bin/java" -version 2>&1 | head -1); $(cat "$OUT/wildfly-version.txt"), standalone-full, two servers on" \
       "one machine (B at port offset 100), Artemis $(cat "$OUT/artemis-version.txt"); load average at the start: $LOAD_START, at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "Command: \`$COMMAND\` (ROUNDS=$ROUNDS, RR_CALLS=$RR_CALLS, RR_MAX_MS=$RR_MAX_MS, TP_MESSAGES=$TP_MESSAGES);" \
       "wall time $(( $(date +%s) - T0 )) s. Medians of $ROUNDS interleaved rounds (min–max in brackets)."
  echo "Both servers' JVMs: -Xms2g -Xmx2g${SERVER_JAVA_OPTS:+ $SERVER_JAVA_OPTS}; they share the 2 cores. JMS: A's connection"
  echo "factory java:/jms/bench/RemoteB on an http-connector to B's http-acceptor (not pooled), NON_PERSISTENT,"
  echo "B's Artemis without security (security-enabled=false), nothing pages (bench.cli). SRQ: A's java:/eis/SrqFabric"
  echo "(fabric.cli: provider fabric, device tcp; defaults: adaptive poller, FI_DELIVERY_COMPLETE sends) to B's"
  echo "activations on 127.0.0.1 (provider fabric)."
  echo
  echo "### Request/reply: EJB caller on A → responder MDB on B → reply"
  echo
  echo "| case | responder transaction | size | callers | calls timed per run | calls/s | p50 µs | p99 µs | p99.9 µs |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
  for size in 64 4096; do for n in 1 8; do for c in $RR_CASES; do
    t=REQUIRED; case $c in *-not-supported) t=NOT_SUPPORTED ;; esac
    f="case=$c callers=$n size=$size"
    echo "| $c | $t | $size B | $n | $(stats "$RT" calls $f) | $(stats "$RT" callsPerSec $f) | $(stats "$RT" p50Us $f) | $(stats "$RT" p99Us $f) | $(stats "$RT" p999Us $f) |"
  done; done; done
  echo
  p50() { med "$RT" p50Us case=$1 callers=1 size=64; }
  cps() { med "$RT" callsPerSec case=$1 callers=8 size=64; }
  echo "Like for like (medians, 64 B): SRQ p50 / JMS p50, 1 caller: REQUIRED $(ratio "$(p50 remote-srq-required)" "$(p50 remote-jms-required)")," \
       "NOT_SUPPORTED $(ratio "$(p50 remote-srq-not-supported)" "$(p50 remote-jms-not-supported)") (goal ≤ 0.2);" \
       "SRQ calls/s / JMS calls/s, 8 callers: REQUIRED $(ratio "$(cps remote-srq-required)" "$(cps remote-jms-required)")," \
       "NOT_SUPPORTED $(ratio "$(cps remote-srq-not-supported)" "$(cps remote-jms-not-supported)")."
  echo
  echo "### One-way throughput A → B into a no-op NOT_SUPPORTED MDB on B, 64 B, 2 sender threads on A ($TP_MESSAGES messages per run)"
  echo
  echo "| case | MDB on B | msg/s delivered on B (first to last delivery) | A's send phase msg/s |"
  echo "|---|---|---:|---:|"
  echo "| r-srq-batch-not-supported | SrqBatchListener (maxBatchSize 32), fabric | $(stats "$TP" rate case=r-srq-batch-not-supported) | $(stats "$TP" sendRate case=r-srq-batch-not-supported) |"
  echo "| r-jms-not-supported | MessageListener, Artemis | $(stats "$TP" rate case=r-jms-not-supported) | $(stats "$TP" sendRate case=r-jms-not-supported) |"
  echo
  echo "Like for like (medians): SRQ msg/s / JMS msg/s $(ratio "$(med "$TP" rate case=r-srq-batch-not-supported)" "$(med "$TP" rate case=r-jms-not-supported)") (goal ≥ 5)."
  echo
  echo "Raw runs: \`${OUT#"$REPO"/}\` (roundtrip.txt, throughput.txt; the server logs in it-tests/target/two-servers-{a,b}/log)."
} > "$OUT/summary.md"
bench_results "Two servers: "
