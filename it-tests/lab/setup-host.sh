#!/bin/bash
# setup-host.sh : host setup for run-in-vm.sh (Debian 12). Idempotent and quick once done
# (~1 s: a dpkg-query and an apt-cache lookup, nothing downloaded).
# Installs qemu + rdma userspace (as root, or through `sudo -n`), and unpacks the Debian kernel
# into $RXE_WORK/kernel (apt-get download + dpkg-deb -x: no initramfs-tools run, nothing written
# to /boot), then builds the guest initramfs and the PVH vmlinux.
#
# Knobs: RXE_WORK (default <it-tests>/target/rxe-lab, next to this script's parent),
#        RXE_APT_TIMEOUT seconds per apt-get call (default 600).
set -euo pipefail
LAB=$(cd "$(dirname "$0")" && pwd)
WORK=${RXE_WORK:-$(cd "$LAB/.." && pwd)/target/rxe-lab}; mkdir -p "$WORK"
APT_TO=${RXE_APT_TIMEOUT:-600}
PKGS=(qemu-system-x86 busybox-static cpio kmod iproute2 xz-utils zstd binutils
      libibverbs1 ibverbs-providers librdmacm1 ibverbs-utils rdmacm-utils perftest
      libibverbs-dev librdmacm-dev librpma0 librpma-dev gcc libc6-dev jq)
T0=$(date +%s.%N)
export DEBIAN_FRONTEND=noninteractive
if [ "$(id -u)" = 0 ]; then SUDO=(); else SUDO=(sudo -n); fi
apt_() { timeout "$APT_TO" "${SUDO[@]}" apt-get "$@"; }

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed || missing+=("$p")
done
updated=0
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup-host: installing ${missing[*]}" >&2
  apt_ update -qq; updated=1
  apt_ install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
T1=$(date +%s.%N)

kpkg() { apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}'; }
KPKG=$(kpkg)
if [ -z "$KPKG" ] && [ $updated = 0 ]; then apt_ update -qq; updated=1; KPKG=$(kpkg); fi
[ -n "$KPKG" ] || { echo "setup-host: apt knows no linux-image-amd64 (check /etc/apt/sources.list*)" >&2; exit 2; }
KVER=${KPKG#linux-image-}
if [ ! -f "$WORK/kernel/boot/vmlinuz-$KVER" ]; then
  D=$(mktemp -d "$WORK/kdl.XXXXXX")
  chmod 755 "$D"                                   # apt's _apt sandbox user writes here
  if ! (cd "$D" && apt_ -o APT::Sandbox::User=root download -qq "$KPKG"); then
    [ $updated = 0 ] || { rm -rf "$D"; exit 2; }
    apt_ update -qq; updated=1; (cd "$D" && apt_ -o APT::Sandbox::User=root download -qq "$KPKG")
  fi
  mkdir -p "$WORK/kernel"
  dpkg-deb -x "$D"/*.deb "$WORK/kernel"
  rm -rf "$D"
  depmod -b "$WORK/kernel" "$KVER"
fi
T2=$(date +%s.%N)
INITRD=$WORK/initrd-$KVER.cpio.gz
if [ ! -s "$INITRD" ] || [ "$LAB/vm/stage1-init" -nt "$INITRD" ] || [ "$LAB/vm/build-initramfs.sh" -nt "$INITRD" ]; then
  KROOT=$WORK/kernel KVER=$KVER timeout 300 "$LAB/vm/build-initramfs.sh" "$INITRD" >/dev/null
fi
[ -s "$WORK/vmlinux-$KVER" ] || timeout 300 "$LAB/vm/extract-vmlinux.sh" "$WORK/kernel/boot/vmlinuz-$KVER" "$WORK/vmlinux-$KVER"
T3=$(date +%s.%N)
printf 'setup-host: apt %.1fs, kernel unpack %.1fs, initramfs+vmlinux %.1fs (kernel %s, work %s)\n' \
  "$(awk "BEGIN{print $T1-$T0}")" "$(awk "BEGIN{print $T2-$T1}")" "$(awk "BEGIN{print $T3-$T2}")" "$KVER" "$WORK"
