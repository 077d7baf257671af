#!/bin/bash
# setup-host.sh : host setup for run-in-vm.sh (Debian 12 and Debian 13). Idempotent and quick
# once done (~1 s: a dpkg-query and an apt-cache lookup, nothing downloaded).
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
# Names that resolve on both releases: Debian 13 renamed librdmacm1 to librdmacm1t64 (64-bit
# time_t), which Provides librdmacm1, so apt installs it when asked for librdmacm1.
# procps: pgrep in tests/lab-suite.sh (not in a minimal Debian 13 install).
PKGS=(qemu-system-x86 busybox-static cpio kmod iproute2 xz-utils zstd binutils procps
      libibverbs1 ibverbs-providers librdmacm1 ibverbs-utils rdmacm-utils perftest
      libibverbs-dev librdmacm-dev librpma0 librpma-dev gcc libc6-dev jq)
T0=$(date +%s.%N)
export DEBIAN_FRONTEND=noninteractive
if [ "$(id -u)" = 0 ]; then SUDO=(); else SUDO=(sudo -n); fi
apt_() { timeout "$APT_TO" "${SUDO[@]}" apt-get "$@"; }

# A name counts as installed if a package of that name is installed, or an installed package
# Provides it (librdmacm1 on Debian 13 is librdmacm1t64): one dpkg-query for all of them.
declare -A HAVE=()
while read -r n; do HAVE[$n]=1; done < <(
  dpkg-query -W -f='${db:Status-Status} ${Package} ${Provides}\n' 2>/dev/null |
  awk '$1 == "installed" { print $2; $1 = $2 = ""; n = split($0, p, ",")
         for (i = 1; i <= n; i++) { sub(/^ +/, "", p[i]); sub(/[ (:].*/, "", p[i]); if (p[i] != "") print p[i] } }')
missing=()
for p in "${PKGS[@]}"; do [ -n "${HAVE[$p]:-}" ] || missing+=("$p"); done
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
K=$WORK/kernel
if [ ! -f "$K/boot/vmlinuz-$KVER" ]; then
  D=$(mktemp -d "$WORK/kdl.XXXXXX")
  chmod 755 "$D"                                   # apt's _apt sandbox user writes here
  if ! (cd "$D" && apt_ -o APT::Sandbox::User=root download -qq "$KPKG"); then
    [ $updated = 0 ] || { rm -rf "$D"; exit 2; }
    apt_ update -qq; updated=1; (cd "$D" && apt_ -o APT::Sandbox::User=root download -qq "$KPKG")
  fi
  mkdir -p "$K"
  dpkg-deb -x "$D"/*.deb "$K"
  rm -rf "$D"
fi
# Debian 13's kernel package is merged /usr: usr/lib/modules, no lib/. depmod (kmod 30 on
# Debian 12 and kmod 34 on Debian 13 alike) only looks in BASE/lib/modules, so give the unpacked
# root the /lib -> usr/lib link a merged-/usr system has. Checked apart from the unpack, so a
# kernel unpacked by an older version of this script (depmod failed) is repaired.
if [ ! -e "$K/lib" ] && [ -d "$K/usr/lib/modules/$KVER" ]; then ln -s usr/lib "$K/lib"; fi
[ -d "$K/lib/modules/$KVER" ] || { echo "setup-host: $KPKG unpacked without lib/modules/$KVER or usr/lib/modules/$KVER" >&2; exit 2; }
[ -s "$K/lib/modules/$KVER/modules.dep" ] || depmod -b "$K" "$KVER"
T2=$(date +%s.%N)
INITRD=$WORK/initrd-$KVER.cpio.gz
if [ ! -s "$INITRD" ] || [ "$LAB/vm/stage1-init" -nt "$INITRD" ] || [ "$LAB/vm/build-initramfs.sh" -nt "$INITRD" ]; then
  KROOT=$K KVER=$KVER timeout 300 "$LAB/vm/build-initramfs.sh" "$INITRD" >/dev/null
fi
[ -s "$WORK/vmlinux-$KVER" ] || timeout 300 "$LAB/vm/extract-vmlinux.sh" "$K/boot/vmlinuz-$KVER" "$WORK/vmlinux-$KVER"
T3=$(date +%s.%N)
printf 'setup-host: apt %.1fs, kernel unpack %.1fs, initramfs+vmlinux %.1fs (kernel %s, work %s)\n' \
  "$(awk "BEGIN{print $T1-$T0}")" "$(awk "BEGIN{print $T2-$T1}")" "$(awk "BEGIN{print $T3-$T2}")" "$KVER" "$WORK"
