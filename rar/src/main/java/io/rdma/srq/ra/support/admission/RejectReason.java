package io.rdma.srq.ra.support.admission;

import java.util.Optional;

/**
 * Why an activation rejected a connect request. The reject (rdma_reject(3)) carries it in its private
 * data as 6 bytes — magic {@code "SRQR"}, version 1, the code — so the connecting side can say why
 * (the IB CM pads the field with zeros to 148 bytes; the magic tells a reason from padding).
 */
public enum RejectReason {
    /** The source address is outside allowedPeers. */
    NOT_ALLOWED(1),
    /** More connect requests a second than connectRateLimit. */
    RATE_LIMITED(2),
    /** The activation holds maxConnections already. */
    MAX_CONNECTIONS(3),
    /** The peer address holds maxConnectionsPerPeer already. */
    MAX_CONNECTIONS_PER_PEER(4),
    /** A key is configured and the request carries no token (no private data, or none of ours). */
    NO_TOKEN(5),
    /** A token that does not verify: unknown key id, wrong MAC, another target, malformed. */
    BAD_TOKEN(6),
    /**
     * A token whose timestamp is outside tokenMaxAge of the listener's clock, or not later than the
     * timestamp of a nonce its replay scope already forgot ({@link ReplayCache}).
     */
    EXPIRED(7),
    /** A token whose nonce its replay scope has seen ({@link ReplayScopes}): it was presented before. */
    REPLAYED(8),
    /** The nonce cache is full of live nonces (fails closed). */
    REPLAY_CACHE_FULL(9),
    /** Admitted, but the accept failed (QP, CQ or memory); nothing of it stays allocated. */
    ACCEPT_FAILED(10);

    private static final byte[] MAGIC = {'S', 'R', 'Q', 'R'};
    private static final byte VERSION = 1;
    /** Bytes of a reject's private data. */
    public static final int WIRE_LENGTH = 6;

    private final int code;

    RejectReason(int code) {
        this.code = code;
    }

    /** {@return the code on the wire, 1..255} */
    public int code() {
        return code;
    }

    /** {@return the reject's private data: magic, version, code} */
    public byte[] toPrivateData() {
        return new byte[] {MAGIC[0], MAGIC[1], MAGIC[2], MAGIC[3], VERSION, (byte) code};
    }

    /**
     * Reads a reject's private data.
     *
     * @param privateData as received (maybe zero-padded, maybe empty)
     * @return the reason, empty when the data is not one of ours (another listener, or none)
     */
    public static Optional<RejectReason> fromPrivateData(byte[] privateData) {
        if (privateData.length < WIRE_LENGTH || privateData[4] != VERSION) {
            return Optional.empty();
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (privateData[i] != MAGIC[i]) {
                return Optional.empty();
            }
        }
        int c = Byte.toUnsignedInt(privateData[5]);
        for (RejectReason r : values()) {
            if (r.code == c) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }
}
