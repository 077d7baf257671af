#!/bin/bash
# run-in-vm.sh CMD [ARGS...]
#
# Boots the Debian kernel under qemu-system-x86_64 with the host's / shared read-only
# over virtio-9p plus a tmpfs overlay (so the guest has the same JDK, rdma-core,
# perftest, ... as the host), loads rdma_rxe, creates soft-RoCE device rxe0 on a
# guest-only netdev, runs CMD as root inside the guest (cwd = the caller's cwd, output
# streamed), powers off, and exits with CMD's exit code (125 = guest never reported one).
# No NIC is attached (-nodefaults -nic none) unless RXE_NIC names one: no packet can leave this machine.
#
# Knobs (environment):
#   RXE_ACCEL   auto (default) | kvm | tcg.  auto = kvm only when /dev/kvm is hardware
#               KVM; kvm_pvm (this sandbox) cannot run a stock kernel, so auto -> tcg
#   RXE_NETDEV  dummy (default) | veth | lo | nic   netdev under rxe0 (lo breaks rdma_cm; nic =
#               the virtio NIC of RXE_NIC, eth0 in the guest)
#   RXE_ADDR    10.77.0.1/24 (default)        address of that netdev
#   RXE_NIC     a qemu -netdev backend for one virtio-net NIC (default: none), e.g. the two-host
#               lab's `dgram,local.type=inet,local.host=127.0.0.1,local.port=P1,remote.type=inet,
#               remote.host=127.0.0.1,remote.port=P2`: a link to another guest over host loopback UDP
#   RXE_MAC     the NIC's MAC address (default 52:54:00:12:34:56)
#   RXE_HOSTNAME  the guest's host name (default rxe-guest)
#   RXE_MTU     1500 (default -> rxe active_mtu 1024); 4200+ gives active_mtu 4096
#   RXE_MEM     guest MiB (default 4096)      RXE_SMP  vcpus (default: nproc)
#   RXE_TIMEOUT      seconds before the VM is killed, whatever it is doing (default 900)
#   RXE_BOOT_TIMEOUT seconds from qemu start until the guest starts CMD (default 180);
#                    past it the VM is killed and the exit code is 125
#   RXE_CMD_TIMEOUT  seconds CMD may run inside the guest (default 0 = only RXE_TIMEOUT);
#                    past it the guest kills CMD (exit code 124) and still powers off cleanly
#   RXE_OFF_TIMEOUT  seconds the guest may take to power off after CMD ended (default 30)
#   RXE_WORK    work dir for the kernel, initramfs and runs (default <it-tests>/target/rxe-lab,
#               i.e. target/rxe-lab next to this lab directory)
#   RXE_KROOT   dir holding boot/ and lib/modules/ or usr/lib/modules/ (Debian 13's kernel
#               package: merged /usr) (default $RXE_WORK/kernel if it exists, made by
#               setup-host.sh; else the host's /boot and /lib/modules)
#   RXE_KVER    kernel version (default: newest in RXE_KROOT's modules dir)
#   RXE_KERNEL  kernel image to boot (default: vmlinux extracted from vmlinuz, PVH entry)
#   RXE_PVH=0   boot the bzImage instead (adds ~4 s of in-guest decompression under TCG)
#   RXE_APPEND  extra guest kernel command line
#   RXE_CPU     qemu -cpu model (default: host for kvm, max for tcg)
#   RXE_TCG_THREAD  single (default: all vCPUs on one host thread) | multi (MTTCG, a thread per
#               vCPU). multi crashes JVMs: MTTCG (qemu 7.2 on Debian 12, still 10.0 on Debian 13)
#               races with HotSpot patching the entry of an nmethod it makes not entrant
#               (SIGILL/SIGSEGV in "J ... c1" frames; reproducer: tests/jit-race.sh crashed 4 JVMs
#               of 4 with multi, 0 of 4 with single on qemu 7.2; 1 and 0 of 4 on qemu 10.0)
#   RXE_RW=dir1:dir2  host dirs shared read-write at the same path (e.g. target/ for test
#               reports); everything else the guest writes lands in a tmpfs and is lost.
#               Paths must not contain ',' ':' or spaces.
#   RXE_ENV="VAR ..."  extra host environment variables exported to CMD (besides PATH HOME
#               LANG JAVA_HOME TERM)
#   RXE_KEEP=1  keep the run directory $RXE_WORK/runs/run.* (console.log, ...)
#   RXE_VERBOSE=1  print guest setup and timings to stderr
#   RXE_TIMINGS=file  write "boot=S cmd=S total=S accel=A kernel=K" (seconds) to file
# Paths (this lab, RXE_WORK, RXE_KROOT, RXE_RW) must not contain spaces, ',' or ':'
# (they travel on the kernel command line and in qemu -virtfs options).
set -u
LAB=$(cd "$(dirname "$0")" && pwd)   # this lab's scripts (may be read-only)
VM=$LAB/vm
WORK=${RXE_WORK:-$(cd "$LAB/.." && pwd)/target/rxe-lab}; mkdir -p "$WORK"; WORK=$(cd "$WORK" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 CMD [ARGS...]" >&2; exit 2; }
badpath() { case "$1" in *[[:space:],:]*) return 0;; *) return 1;; esac; }
for p in "$LAB" "$WORK"; do
  badpath "$p" && { echo "run-in-vm: path '$p' contains a space, ',' or ':'; use a checkout path without them (or set RXE_WORK)" >&2; exit 2; }
