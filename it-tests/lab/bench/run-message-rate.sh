#!/bin/bash
# run-message-rate.sh : the lab message-rate benchmark of issue #9, end to end, from the host.
#   1. host build (never in the guest): ../build-classpath.sh $BENCH_OUT/cp (mvn install of rar and
#      what it needs, the class path snapshot); gcc of bench/c/srq_send.c and srq_recv.c into
#      $BENCH_OUT/bin (never into the repository)
#   2. ONE guest boot (../run-in-vm.sh) running bench/message-rate.sh $BENCH_OUT
#   3. prints the table ($BENCH_OUT/table.md) with kernel, rdma-core and machine
# Exit code: that of message-rate.sh (0 = every run complete and counted), 2 = build problem.
#
# Knobs (environment; those of message-rate.sh (BENCH_*) and run-in-vm.sh (RXE_*) apply too):
#   BENCH_OUT        output dir (default ${TMPDIR:-/tmp}/rdma-srq-message-rate-$UID; emptied first;
#                    shared read-write into the guest; no spaces, ',' or ':')
#   BENCH_MVN_ARGS   extra Maven args (e.g. "-o -Dmaven.repo.local=/path/to/repo")
#   BENCH_SKIP_BUILD=1  reuse $BENCH_OUT/cp (the C programs are always rebuilt)
#   LAB_JAVA_HOME    JDK 25 (default /usr/lib/jvm/temurin-25-jdk-amd64)
set -u
NAME=message-rate
source "$(dirname "$0")/host-lib.sh"

bench_classpath
mkdir -p "$OUT/bin"
for p in srq_send srq_recv; do
  gcc -O2 -Wall -o "$OUT/bin/$p" "$BENCH/c/$p.c" -lrdmacm -libverbs || die "gcc $p.c failed (needs gcc, libibverbs-dev, librdmacm-dev)"
done
rm -rf "$OUT/runs" "$OUT/table.md" "$OUT/results.txt"

bench_guest "$BENCH/message-rate.sh"
RC=$?
echo
bench_footer
say "exit code $RC"
exit "$RC"
