package io.rdma.srq.ra.support.admission;

import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The nonces of verified tokens, each kept until its token expires (its timestamp + tokenMaxAge),
 * after which the timestamp check rejects the token anyway: so a token is accepted once. Bounded:
 * when {@code capacity} nonces are alive a new one is refused (fail closed, {@link RejectReason#REPLAY_CACHE_FULL});
 * only tokens whose MAC verified get here, so filling it needs the key. Thread-safe.
 */
public final class ReplayCache {
    private final int capacity;
    private final Map<String, Long> expiry = new LinkedHashMap<>();

    /** @param capacity live nonces at most, ≥ 1 */
    public ReplayCache(int capacity) {
        this.capacity = capacity;
    }

    /**
     * Records a nonce.
     *
     * @param nonce     the token's nonce
     * @param expiresAt when its token expires, epoch milliseconds
     * @param now       the current time, epoch milliseconds
     * @return null when new (and now recorded), else REPLAYED or REPLAY_CACHE_FULL
     */
    public synchronized RejectReason record(byte[] nonce, long expiresAt, long now) {
        for (Iterator<Long> it = expiry.values().iterator(); it.hasNext(); ) {
            if (it.next() >= now) {
                break;
            }
            it.remove();
        }
        String k = HexFormat.of().formatHex(nonce);
        Long seen = expiry.get(k);
        if (seen != null && seen >= now) {
            return RejectReason.REPLAYED;
        }
        if (expiry.size() >= capacity) {
            expiry.values().removeIf(t -> t < now);
            if (expiry.size() >= capacity) {
                return RejectReason.REPLAY_CACHE_FULL;
            }
        }
        expiry.put(k, expiresAt);
        return null;
    }

    /** {@return nonces held now} */
    public synchronized int size() {
        return expiry.size();
    }
}
