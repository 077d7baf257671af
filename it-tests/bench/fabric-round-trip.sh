#!/usr/bin/env bash
# The fabric provider's cross-process round trip against libfabric's own (issue 35), one run, same
# loopback, same library: fi_pingpong (libfabric-bin: tcp provider, MSG endpoints, two processes),
# then the adapter — EchoResponder (an activation whose listener echoes, provider fabric, device tcp)
# in one JVM and CallRoundTrip (SrqPeer.call of a pooled connection, HdrHistogram) in another.
#
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 it-tests/bench/fabric-round-trip.sh [--skip-build]
#
# Environment: SIZES (64 4096), CALLS (20000 per size), PINGPONG_ITERS (20000), WARMUP (20 s),
# PORT (7650), RESPONDER_OPTS and CALLER_OPTS (extra JVM options of each, e.g.
# -Dbench.pollMode=busy, -Dsrq.call.spinNanos=...). Output: fi_pingpong's lines and the CALL lines, then one summary line per size:
# fi_pingpong's round trip (2 × its µs per transfer) and the adapter's p50/p99 round trip, µs.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${JAVA_HOME:?set JAVA_HOME to a JDK 25 (e.g. /usr/lib/jvm/temurin-25-jdk-amd64)}"
SIZES=${SIZES:-"64 4096"}
CALLS=${CALLS:-20000}
PINGPONG_ITERS=${PINGPONG_ITERS:-20000}
WARMUP=${WARMUP:-20}
PORT=${PORT:-7650}
command -v fi_pingpong > /dev/null || { echo "fi_pingpong missing: apt-get install libfabric-bin" >&2; exit 1; }

. it-tests/bench/bench-lib.sh
CP=$(bench_rar_classpath "${1:-}") || exit 1
JOPTS="--enable-native-access=ALL-UNNAMED -Xms512m -Xmx512m"

declare -A PP
for size in $SIZES; do
    fi_pingpong -p tcp -e msg -I "$PINGPONG_ITERS" -S "$size" > /tmp/fi_pingpong.server.$$ 2>&1 &
    server=$!
    sleep 1
    client_out=$(fi_pingpong -p tcp -e msg -I "$PINGPONG_ITERS" -S "$size" 127.0.0.1 2>&1)
    wait "$server" || true
    echo "$client_out"
    # the result line: bytes iters total time MB/sec usec/xfer Mxfers/sec
    PP[$size]=$(echo "$client_out" | awk '$1 ~ /^[0-9]/ && NF >= 7 {print $(NF-1)}' | tail -1)
done
rm -f /tmp/fi_pingpong.server.$$

coproc RESPONDER { exec "$JAVA_HOME/bin/java" $JOPTS ${RESPONDER_OPTS:-} -cp "$CP" io.rdma.srq.ra.bench.EchoResponder fabric tcp 127.0.0.1 "$PORT" 2>/tmp/echo-responder.$$.log; }
read -r -t 60 ready <&"${RESPONDER[0]}" || { echo "the responder did not start: $(tail -5 /tmp/echo-responder.$$.log)" >&2; exit 1; }
echo "$ready"
runs=""
for size in $SIZES; do runs+="$size $CALLS"$'\n'; done
out=$(printf '%s' "$runs" | "$JAVA_HOME/bin/java" $JOPTS ${CALLER_OPTS:-} -Dbench.provider=fabric -Dbench.remote="$PORT" \
    -Dbench.warmupMaxSeconds=$((WARMUP * 3)) -cp "$CP" io.rdma.srq.ra.bench.CallRoundTrip tcp 127.0.0.1 "$WARMUP" \
    "$(echo $SIZES | tr ' ' ,)" 2>/tmp/call-round-trip.$$.log)
eval "exec ${RESPONDER[1]}>&-"
wait "$RESPONDER_PID" 2>/dev/null || true
echo "$out"
for size in $SIZES; do
    line=$(echo "$out" | grep "^CALL .* size=$size " | tail -1)
    p50=$(echo "$line" | sed -n 's/.* p50=\([0-9.]*\).*/\1/p')
    p99=$(echo "$line" | sed -n 's/.* p99=\([0-9.]*\).*/\1/p')
    rt=$(awk -v u="${PP[$size]}" 'BEGIN {printf "%.2f", 2 * u}')
    ratio=$(awk -v a="$p50" -v b="$rt" 'BEGIN {printf "%.2f", a / b}')
    echo "SUMMARY size=$size fi_pingpong_round_trip_us=$rt adapter_p50_us=$p50 adapter_p99_us=$p99 p50_over_pingpong=$ratio"
done
rm -f /tmp/echo-responder.$$.log /tmp/call-round-trip.$$.log
