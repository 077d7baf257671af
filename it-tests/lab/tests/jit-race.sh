#!/bin/bash
# jit-race.sh [RUNS] [SECS] : why run-in-vm.sh defaults to RXE_TCG_THREAD=single.
# Compiles tests/jit-race/*.java on the host, boots one guest and runs RUNS (4) JVMs of SECS (40)
# seconds each, in which 3 threads keep entering C1 methods that C2 is replacing (HotSpot patches
# the entry of the not-entrant nmethod). Under multi-threaded TCG the JVM dies with SIGSEGV/SIGILL
# in a "J ... c1" frame (measured: qemu 7.2 (Debian 12) 4 of 4 with RXE_TCG_THREAD=multi, 0 of 4
# with single; qemu 10.0 (Debian 13) 1 of 4 with multi, 0 of 4 with single). hs_err files go to
# <it-tests>/target/jit-race/out. Exit code = number of crashes.
set -u
LAB=$(cd "$(dirname "$0")/.." && pwd); IT=$(cd "$LAB/.." && pwd)
JDK=${LAB_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
OUT=$IT/target/jit-race; rm -rf "$OUT"; mkdir -p "$OUT/classes" "$OUT/out"
"$JDK/bin/javac" -d "$OUT/classes" "$LAB"/tests/jit-race/*.java || exit 125
export JIT_RUNS=${1:-4} JIT_SECS=${2:-40} JIT_JAVA=$JDK/bin/java JIT_OUT=$OUT
RXE_RW=$OUT/out RXE_ENV="JIT_RUNS JIT_SECS JIT_JAVA JIT_OUT" RXE_CMD_TIMEOUT=$((JIT_RUNS * (JIT_SECS + 120))) \
"$LAB/run-in-vm.sh" bash -c '
  crash=0
  for i in $(seq 1 "$JIT_RUNS"); do
    timeout -k 5 $((JIT_SECS + 100)) "$JIT_JAVA" -XX:ErrorFile="$JIT_OUT/out/hs_err_pid%p.log" -cp "$JIT_OUT/classes" Race "$JIT_SECS" > /tmp/o.txt 2>&1; rc=$?
    echo "jvm $i rc=$rc $(grep -E "^ok|SIG[A-Z]+ \(|^# J " /tmp/o.txt | tr "\n" " " | cut -c1-220)"
    [ $rc = 0 ] || crash=$((crash + 1))
  done
  echo "crashes: $crash of $JIT_RUNS (TCG thread mode: see run-in-vm.sh RXE_TCG_THREAD)"
  exit $crash'
