#!/usr/bin/env bash
# The fabric provider's cross-process message rate against libfabric's own (issue 35), one sitting,
# same loopback, same library: fabtests' fi_msg_bw (tcp provider, MSG endpoints, two processes; its
# receiver posts a window of receives, its sender keeps a window of sends in flight), then the adapter
# — AdapterRateReceiver (an activation on one SRQ delivering to a no-op listener, pollMode busy,
# provider fabric, device tcp) in one JVM, AdapterRateSender (QPS pooled connections' SrqPeer.send,
# round robin, then flush) in another; the rate is the receiver's, first to last delivery.
#
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 FI_MSG_BW=/path/to/fi_msg_bw \
#       it-tests/bench/fabric-message-rate.sh [--skip-build]
#
# Each size and QPS has a sender JVM of its own, whose first run (a warm-up) is not counted.
# fabtests is not packaged in Debian: FI_MSG_BW names a fi_msg_bw built from the libfabric release
# that matches the installed library (ofiwg/libfabric, tag v1.17.0 on Debian 12, v2.1.0 on 13:
# fabtests/ autogen.sh, configure --with-libfabric=/usr, make). Without it the reference is left
# out and said so. Environment: SIZES (64 4096), QPS (1 4), MESSAGES (200000 per run), REPS (3 runs
# per size and QPS, interleaved with fi_msg_bw's), WINDOW (fi_msg_bw -W, 64), DEPTH (the adapter's
# srqMaxWr, 4096), CONCURRENCY (the adapter's maxConcurrency, 4), PORT (7660), RECEIVER_OPTS and
# SENDER_OPTS (extra JVM options). Output: every run's line, then one SUMMARY line per size and QPS
# (medians, msg/s).
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${JAVA_HOME:?set JAVA_HOME to a JDK 25 (e.g. /usr/lib/jvm/temurin-25-jdk-amd64)}"
SIZES=${SIZES:-"64 4096"}
QPS=${QPS:-"1 4"}
MESSAGES=${MESSAGES:-200000}
REPS=${REPS:-3}
WINDOW=${WINDOW:-64}
DEPTH=${DEPTH:-4096}
CONCURRENCY=${CONCURRENCY:-4}
PORT=${PORT:-7660}
FI_MSG_BW=${FI_MSG_BW:-}
[ -z "$FI_MSG_BW" ] || [ -x "$FI_MSG_BW" ] || { echo "FI_MSG_BW=$FI_MSG_BW is not executable" >&2; exit 1; }

. it-tests/bench/bench-lib.sh
CP=$(bench_rar_classpath "${1:-}") || exit 1
JOPTS="--enable-native-access=ALL-UNNAMED -Xms1g -Xmx1g"
BUFFER=$(echo $SIZES | tr ' ' '\n' | sort -n | tail -1)
LOG=$(mktemp -d)
trap 'rm -rf "$LOG"' EXIT

msg_bw() { # msg_bw SIZE: fi_msg_bw's msg/s (10^6 / its usec/xfer); one sender, one receiver, the adapter's
    # receiver frozen meanwhile (it busy-polls: on 2 cores it would take one from fi_msg_bw)
    kill -STOP "$RECEIVER_PID"
    "$FI_MSG_BW" -p tcp -e msg -S "$1" -I "$MESSAGES" -W "$WINDOW" > "$LOG/bw.server" 2>&1 &
    local server=$!
    sleep 1
    local out
    out=$("$FI_MSG_BW" -p tcp -e msg -S "$1" -I "$MESSAGES" -W "$WINDOW" 127.0.0.1 2>&1)
    wait "$server" || true
    kill -CONT "$RECEIVER_PID"
    echo "FI_MSG_BW size=$1 $(echo "$out" | awk '$1 ~ /^[0-9]/ && NF >= 7' | tail -1)" >&2
    echo "$out" | awk '$1 ~ /^[0-9]/ && NF >= 7 {printf "%.0f\n", 1e6 / $(NF - 1)}' | tail -1
}

