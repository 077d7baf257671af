#!/bin/bash
# lab-suite.sh REPORTS CPDIR : the guest side of run-lab.sh (runs inside the VM, as root).
# One boot, every step under its own timeout, everything written to REPORTS (shared read-write
# with the host through RXE_RW):
#   kernel.txt, ibv_devinfo.txt (ibv_devinfo -v), srq_pingpong.log, ib_send_bw_srq.log,
#   junit-console.txt, junit/ (the console launcher's XML), steps.txt ("name rc=N secs=S" lines)
# CPDIR is what build-classpath.sh built on the host: {native,rar}-classes/ {native,rar}-test-classes/ lib/ classpath.txt and
# junit-platform-console-standalone.jar. Nothing is compiled here.
# Knobs (environment, forwarded by run-lab.sh): LAB_DEVICE (rxe0), LAB_GID_INDEX (1),
#   LAB_LISTEN_ADDRESS (10.77.0.1, -Dverbs.listenAddress for rdma_cm tests),
#   LAB_STEP_TIMEOUT (120 s per sanity step), LAB_JUNIT_TIMEOUT (1200 s), LAB_JAVA,
#   LAB_JUNIT_ARGS (extra console-launcher args), LAB_JAVA_OPTS (extra JVM args)
set -u
REPORTS=${1:?usage: lab-suite.sh REPORTS CPDIR} CPDIR=${2:?usage: lab-suite.sh REPORTS CPDIR}
D=$(cd "$(dirname "$0")" && pwd)
DEV=${LAB_DEVICE:-rxe0} GIDX=${LAB_GID_INDEX:-1} ADDR=${LAB_LISTEN_ADDRESS:-10.77.0.1}
STEP_TO=${LAB_STEP_TIMEOUT:-120} JUNIT_TO=${LAB_JUNIT_TIMEOUT:-1200}
JAVA=${LAB_JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
STEPS=$REPORTS/steps.txt; : > "$STEPS"
fail=0

# step NAME LOG CMD... : runs CMD with output to LOG (and a tail on stdout), records rc and time
step() {
  local name=$1 log=$2; shift 2
  local t0=$EPOCHREALTIME rc
  echo "##### $name"
  "$@" > "$log" 2>&1; rc=$?
  local secs; secs=$(awk "BEGIN{printf \"%.1f\", ${EPOCHREALTIME/,/.} - ${t0/,/.}}")
  case $rc in 124|137) echo "##### $name TIMED OUT (rc=$rc)";; esac
  echo "$name rc=$rc secs=$secs" >> "$STEPS"
  echo "##### $name rc=$rc (${secs}s)"
  [ $rc = 0 ] || fail=1
  return $rc
}

uname -r > "$REPORTS/kernel.txt"
echo "guest: $(uname -r), $(nproc) cpus, device $DEV, gid index $GIDX, address $ADDR"

step ibv_devinfo "$REPORTS/ibv_devinfo.txt" timeout -k 5 "$STEP_TO" ibv_devinfo -v
grep -E "hca_id|max_srq|device_cap_flags:|state:|active_mtu|GID\[ *$GIDX\]" "$REPORTS/ibv_devinfo.txt"

step ibv_srq_pingpong "$REPORTS/srq_pingpong.log" env DEV="$DEV" GIDX="$GIDX" TO="$STEP_TO" "$D/srq_pingpong.sh"
grep -E 'bytes in|iters|rc=' "$REPORTS/srq_pingpong.log"

step ib_send_bw_srq "$REPORTS/ib_send_bw_srq.log" env DEV="$DEV" GIDX="$GIDX" TO="$STEP_TO" "$D/send_bw_srq.sh"
grep -E '^ *#bytes|^ *[0-9]+ +[0-9]+ |rc=' "$REPORTS/ib_send_bw_srq.log"

# JUnit: on timeout the JVM gets SIGQUIT first (a thread dump lands in junit-console.txt),
# then SIGKILL 15 s later. No pipe: the console output goes to a file that tail follows until
# the JVM's timeout process ends, so a process the tests started and left running (a peer tool
# holding stdout) cannot stall the lab; such processes are killed afterwards (they share
# timeout's process group).
CP=$(cat "$CPDIR/classpath.txt")
# rar: only its lab tests (io.rdma.srq.ra.lab); its soft-device tests ran in mvn verify on the host
echo "##### junit (console output: $REPORTS/junit-console.txt)"
t0=$EPOCHREALTIME
: > "$REPORTS/junit-console.txt"
timeout -s QUIT -k 15 "$JUNIT_TO" "$JAVA" --enable-native-access=ALL-UNNAMED \
  -Dverbs.provider=ibverbs -Dverbs.device="$DEV" -Dverbs.gidIndex="$GIDX" \
  -Dverbs.devinfo="$REPORTS/ibv_devinfo.txt" -Dverbs.listenAddress="$ADDR" \
  -XX:ErrorFile="$REPORTS/hs_err_pid%p.log" ${LAB_JAVA_OPTS:-} \
  -jar "$CPDIR/junit-platform-console-standalone.jar" execute \
  --disable-banner --disable-ansi-colors --details=tree \
  --class-path "$CP" --scan-class-path "$CPDIR/native-test-classes:$CPDIR/rar-test-classes" \
  --exclude-classname='io\.rdma\.srq\.ra\.(?!lab\.).*' \
  --reports-dir "$REPORTS/junit" ${LAB_JUNIT_ARGS:-} < /dev/null > "$REPORTS/junit-console.txt" 2>&1 &
JPID=$!
tail -n +1 -f --pid="$JPID" "$REPORTS/junit-console.txt" & TAILPID=$!
wait "$JPID"; rc=$?
wait "$TAILPID"
if left=$(pgrep -a -g "$JPID"); then
  echo "##### junit: the tests left these processes running; killing them:"
  echo "$left" | sed 's/^/#####   /' | tee -a "$REPORTS/junit-console.txt"
  kill -KILL -- "-$JPID" 2>/dev/null
fi
secs=$(awk "BEGIN{printf \"%.1f\", ${EPOCHREALTIME/,/.} - ${t0/,/.}}")
case $rc in 124|137) echo "##### junit TIMED OUT after ${JUNIT_TO}s (rc=$rc; thread dump above)";; esac
echo "junit rc=$rc secs=$secs" >> "$STEPS"
echo "##### junit rc=$rc (${secs}s)"
[ $rc = 0 ] || fail=1
sync
exit $fail