done
calc() { awk "BEGIN{printf \"%.2f\", $1}"; }

# the modules dir of a kernel root: lib/modules (Debian 12's package), usr/lib/modules (Debian 13's)
moddir() { local d; for d in "$1/lib/modules" "$1/usr/lib/modules"; do [ -d "$d" ] && { echo "$d"; return 0; }; done; return 1; }
if [ -n "${RXE_KROOT+x}" ]; then KROOT=$RXE_KROOT
elif moddir "$WORK/kernel" >/dev/null; then KROOT=$WORK/kernel
else KROOT=; fi
KVER=${RXE_KVER:-$(ls "$(moddir "$KROOT")" 2>/dev/null | sort -V | tail -1)}
[ -n "$KVER" ] || { echo "run-in-vm: no kernel found; run setup-host.sh" >&2; exit 2; }
KERNEL=${RXE_KERNEL:-$KROOT/boot/vmlinuz-$KVER}
if [ -z "${RXE_KERNEL:-}" ] && [ "${RXE_PVH:-1}" = 1 ]; then
  [ -s "$WORK/vmlinux-$KVER" ] || timeout 300 "$VM/extract-vmlinux.sh" "$KERNEL" "$WORK/vmlinux-$KVER" || exit 2
  KERNEL=$WORK/vmlinux-$KVER
fi
INITRD=$WORK/initrd-$KVER.cpio.gz
if [ ! -s "$INITRD" ] || [ "$VM/stage1-init" -nt "$INITRD" ] || [ "$VM/build-initramfs.sh" -nt "$INITRD" ]; then
  KROOT=$KROOT KVER=$KVER timeout 300 "$VM/build-initramfs.sh" "$INITRD" >/dev/null || { echo "run-in-vm: initramfs build failed" >&2; exit 2; }
fi

ACCEL=${RXE_ACCEL:-auto}
if [ "$ACCEL" = auto ]; then
  if [ -w /dev/kvm ] && [ ! -d /sys/module/kvm_pvm ]; then ACCEL=kvm; else ACCEL=tcg; fi
fi
case "$ACCEL" in
  kvm) ACCEL_ARGS=(-accel kvm -cpu "${RXE_CPU:-host}") ;;
  tcg) ACCEL_ARGS=(-accel "tcg,thread=${RXE_TCG_THREAD:-single}" -cpu "${RXE_CPU:-max}") ;;
  *) echo "run-in-vm: RXE_ACCEL must be auto, kvm or tcg" >&2; exit 2 ;;
esac

mkdir -p "$WORK/runs"
RUN=$(mktemp -d "$WORK/runs/run.XXXXXX")
{
  echo '#!/bin/bash'
  for v in PATH HOME LANG JAVA_HOME TERM ${RXE_ENV:-}; do
    [ -n "${!v:-}" ] && printf 'export %s=%q\n' "$v" "${!v}"
  done
  printf '%q ' "$@"; echo
} > "$RUN/cmd.sh"
pwd > "$RUN/cwd"
: > "$RUN/out.txt"

APPEND="console=ttyS0 loglevel=${RXE_LOGLEVEL:-4} panic=-1 oops=panic nokaslr ${RXE_APPEND:-}"
APPEND+=" RXE_STAGE2=$VM/guest-init.sh RXE_NETDEV=${RXE_NETDEV:-dummy} RXE_ADDR=${RXE_ADDR:-10.77.0.1/24} RXE_MTU=${RXE_MTU:-1500}"
APPEND+=" RXE_CMD_TIMEOUT=${RXE_CMD_TIMEOUT:-0} RXE_HOSTNAME=${RXE_HOSTNAME:-rxe-guest}"
NIC_ARGS=(-nic none)
if [ -n "${RXE_NIC:-}" ]; then         # one virtio NIC on the given backend (two-host lab)
  NIC_ARGS=(-netdev "${RXE_NIC},id=labnet" -device "virtio-net-pci,netdev=labnet,mac=${RXE_MAC:-52:54:00:12:34:56}")
