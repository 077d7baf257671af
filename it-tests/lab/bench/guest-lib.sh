# guest-lib.sh : shell helpers the lab benchmarks' guest sides share (message-rate.sh,
# round-trip.sh); sourced inside the guest, after DEV (the rdma device) and JAVA are set.
#   now                    seconds since the epoch, with microseconds
#   since T                whole seconds since T (a value of now)
#   wait_for FILE REGEX SECONDS [PID]
#                          until a line of FILE matches; fails on timeout, or when PID has ended
#                          without the line
#   guest_info OUT         writes OUT/kernel.txt (uname -r) and OUT/guest.txt (kernel, vCPUs, CPU
#                          model, rdma-core and perftest versions, java -version, the device's MTU
#                          and SRQ/CQ limits), and prints the latter
#   MEDIAN_AWK             an awk function median(key): the median of val[key, 1..cnt[key]]
now() { echo "${EPOCHREALTIME/,/.}"; }
since() { awk "BEGIN{printf \"%.0f\", $(now) - $1}"; }
wait_for() {
  local end; end=$(awk "BEGIN{printf \"%.3f\", $(now) + $3}")
  until grep -qE "$2" "$1" 2>/dev/null; do
    if [ -n "${4:-}" ] && ! kill -0 "$4" 2>/dev/null; then grep -qE "$2" "$1" 2>/dev/null; return; fi
    awk "BEGIN{exit !($(now) > $end)}" && return 1
    sleep 0.05
  done
}
guest_info() {
  uname -r > "$1/kernel.txt"
  { echo "guest: $(uname -r), $(nproc) vcpus, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
    echo "rdma-core: $(dpkg-query -W -f='${Version}' libibverbs1), perftest: $(dpkg-query -W -f='${Version}' perftest)"
    "$JAVA" -version 2>&1 | head -1
    ibv_devinfo -v -d "$DEV" | grep -E 'active_mtu|max_srq_wr|max_cqe'; } | tee "$1/guest.txt"
}
MEDIAN_AWK='
  function median(key,   n, i, j, t, a) {
    n = cnt[key]; if (n == 0) return ""
    for (i = 1; i <= n; i++) a[i] = val[key, i]
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }'
