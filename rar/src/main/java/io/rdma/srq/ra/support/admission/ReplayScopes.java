package io.rdma.srq.ra.support.admission;

import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * The replay caches of this JVM by scope. A scope is what a token's MAC binds: its key (by key id)
 * and its target, the listener's address and port. A token verifies only at a listener on that
 * target with that key, so its scope covers every activation that could accept it — the same
 * activation across runs (device recovery, stop/start of delivery, suspend/resume), the same
 * application redeployed, and another activation that later listens on the same address and port
 * with the same key — and a token is accepted once in it within tokenMaxAge. JVM-wide, like the
 * rdma_cm port space the target lives in; two servers are two scopes only when they are two targets.
 *
 * <p>A scope that holds no nonce keeps its horizon ({@link ReplayCache}) for {@link #RETAIN} after
 * forgetting its last nonce, then goes: a forgotten token could pass again only if the server's
 * clock were stepped back by more than that. Thread-safe.
 */
public final class ReplayScopes {
    /** The scopes of this JVM. */
    public static final ReplayScopes JVM = new ReplayScopes();
    /** How long an empty scope keeps its horizon. */
    static final Duration RETAIN = Duration.ofHours(24);
    /** Least time between two sweeps for idle scopes. */
    private static final long SWEEP_NANOS = 1_000_000_000L;

    private final Map<String, ReplayCache> scopes = new HashMap<>();
    private long lastSweep;
    private boolean swept;

    /** A registry of its own (tests); the adapter uses {@link #JVM}. */
    ReplayScopes() {
    }

    /**
     * {@return the scope's replay cache, made when new; its capacity set to {@code capacity}}
     *
     * @param keyId    the token's key id
     * @param target   the target as the MAC binds it (address bytes, port)
     * @param capacity nonces held at most (replayCacheSize of the activation verifying now)
     * @param wallNow  {@link System#currentTimeMillis()}
     * @param monoNow  {@link System#nanoTime()}
     */
    synchronized ReplayCache scope(byte[] keyId, byte[] target, int capacity, long wallNow, long monoNow) {
        if (!swept || monoNow - lastSweep >= SWEEP_NANOS) {
            swept = true;
            lastSweep = monoNow;
            scopes.values().removeIf(c -> c.idle(wallNow, monoNow, RETAIN.toNanos()));
        }
        String name = HexFormat.of().formatHex(keyId) + "@" + HexFormat.of().formatHex(target);
        ReplayCache c = scopes.computeIfAbsent(name, n -> new ReplayCache(capacity, monoNow));
        c.capacity(capacity);
        return c;
    }

    /** {@return scopes held now} */
    synchronized int size() {
        return scopes.size();
    }
}
