#!/bin/bash
# ibv_srq_pingpong: server + client over rxe0 (GID index 1 = the IPv4-mapped GID), TCP side
# channel on 127.0.0.1. Both sides under a timeout (TO seconds, default 60).
# Knobs: DEV (rxe0), GIDX (1), N iterations (1000), PORT (18515), TO (60)
DEV=${DEV:-rxe0} GIDX=${GIDX:-1} N=${N:-1000} PORT=${PORT:-18515} TO=${TO:-60}
LOG=$(mktemp /tmp/srq_pingpong-srv.XXXXXX)
set -x
timeout -k 5 "$TO" ibv_srq_pingpong -d "$DEV" -g "$GIDX" -p "$PORT" -n "$N" > "$LOG" 2>&1 &
SPID=$!
sleep 1
timeout -k 5 "$TO" ibv_srq_pingpong -d "$DEV" -g "$GIDX" -p "$PORT" -n "$N" 127.0.0.1; CRC=$?
wait $SPID; SRC=$?
set +x
echo "--- server:"; cat "$LOG"; rm -f "$LOG"
echo "ibv_srq_pingpong client rc=$CRC server rc=$SRC"
[ $CRC = 0 ] && [ $SRC = 0 ]
