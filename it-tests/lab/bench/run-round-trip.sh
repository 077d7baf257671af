#!/bin/bash
# run-round-trip.sh : the lab request/reply benchmark of issue 25, end to end, from the host: the
# adapter's call round trip (SrqPeer.call of a pooled connection to an activation that answers
# with ReceiveCompletion.reply) against perftest's ib_send_lat, both on rxe0 in one guest.
#   1. host build (never in the guest): ../build-classpath.sh $BENCH_OUT/cp (mvn install of rar and
#      what it needs, the class path snapshot)
#   2. ONE guest boot (../run-in-vm.sh) running bench/round-trip.sh $BENCH_OUT
#   3. prints the table ($BENCH_OUT/table.md) with kernel, rdma-core, perftest and machine
# Exit code: that of round-trip.sh (0 = every run gave its result), 2 = build problem.
#
# Knobs (environment; those of round-trip.sh (BENCH_*) and run-in-vm.sh (RXE_*) apply too):
#   BENCH_OUT        output dir (default ${TMPDIR:-/tmp}/rdma-srq-round-trip-$UID; emptied of the
#                    last results first; shared read-write into the guest; no spaces, ',' or ':')
#   BENCH_MVN_ARGS   extra Maven args (e.g. "-o")
#   BENCH_SKIP_BUILD=1  reuse $BENCH_OUT/cp
#   LAB_JAVA_HOME    JDK 25 (default /usr/lib/jvm/temurin-25-jdk-amd64)
set -u
NAME=round-trip
source "$(dirname "$0")/host-lib.sh"

bench_classpath
rm -rf "$OUT/runs" "$OUT/table.md" "$OUT/results.txt" "$OUT"/hs_err_pid*.log
bench_guest "$BENCH/round-trip.sh"
RC=$?
echo
bench_footer
say "exit code $RC"
exit "$RC"