fi
[ -n "$KROOT" ] && APPEND+=" RXE_KROOT=$KROOT"
RW_ARGS=(); RW_LIST=
if [ -n "${RXE_RW:-}" ]; then          # host dirs the guest may write to (same path inside)
  IFS=: read -ra RWD <<< "$RXE_RW"; i=0
  for d in "${RWD[@]}"; do
    mkdir -p "$d"; d=$(realpath "$d")
    badpath "$d" && { echo "run-in-vm: RXE_RW path '$d' contains a space, ',' or ':'" >&2; exit 2; }
    RW_ARGS+=(-virtfs "local,path=$d,mount_tag=rxerw$i,security_model=passthrough")
    RW_LIST+="${RW_LIST:+,}rxerw$i=$d"; i=$((i+1))
  done
  APPEND+=" RXE_RW=$RW_LIST"
fi

T0=$(date +%s.%N)
TOTAL_TO=${RXE_TIMEOUT:-900} BOOT_TO=${RXE_BOOT_TIMEOUT:-180} OFF_TO=${RXE_OFF_TIMEOUT:-30}
timeout -k 10 "$TOTAL_TO" qemu-system-x86_64 "${ACCEL_ARGS[@]}" \
  -m "${RXE_MEM:-4096}" -smp "${RXE_SMP:-$(nproc)}" \
  -nodefaults -no-user-config "${NIC_ARGS[@]}" -display none -no-reboot \
  -serial "file:$RUN/console.log" \
  -virtfs local,path=/,mount_tag=hostroot,security_model=passthrough,readonly=on,multidevs=remap \
  -virtfs "local,path=$RUN,mount_tag=rxerun,security_model=passthrough" "${RW_ARGS[@]}" \
  -kernel "$KERNEL" -initrd "$INITRD" -append "$APPEND" \
  </dev/null >"$RUN/qemu.log" 2>&1 &
QPID=$!
tail -n +1 -f --pid="$QPID" "$RUN/out.txt" & TPID=$!
trap 'kill "$QPID" "$TPID" 2>/dev/null; exit 130' INT TERM
# watchdog: boot must reach CMD within BOOT_TO, power-off must follow CMD within OFF_TO
WHY=; started=; ended=
while kill -0 "$QPID" 2>/dev/null; do
  now=${EPOCHREALTIME/,/.}
  if [ -z "$started" ]; then
    if [ -e "$RUN/t_cmd_start" ]; then started=$now
    elif awk "BEGIN{exit !($now - $T0 > $BOOT_TO)}"; then
      WHY="boot timeout: the guest did not start the command within ${BOOT_TO}s (RXE_BOOT_TIMEOUT)"; break
    fi
  elif [ -z "$ended" ]; then
    [ -e "$RUN/rc" ] && ended=$now
  elif awk "BEGIN{exit !($now - $ended > $OFF_TO)}"; then
    WHY="power-off timeout: the guest did not power off within ${OFF_TO}s of the command's end (RXE_OFF_TIMEOUT)"; break
  fi
  sleep 0.5
done
[ -n "$WHY" ] && { echo "run-in-vm: $WHY; killing the VM" >&2; kill "$QPID" 2>/dev/null; }
wait "$QPID"; QRC=$?
wait "$TPID" 2>/dev/null
T1=$(date +%s.%N)
[ -z "$WHY" ] && [ "$QRC" = 124 ] && echo "run-in-vm: timeout after ${TOTAL_TO}s (RXE_TIMEOUT), VM killed" >&2

if [ -f "$RUN/rc" ]; then
  RC=$(cat "$RUN/rc")
else
  echo "run-in-vm: guest did not report an exit code (qemu rc=$QRC); console tail:" >&2
  tail -n 30 "$RUN/console.log" >&2; cat "$RUN/qemu.log" >&2
  RC=125
fi
mt() { if [ -f "$RUN/$1" ]; then stat -c %.9Y "$RUN/$1"; else echo "$T1"; fi; }
S=$(mt t_cmd_start); E=$(mt t_cmd_end)
if [ "${RXE_VERBOSE:-0}" = 1 ] || [ "$RC" = 125 ]; then
  [ -f "$RUN/setup.txt" ] && sed 's/^/[guest] /' "$RUN/setup.txt" >&2
  echo "run-in-vm: accel=$ACCEL kernel=$KVER boot->cmd $(calc "$S - $T0")s, cmd $(calc "$E - $S")s, total $(calc "$T1 - $T0")s" >&2
fi
if [ -n "${RXE_TIMINGS:-}" ]; then
  echo "boot=$(calc "$S - $T0") cmd=$(calc "$E - $S") total=$(calc "$T1 - $T0") accel=$ACCEL kernel=$KVER" > "$RXE_TIMINGS"
fi
echo "run-in-vm: exit code $RC" >&2
if [ "${RXE_KEEP:-0}" = 1 ]; then echo "run-in-vm: run dir $RUN" >&2; else rm -rf "$RUN"; fi
exit "$RC"
