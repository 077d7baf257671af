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
BENCH=$(cd "$(dirname "$0")" && pwd)
LAB=$(cd "$BENCH/.." && pwd)
REPO=$(cd "$LAB/../.." && pwd)
export JAVA_HOME=${LAB_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
OUT=${BENCH_OUT:-${TMPDIR:-/tmp}/rdma-srq-message-rate-$(id -u)}
say() { echo "run-message-rate: $*" >&2; }
die() { say "$*"; exit 2; }

mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || die "cannot create $OUT"
if [ "${BENCH_SKIP_BUILD:-0}" != 1 ] || [ ! -s "$OUT/cp/classpath.txt" ]; then
  LAB_MVN_ARGS=${BENCH_MVN_ARGS:-} "$LAB/build-classpath.sh" "$OUT/cp" || die "host build failed"
fi
mkdir -p "$OUT/bin"
for p in srq_send srq_recv; do
  gcc -O2 -Wall -o "$OUT/bin/$p" "$BENCH/c/$p.c" -lrdmacm -libverbs || die "gcc $p.c failed (needs gcc, libibverbs-dev, librdmacm-dev)"
done
rm -rf "$OUT/runs" "$OUT/table.md" "$OUT/results.txt"

export BENCH_JAVA=$JAVA_HOME/bin/java
ENVS="BENCH_JAVA"
for v in $(compgen -e | grep '^BENCH_'); do ENVS+=" $v"; done
RXE_RW=$OUT RXE_ENV="$ENVS" RXE_TIMEOUT=${RXE_TIMEOUT:-1800} \
  "$LAB/run-in-vm.sh" "$BENCH/message-rate.sh" "$OUT"
RC=$?
echo
if [ -s "$OUT/table.md" ]; then
  cat "$OUT/table.md"
  echo
  echo "kernel (guest): $(cat "$OUT/kernel.txt" 2>/dev/null)   rdma-core: $(dpkg-query -W -f='${Version}' libibverbs1)" \
       "  perftest: $(dpkg-query -W -f='${Version}' perftest)   java: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1)"
  echo "machine: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) host cores; guest: qemu" \
       "$(qemu-system-x86_64 --version | head -1 | awk '{print $4}') ${RXE_ACCEL:-auto} (see $OUT/guest.txt)"
  echo "results: $OUT/results.txt, logs: $OUT/runs/"
fi
say "exit code $RC"
exit "$RC"
