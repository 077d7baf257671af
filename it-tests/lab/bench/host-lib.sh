# host-lib.sh : what the lab benchmarks' host sides share (run-message-rate.sh, run-round-trip.sh);
# sourced after NAME (the benchmark's name, e.g. message-rate) is set. Sets BENCH, LAB, REPO,
# JAVA_HOME (LAB_JAVA_HOME, default Temurin 25) and OUT (BENCH_OUT, default
# ${TMPDIR:-/tmp}/rdma-srq-$NAME-$UID; created; no spaces, ',' or ':'), and defines
#   say, die MESSAGE       messages on stderr (die: exit 2)
#   bench_classpath        ../build-classpath.sh $OUT/cp (mvn install of rar and what it needs, the
#                          class path snapshot), unless BENCH_SKIP_BUILD=1 and one is there;
#                          BENCH_MVN_ARGS are extra Maven args
#   bench_guest SCRIPT     ONE guest boot (../run-in-vm.sh) running SCRIPT $OUT, with OUT shared
#                          read-write and every BENCH_* variable (and BENCH_JAVA, the JDK's java)
#                          exported to it; returns SCRIPT's exit code (RXE_TIMEOUT default 1800 s)
#   bench_footer           prints $OUT/table.md with the guest kernel, rdma-core, perftest, java,
#                          the host CPU and qemu
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LAB=$(cd "$BENCH/.." && pwd)
REPO=$(cd "$LAB/../.." && pwd)
export JAVA_HOME=${LAB_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
OUT=${BENCH_OUT:-${TMPDIR:-/tmp}/rdma-srq-$NAME-$(id -u)}
say() { echo "run-$NAME: $*" >&2; }
die() { say "$*"; exit 2; }
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || die "cannot create $OUT"

bench_classpath() {
  if [ "${BENCH_SKIP_BUILD:-0}" != 1 ] || [ ! -s "$OUT/cp/classpath.txt" ]; then
    LAB_MVN_ARGS=${BENCH_MVN_ARGS:-} "$LAB/build-classpath.sh" "$OUT/cp" || die "host build failed"
  fi
}

bench_guest() {
  export BENCH_JAVA=$JAVA_HOME/bin/java
  local envs="BENCH_JAVA" v
  for v in $(compgen -e | grep '^BENCH_'); do envs+=" $v"; done
  RXE_RW=$OUT RXE_ENV="$envs" RXE_TIMEOUT=${RXE_TIMEOUT:-1800} "$LAB/run-in-vm.sh" "$1" "$OUT"
}

bench_footer() {
  [ -s "$OUT/table.md" ] || return 0
  cat "$OUT/table.md"
  echo
  echo "kernel (guest): $(cat "$OUT/kernel.txt" 2>/dev/null)   rdma-core: $(dpkg-query -W -f='${Version}' libibverbs1)" \
       "  perftest: $(dpkg-query -W -f='${Version}' perftest)   java: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1)"
  echo "machine: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) host cores; guest: qemu" \
       "$(qemu-system-x86_64 --version | head -1 | awk '{print $4}') ${RXE_ACCEL:-auto} (see $OUT/guest.txt)"
  echo "results: $OUT/results.txt, logs: $OUT/runs/"
}
