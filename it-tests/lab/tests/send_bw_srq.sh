#!/bin/bash
# perftest ib_send_bw --use-srq (RC) between two processes on rxe0: server in the background,
# client to 127.0.0.1 (the TCP side channel), RoCE GID index 1 (-x). Both under a timeout.
# Knobs: DEV (rxe0), GIDX (1), PORT (18516), TO (60), BW_ARGS (extra args, e.g. "-q 4")
DEV=${DEV:-rxe0} GIDX=${GIDX:-1} PORT=${PORT:-18516} TO=${TO:-60}
LOG=$(mktemp /tmp/send_bw-srv.XXXXXX)
set -x
timeout -k 5 "$TO" ib_send_bw -d "$DEV" -x "$GIDX" -p "$PORT" -F --use-srq ${BW_ARGS:-} > "$LOG" 2>&1 &
SPID=$!
sleep 1
timeout -k 5 "$TO" ib_send_bw -d "$DEV" -x "$GIDX" -p "$PORT" -F --use-srq ${BW_ARGS:-} 127.0.0.1; CRC=$?
wait $SPID; SRC=$?
set +x
echo "--- server:"; cat "$LOG"; rm -f "$LOG"
echo "ib_send_bw --use-srq ${BW_ARGS:-} client rc=$CRC server rc=$SRC"
[ $CRC = 0 ] && [ $SRC = 0 ]
