#!/bin/bash
# lab-suite.sh REPORTS CPDIR : the guest side of run-lab.sh (runs inside the VM, as root).
# One boot, every step under its own timeout, everything written to REPORTS (shared read-write
# with the host through RXE_RW):
#   kernel.txt, ibv_devinfo.txt (ibv_devinfo -v), srq_pingpong.log, ib_send_bw_srq.log,
#   junit-console.txt, junit/ (the console launcher's XML), steps.txt ("name rc=N secs=S" lines)
# (the two-host part of the lab has its own guest side: twohost-suite.sh)
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

# JUnit (junit-step.sh): rar only its lab tests (io.rdma.srq.ra.lab); its soft-device tests ran in
# mvn verify on the host
. "$D/junit-step.sh"
# word splitting of LAB_JAVA_OPTS / LAB_JUNIT_ARGS is intended (several arguments)
# shellcheck disable=SC2086
junit_step junit "$REPORTS" "$JAVA" "$JUNIT_TO" "$CPDIR" \
  -Dverbs.provider=ibverbs -Dverbs.device="$DEV" -Dverbs.gidIndex="$GIDX" \
  -Dverbs.devinfo="$REPORTS/ibv_devinfo.txt" -Dverbs.listenAddress="$ADDR" ${LAB_JAVA_OPTS:-} -- \
  --scan-class-path "$CPDIR/native-test-classes:$CPDIR/rar-test-classes" \
  --exclude-classname='io\.rdma\.srq\.ra\.(?!lab\.).*' ${LAB_JUNIT_ARGS:-}
rc=$?
[ $rc = 0 ] || fail=1
sync
exit $fail
