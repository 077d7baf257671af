package io.rdma.srq.verbs;

import java.util.Arrays;

/**
 * The address a peer needs to connect an RC QP to this one without rdma_cm (what
 * ibv_rc_pingpong exchanges out of band).
 *
 * @param qpNum the QP number
 * @param psn   the first packet sequence number, 24 bits
 * @param lid   the port LID (0 on RoCE)
 * @param gid   the 16-byte GID of the chosen GID index (RoCE needs it)
 */
public record RcEndpoint(int qpNum, int psn, int lid, byte[] gid) {

    /** Copies the GID and checks its length. */
    public RcEndpoint {
        if (gid.length != 16) {
            throw new IllegalArgumentException("gid must be 16 bytes, got " + gid.length);
        }
        gid = gid.clone();
    }

    /** {@return a copy of the 16-byte GID} */
    @Override
    public byte[] gid() {
        return gid.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RcEndpoint e && e.qpNum == qpNum && e.psn == psn && e.lid == lid
                && Arrays.equals(e.gid, gid);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * (31 * qpNum + psn) + lid) + Arrays.hashCode(gid);
    }

    @Override
    public String toString() {
        return "RcEndpoint[qpNum=" + qpNum + ", psn=" + psn + ", lid=" + lid + ", gid=" + java.util.HexFormat.of().formatHex(gid) + "]";
    }
}