coproc RECEIVER { exec "$JAVA_HOME/bin/java" $JOPTS ${RECEIVER_OPTS:-} -Dbench.provider=fabric -cp "$CP" \
    io.rdma.srq.ra.bench.AdapterRateReceiver tcp 127.0.0.1 "$PORT" "$BUFFER" "$DEPTH" "$CONCURRENCY" 2> "$LOG/receiver.log"; }
read -r -t 60 ready <&"${RECEIVER[0]}" || { echo "the receiver did not start: $(tail -5 "$LOG/receiver.log")" >&2; exit 1; }
echo "$ready"
sender_start() { # sender_start SIZE QPS: a sender JVM reading run lines from fd 5, answering on fd 6
    rm -f "$LOG/in" "$LOG/out"; mkfifo "$LOG/in" "$LOG/out"
    "$JAVA_HOME/bin/java" $JOPTS ${SENDER_OPTS:-} -cp "$CP" io.rdma.srq.ra.bench.AdapterRateSender \
        fabric tcp 127.0.0.1 "$PORT" "$2" "$1" < "$LOG/in" > "$LOG/out" 2>> "$LOG/sender.log" &
    SENDER_PID=$!
    exec 5> "$LOG/in" 6< "$LOG/out"
}
sender_stop() { exec 5>&- 6<&-; wait "$SENDER_PID" || { echo "sender failed: $(tail -5 "$LOG/sender.log")" >&2; exit 1; }; }
adapter() { # adapter SIZE: one run of the started sender; the receiver's msg/s
    local s r
    echo "$MESSAGES" >&"${RECEIVER[1]}"
    echo "$MESSAGES" >&5
    read -r -t 300 s <&6 || { echo "the sender did not finish: $(tail -5 "$LOG/sender.log")" >&2; exit 1; }
    while read -r -t 300 r <&"${RECEIVER[0]}"; do # its RECEIVER line; STALLED: a minute without the run's end
        case $r in RECEIVER*) break ;; STALLED*) echo "$r" >&2; echo "the run did not end" >&2; exit 1 ;; esac
    done
    case $r in RECEIVER*) ;; *) echo "the receiver did not finish: $(tail -5 "$LOG/receiver.log")" >&2; exit 1 ;; esac
    echo "$s size=$1" >&2
    echo "$r size=$1" >&2
    echo "$r" | sed -n 's/.* msg_per_s=\([0-9.]*\).*/\1/p'
}
median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

FIRST_QPS=$(echo $QPS | cut -d' ' -f1)
for size in $SIZES; do
    for q in $QPS; do
        sender_start "$size" "$q"
        adapter "$size" > /dev/null    # warm-up run of this sender JVM (and the receiver), not counted
        A="" B=""
        for _ in $(seq "$REPS"); do
            A+=" $(adapter "$size")"
            if [ -n "$FI_MSG_BW" ] && [ "$q" = "$FIRST_QPS" ]; then B+=" $(msg_bw "$size")"; fi
        done
        sender_stop
        a=$(echo "$A" | median)
        if [ -n "$B" ]; then
            b=$(echo "$B" | median)
            echo "SUMMARY size=$size qps=$q adapter_msg_per_s=$(printf %.0f "$a") fi_msg_bw_msg_per_s=$b adapter_over_fi_msg_bw=$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.2f", a / b}')"
        else
            ref="not run, FI_MSG_BW unset"; [ -z "$FI_MSG_BW" ] || ref="one connection, see qps=$FIRST_QPS"
            echo "SUMMARY size=$size qps=$q adapter_msg_per_s=$(printf %.0f "$a") (fi_msg_bw: $ref)"
        fi
    done
done
exec {RECEIVER[1]}>&-
wait "$RECEIVER_PID" 2>/dev/null || true
