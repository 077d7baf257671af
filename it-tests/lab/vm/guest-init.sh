#!/bin/bash
# stage 2: PID 1 of the guest, running on the host's / (9p + tmpfs overlay).
# Loads rdma_rxe, creates rxe0 on a guest-only netdev, runs /run/rxe/cmd.sh (under
# RXE_CMD_TIMEOUT), powers off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
log() { echo "[guest-init] $*" > /dev/console; }
off() { sync; echo o > /proc/sysrq-trigger; sleep 10; echo b > /proc/sysrq-trigger; }
mkdir -p /dev/pts /dev/shm
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs -o mode=755 tmpfs /run
mkdir -p /run/rxe
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=none rxerun /run/rxe || { log "cannot mount run share"; off; }
UP_STAGE2=$(cut -d" " -f1 /proc/uptime)
ln -sfn /proc/self/fd /dev/fd
hostname "${RXE_HOSTNAME:-rxe-guest}"; echo "127.0.1.1 ${RXE_HOSTNAME:-rxe-guest}" >> /etc/hosts
ulimit -l unlimited
if [ -n "${RXE_KROOT:-}" ]; then        # kernel unpacked outside /lib/modules (setup-host.sh)
  # Debian 12's kernel package has lib/modules, Debian 13's (merged /usr) usr/lib/modules; on a
  # merged-/usr root /lib/modules is /usr/lib/modules, so one bind mount serves both
  for d in "$RXE_KROOT/lib/modules" "$RXE_KROOT/usr/lib/modules"; do
    [ -d "$d" ] && { mkdir -p /lib/modules && mount --bind "$d" /lib/modules; break; }
  done
  mountpoint -q /lib/modules || log "no lib/modules or usr/lib/modules under $RXE_KROOT"
fi
IFS=, read -ra RWS <<< "${RXE_RW:-}"
for e in "${RWS[@]}"; do                 # RXE_RW=tag=/abs/dir,... : read-write host dirs
  mkdir -p "${e#*=}"
  mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=none "${e%%=*}" "${e#*=}" || log "mount ${e#*=} failed"
done
ip link set lo up
NICMOD=; [ "${RXE_NETDEV:-dummy}" = nic ] && NICMOD=virtio_net
for m in rdma_rxe ib_uverbs rdma_ucm ib_umad dummy $NICMOD; do modprobe $m || log "modprobe $m failed"; done
case "${RXE_NETDEV:-dummy}" in
  lo) DEV=lo ;;
  nic) DEV=eth0                        # the virtio NIC qemu got from RXE_NIC (run-in-vm.sh)
       for i in $(seq 50); do [ -e /sys/class/net/$DEV ] && break; sleep 0.1; done
       ip link set $DEV mtu ${RXE_MTU:-1500}; ip addr add ${RXE_ADDR:-10.77.0.1/24} dev $DEV; ip link set $DEV up ;;
  veth) DEV=rxeveth0; ip link add $DEV type veth peer name rxeveth1
        ip link set $DEV mtu ${RXE_MTU:-1500}; ip link set rxeveth1 mtu ${RXE_MTU:-1500}
        ip addr add ${RXE_ADDR:-10.77.0.1/24} dev $DEV; ip link set $DEV up; ip link set rxeveth1 up ;;
  *) DEV=rxedummy0; ip link add $DEV type dummy; ip link set $DEV mtu ${RXE_MTU:-1500}
     ip addr add ${RXE_ADDR:-10.77.0.1/24} dev $DEV; ip link set $DEV up ;;
esac
rdma link add rxe0 type rxe netdev $DEV || log "rdma link add failed"
{
  echo "--- guest $(uname -r), $(nproc) cpus, $(awk '/MemTotal/{print $2" kB"}' /proc/meminfo); uptime at stage2 ${UP_STAGE2}s, at cmd $(cut -d" " -f1 /proc/uptime)s"
  ip -br addr; rdma link show
} > /run/rxe/setup.txt 2>&1
: > /run/rxe/t_cmd_start               # host reads its mtime
cd "$(cat /run/rxe/cwd 2>/dev/null || echo /)" 2>/dev/null || cd /
# RXE_CMD_TIMEOUT (kernel command line; 0 = none): a hung command ends with 124 and the guest
# still powers off and reports, instead of waiting for the host's RXE_TIMEOUT
timeout -k 10 "${RXE_CMD_TIMEOUT:-0}" bash /run/rxe/cmd.sh > /run/rxe/out.txt 2>&1 < /dev/null
echo $? > /run/rxe/rc
: > /run/rxe/t_cmd_end
off
