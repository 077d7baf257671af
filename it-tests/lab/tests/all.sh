#!/bin/bash
# Items 1-5 of the brief in one guest boot
D=$(cd "$(dirname "$0")" && pwd); fail=0
echo "##### 1. ibv_devices / ibv_devinfo -v"
timeout 30 ibv_devices; timeout 30 ibv_devinfo -v | grep -E 'hca_id|max_srq|max_qp_wr|max_sge|max_cqe|SRQ_RESIZE|device_cap_flags|active_mtu|GID'
echo "##### 2. ibv_srq_pingpong"
N=1000 $D/srq_pingpong.sh 2>&1 | grep -E 'iters|bytes in|rc=' || fail=1
echo "##### 3+4. rping / ucmatose / ib_send_bw"
$D/rdmacm.sh > /tmp/rdmacm.log 2>&1 || fail=1
grep -E 'rc=|^ [0-9]+ +[0-9]+ ' /tmp/rdmacm.log
exit $fail
