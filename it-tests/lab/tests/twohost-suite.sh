#!/bin/bash
# twohost-suite.sh ROLE DIR CPDIR : the guest side of run-lab.sh's two-host part (runs inside one of
# the two guests, as root). DIR is shared read-write by both guests (RXE_RW); CPDIR is what
# build-classpath.sh built on the host, plus bin/seq_send (tests/twohost/seq_send.c, built by run-lab.sh).
#   ROLE receiver (10.78.0.1): a second rxe device (rxe9 on a dummy netdev: librdmacm closes its
#     context of a deleted rxe0 only while another device is listed, driver note 23), then the JUnit
#     console launcher on io.rdma.srq.ra.lab.TwoHostLabTest with -Dlab.twohost.control=DIR/control;
#     reports in DIR/receiver (junit/, junit-console.txt, steps.txt). Writes DIR/control/stop at the end.
#   ROLE sender (10.78.0.2): the agent. Runs each new DIR/control/cmd.N (bash, written by the test on
#     the other guest) in the background: output in out.N, process id in pid.N (the script's own, so
#     a script ending in `exec PROGRAM` gives the program's), exit code in rc.N. Stops when
#     DIR/control/stop appears or after LAB_JUNIT_TIMEOUT; kills what still runs. The scripts see
#     SEQ_SEND, LAB_JAVA, LAB_CP. At boot it starts io.rdma.srq.ra.lab.TwoHostPeerSender as command
#     "peer" (the JVM warms up while the receiver's starts; it waits for DIR/control/peer.go).
#     Log in DIR/sender/agent.txt.
# Knobs (forwarded by run-lab.sh): LAB_DEVICE (rxe0), LAB_GID_INDEX (1), LAB_TWOHOST_PEER (the other
#   guest's address), LAB_LISTEN_ADDRESS (this guest's), LAB_JUNIT_TIMEOUT, LAB_JAVA, LAB_JAVA_OPTS.
set -u
ROLE=${1:?usage: twohost-suite.sh receiver|sender DIR CPDIR} DIR=${2:?} CPDIR=${3:?}
D=$(cd "$(dirname "$0")" && pwd)
DEV=${LAB_DEVICE:-rxe0} GIDX=${LAB_GID_INDEX:-1}
JUNIT_TO=${LAB_JUNIT_TIMEOUT:-1200}
JAVA=${LAB_JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
CONTROL=$DIR/control
mkdir -p "$CONTROL" "$DIR/$ROLE"
echo "guest $(hostname): $(uname -r), $(nproc) cpus, role $ROLE, $(ip -br addr show eth0)"

case $ROLE in
receiver)
  ip link add rxedummy9 type dummy && ip addr add 10.77.9.1/24 dev rxedummy9 && ip link set rxedummy9 up &&
    rdma link add rxe9 type rxe netdev rxedummy9 || echo "twohost-suite: cannot add rxe9"
  uname -r > "$DIR/$ROLE/kernel.txt"
  : > "$DIR/$ROLE/steps.txt"
  . "$D/junit-step.sh"
  # shellcheck disable=SC2086
  junit_step junit "$DIR/$ROLE" "$JAVA" "$JUNIT_TO" "$CPDIR" \
    -Dverbs.provider=ibverbs -Dverbs.device="$DEV" -Dverbs.gidIndex="$GIDX" \
    -Dverbs.listenAddress="${LAB_LISTEN_ADDRESS:?}" -Dlab.twohost.peer="${LAB_TWOHOST_PEER:?}" \
    -Dlab.twohost.netdev=eth0 -Dlab.twohost.control="$CONTROL" ${LAB_JAVA_OPTS:-} -- \
    --select-class io.rdma.srq.ra.lab.TwoHostLabTest
  rc=$?
  : > "$CONTROL/stop"
  sync
  exit $rc ;;
sender)
  export SEQ_SEND=$CPDIR/bin/seq_send LAB_JAVA=$JAVA LAB_CP
  LAB_CP=$(cat "$CPDIR/classpath.txt")
  LOG=$DIR/$ROLE/agent.txt
  run() {   # run NAME: cmd.NAME in the background -> out.NAME, pid.NAME, rc.NAME
    echo "agent: cmd.$1: $(head -c 300 "$CONTROL/cmd.$1")" >> "$LOG"
    ( bash -c 'echo $$ > "$0/pid.$1.tmp"; mv "$0/pid.$1.tmp" "$0/pid.$1"; exec bash "$0/cmd.$1"' "$CONTROL" "$1" \
        > "$CONTROL/out.$1" 2>&1 < /dev/null
      echo $? > "$CONTROL/rc.$1.tmp"; mv "$CONTROL/rc.$1.tmp" "$CONTROL/rc.$1" ) &
  }
  n=1 deadline=$((SECONDS + JUNIT_TO))
  echo "agent: waiting for $CONTROL/cmd.N" | tee "$LOG"
  # shellcheck disable=SC2016
  printf 'exec "$LAB_JAVA" --enable-native-access=ALL-UNNAMED -Dverbs.gidIndex=%s %s -cp "$LAB_CP" io.rdma.srq.ra.lab.TwoHostPeerSender %s %s %s\n' \
    "$GIDX" "${LAB_JAVA_OPTS:-}" "$DEV" "${LAB_TWOHOST_PEER:?}" "$CONTROL/peer.go" > "$CONTROL/cmd.peer"
  run peer
  while [ ! -e "$CONTROL/stop" ] && [ $SECONDS -lt $deadline ]; do
    if [ -e "$CONTROL/cmd.$n" ]; then
      run "$n"
      n=$((n + 1))
    else
      sleep 0.1
    fi
  done
  echo "agent: stop after $((n - 1)) commands ($( [ -e "$CONTROL/stop" ] && echo stop file || echo timeout))" >> "$LOG"
  for f in "$CONTROL"/pid.*; do
    [ -e "$f" ] && [ ! -e "$CONTROL/rc.${f##*.}" ] && kill -KILL "$(cat "$f")" 2>/dev/null
  done
  wait
  sync
  [ -e "$CONTROL/stop" ] ;;
*) echo "twohost-suite: ROLE must be receiver or sender" >&2; exit 2 ;;
esac
