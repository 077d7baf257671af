package io.rdma.srq.ra.support.admission;

import io.rdma.srq.ra.support.RaLogger;
import io.rdma.srq.ra.support.RateLimitedLog;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The admission decision for one activation's CONNECT_REQUESTs, cheapest check first: allowedPeers,
 * the connect rate, the token (HMAC, timestamp, nonce), then a connection slot (maxConnections,
 * maxConnectionsPerPeer). A rejected request is counted by reason and logged (rate-limited); its
 * reject carries {@link RejectReason#toPrivateData()}. A token's nonce is recorded in its
 * {@link ReplayScopes scope}, which outlives this run, once the token verifies — also when the
 * request is rejected for its address or the connect rate, before the token would have been looked
 * at: a rejected request leaves no token usable later or at another activation. Called from the
 * activation's control loop; thread-safe.
 */
public final class Admission {
    /**
     * An activation's admission properties, checked.
     *
     * @param peers                 allowedPeers (empty: any address)
     * @param maxConnections        accepted connections at most
     * @param maxConnectionsPerPeer accepted connections per peer address at most
     * @param connectRateLimit      connect requests a second at most (bursts as large)
     * @param keys                  the keys a token may be made with; empty: no token asked for
     * @param tokenMaxAge           how far a token's timestamp may lie from the listener's clock
     * @param replayCacheSize       nonces remembered at most
     */
    public record Policy(PeerFilter peers, int maxConnections, int maxConnectionsPerPeer, int connectRateLimit,
                         List<AuthKey> keys, Duration tokenMaxAge, int replayCacheSize) {
        /** Copies the keys. */
        public Policy {
            keys = List.copyOf(keys);
        }

        /** {@return whether any host that reaches the port may connect (no allowedPeers and no key)} */
        public boolean open() {
            return !peers.restricts() && keys.isEmpty();
        }
    }

    private final String name;
    private final Policy policy;
    private final ConnectionLimits limits;
    private final ConnectRateLimit rate;
    private final ReplayScopes scopes;
    private final RejectCounters counters = new RejectCounters();
    /** The WARN lines of rejects, per reason. */
    private final RateLimitedLog<RejectReason> log;
    private final LongSupplier nanoTime;
    private final LongSupplier wallMillis;

    /**
     * @param name       the activation's name, for the log
     * @param policy     the properties
     * @param nanoTime   {@link System#nanoTime()} (a test clock in tests)
     * @param wallMillis {@link System#currentTimeMillis()} (a test clock in tests)
     */
    public Admission(String name, Policy policy, LongSupplier nanoTime, LongSupplier wallMillis) {
        this(name, policy, nanoTime, wallMillis, ReplayScopes.JVM);
    }

    /** As above, with the replay scopes to use ({@link ReplayScopes#JVM} but in tests). */
    Admission(String name, Policy policy, LongSupplier nanoTime, LongSupplier wallMillis, ReplayScopes scopes) {
        this.name = name;
        this.policy = policy;
        this.scopes = scopes;
        this.nanoTime = nanoTime;
        this.wallMillis = wallMillis;
        this.limits = new ConnectionLimits(policy.maxConnections(), policy.maxConnectionsPerPeer());
        this.rate = new ConnectRateLimit(policy.connectRateLimit(), nanoTime.getAsLong());
        this.log = new RateLimitedLog<>(RateLimitedLog.INTERVAL, nanoTime);
    }

    /** {@return the properties} */
    public Policy policy() {
        return policy;
    }

    /**
     * Decides on a request; when admitted a connection slot is reserved for {@code from}: follow with
     * {@link #accepted} or {@link #acceptFailed}. A reject is counted and logged here.
     *
     * @param from        the request's source address (as the peer claims it)
     * @param to          the listener's address the request arrived at
     * @param privateData the request's private data
     * @return null when admitted, else the reason to reject with
     */
    public RejectReason admit(InetSocketAddress from, InetSocketAddress to, byte[] privateData) {
        RejectReason r = check(from, to, privateData);
        if (r != null) {
            rejected(from, r);
        }
        return r;
    }

    private RejectReason check(InetSocketAddress from, InetSocketAddress to, byte[] privateData) {
        RejectReason early = !policy.peers().allows(from.getAddress()) ? RejectReason.NOT_ALLOWED
                : !rate.tryAcquire(nanoTime.getAsLong()) ? RejectReason.RATE_LIMITED : null;
        RejectReason token = policy.keys().isEmpty() ? null : verify(to, privateData);
        return early != null ? early : token != null ? token : limits.reserve(from.getAddress());
    }

    /** The token check; a token that verifies has its nonce recorded, whatever the request's fate. */
    private RejectReason verify(InetSocketAddress to, byte[] privateData) {
        long maxAge = policy.tokenMaxAge().toMillis();
        long wall = wallMillis.getAsLong();
        return PeerToken.verify(privateData, policy.keys(), to, wall, maxAge, (keyId, target, nonce, stamp) -> {
            long mono = nanoTime.getAsLong();
            ReplayCache scope = scopes.scope(keyId, target, policy.replayCacheSize(), wall, mono);
            return scope.record(nonce, stamp, maxAge, wall, mono);
        });
    }

    /**
     * The admitted request's accept succeeded: its slot now belongs to the connection. Should the
     * qp_num still hold a connection whose close was missed, that slot is freed and SRQRA0203 logged.
     *
     * @param from  the address given to {@link #admit}
     * @param qpNum the connection's qp_num
     */
    public void accepted(InetSocketAddress from, int qpNum) {
        InetAddress stale = limits.bind(from.getAddress(), qpNum);
        if (stale != null) {
            RaLogger.LOG.closeMissed(name, qpNum, stale, from);
        }
    }

    /**
     * The admitted request's accept failed: its slot is given back, the reject counted as ACCEPT_FAILED
     * and logged as SRQRA0312 (rate-limited with the other rejects of that reason).
     *
     * @param from the address given to {@link #admit}
     * @param why  the failure, for the log
     */
    public void acceptFailed(InetSocketAddress from, String why) {
        limits.cancel(from.getAddress());
        counters.increment(RejectReason.ACCEPT_FAILED);
        log.event(RejectReason.ACCEPT_FAILED, (notLogged, seconds) -> RaLogger.LOG.connectRefused(name, from, why,
                notLogged, seconds));
    }

    /**
     * An accepted connection closed: frees its slot. Idempotent; unknown qp_nums are ignored.
     *
     * @param qpNum the connection's qp_num
     */
    public void closed(int qpNum) {
        limits.closed(qpNum);
    }

    private void rejected(InetSocketAddress from, RejectReason r) {
        counters.increment(r);
        log.event(r, (notLogged, seconds) -> RaLogger.LOG.connectRejected(name, from, r, notLogged, seconds));
    }

    /** {@return the rejects so far by reason name, zeros included} */
    public Map<String, Long> rejectedByReason() {
        return counters.snapshot();
    }

    /** {@return the counters} */
    public RejectCounters counters() {
        return counters;
    }

    /** {@return accepted connections counted now} */
    public int connections() {
        return limits.total();
    }

    /**
     * The private data our own connect presents: a fresh token made with the first key, or nothing.
     *
     * @param keys   the keys configured (the first is presented), maybe empty
     * @param target the listener connected to
     * @return {@value PeerToken#LENGTH} bytes, or empty without a key
     */
    public static byte[] privateDataFor(List<AuthKey> keys, InetSocketAddress target) {
        return keys.isEmpty() ? new byte[0] : PeerToken.create(keys.getFirst(), target, System.currentTimeMillis());
    }

    /**
     * {@return the reason a reject of one of our activations gave, or "no reason given" (another
     *          listener, a full backlog or no listener)}
     *
     * @param rejectPrivateData the reject's private data as received
     */
    public static String describeReject(byte[] rejectPrivateData) {
        return RejectReason.fromPrivateData(rejectPrivateData).map(r -> "the listener rejected it: " + r)
                .orElse("the listener rejected it without a reason of ours");
    }

    /** For {@link InetAddress} checks elsewhere: whether {@code a} is a loopback address (IPv4-mapped too). */
    static boolean loopback(InetAddress a) {
        byte[] b = Cidr.normal(a);
        return b.length == 4 ? b[0] == 127 : a.isLoopbackAddress();
    }

    /**
     * {@return whether a listener on {@code address} is reachable from other hosts: not loopback}
     *
     * @param address the listen address (a wildcard counts as reachable)
     */
    public static boolean reachableFromOtherHosts(InetAddress address) {
        return !loopback(address);
    }
}
