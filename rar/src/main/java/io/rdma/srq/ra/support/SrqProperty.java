package io.rdma.srq.ra.support;

import jakarta.resource.spi.InvalidPropertyException;

import java.util.Arrays;
import java.util.List;

/**
 * Every configuration property of the adapter, declared once: the activation spec's
 * ({@code SrqActivationSpec}, set by {@code @ActivationConfigProperty}) and the connection
 * definition's ({@code SrqManagedConnectionFactory}, set by {@code config-property}). Each has its
 * name, {@link Kind}, unit, allowed range, default (as the text the setters take, per {@link Side}:
 * {@code null} where the side has no such property) and a one-line meaning. The two beans take
 * their defaults from here, and the static range checks ({@link #parse(PropertyCheck, String)})
 * read their bounds from here; ranges that depend on another property or on the device (written
 * so in {@link #range()}, e.g. {@code 0..srqMaxWr − 1}) are checked with bounds the bean computes
 * ({@link #parse(PropertyCheck, String, long, long)}) and this property's explanation.
 * docs/configuration.md's tables are this table (ConfigurationTablesTest).
 */
public enum SrqProperty {
    PROVIDER("provider", Kind.WORDS, "", 0, 0, "auto, ibverbs, soft, fabric", "auto", "auto", null,
            "verbs provider: auto (ibverbs when a device exists, else the soft device), ibverbs, soft, or fabric"
            + " (libfabric's tcp: two servers without RDMA)"),
    DEVICE("device", Kind.TEXT, "", 0, 0, "a device name, an IP address of its interface, gid:GID, or empty", "", "",
            null, "the device, by name, by its interface's address or by a GID (docs/configuration.md, Which device); "
            + "empty: the soft profile's device, or the first ibverbs device by name"),
    SOFT_PROFILE("softProfile", Kind.WORDS, "", 0, 0, "rxe, mlx5, efa", "rxe", "rxe", null,
            "the soft device's profile (efa opens, but has no SRQs: openSrq / connect fail with EOPNOTSUPP)"),
    PORT("port", Kind.INTEGER, "", 1, 255, "1..phys_port_cnt", null, "1", "ports are numbered 1..phys_port_cnt",
            "the device's port number"),
    SRQ_NAME("srqName", Kind.TEXT, "", 0, 0, "any text", "", null, null,
            "the SRQ's name in statistics and logs; empty: the endpoint class's simple name"),
    SRQ_MAX_WR("srqMaxWr", Kind.INTEGER, "WRs", 1, Integer.MAX_VALUE, "1..max_srq_wr", "1024", "1024",
            "at most the device's max_srq_wr",
            "max_wr of the SRQ (a connection definition's: the SRQ default that connect attaches peers to)"),
    SRQ_MAX_SGE("srqMaxSge", Kind.INTEGER, "SGEs", 1, Integer.MAX_VALUE, "1..max_srq_sge", "1", "1",
            "at most the device's max_srq_sge", "max_sge of the SRQ"),
    SRQ_LIMIT("srqLimit", Kind.INTEGER, "WRs", 0, Integer.MAX_VALUE, "0..srqMaxWr − 1", "64", "0",
            "0 = not armed, no limit events; below srqMaxWr, since the receives posted must exceed it",
            "srq_limit, the low watermark that fires SrqLimitReached; 0: not armed"),
    BUFFER_SIZE("bufferSize", Kind.INTEGER, "bytes", 1, SrqProperty.MAX_BUFFER, null, "4096", null,
            "bytes per receive buffer", "bytes per receive buffer; the SRQ's slab is srqMaxWr × bufferSize"),
    RECEIVE_BUFFER_SIZE("receiveBufferSize", Kind.INTEGER, "bytes", 1, SrqProperty.MAX_BUFFER, null, null, "4096",
            "bytes per receive buffer of a pooled SRQ; a longer reply fails its peer with EIO",
            "bytes per receive buffer of every pooled SRQ (srqMaxWr × this at most 16 GiB); a longer reply fails "
            + "its peer with EIO"),
    SEND_BUFFER_SIZE("sendBufferSize", Kind.INTEGER, "bytes", 1, RcConnection.MAX_SLOT, null, null, "4096",
            "bytes per message sent to a peer; each peer registers a send ring of " + RcConnection.SEND_DEPTH
            + " such slots", "the largest message sent to a peer (SrqConnection.connect)"),
    CQ_SIZE("cqSize", Kind.INTEGER, "CQEs", 1, Integer.MAX_VALUE, "srqMaxWr..max_cqe", "", null,
            "at least srqMaxWr, at most the device's max_cqe", "CQEs of the activation's CQ; empty: srqMaxWr"),
    POLL_MODE("pollMode", Kind.WORDS, "", 0, 0, "busy, event, adaptive", "adaptive", null, null,
            "how the poller waits for completions (adaptive waits as event when the poller delivers inline)"),
    MAX_CONCURRENCY("maxConcurrency", Kind.INTEGER, "endpoints", 1, 1024, null, "8", null,
            "endpoints delivering at once", "endpoints delivering at once; 1 with ordering none: the poller delivers "
            + "on its own thread"),
    DRAIN_TIMEOUT("drainTimeout", Kind.DURATION, "ms", 0, 600_000, null, "5000", null,
            "milliseconds deactivation delivers what the CQ holds before counting the rest undelivered",
            "how long deactivation still delivers what the CQ holds; the rest is counted undelivered (SRQRA0300)"),
    MAX_DELIVERY_ATTEMPTS("maxDeliveryAttempts", Kind.INTEGER, "attempts", 1, 1000, null, "1", null,
            "delivery attempts per message (1: a failed delivery is not repeated)",
            "delivery attempts per message, then SrqDeadLetter is fired"),
    MAX_BATCH_SIZE("maxBatchSize", Kind.INTEGER, "messages", 1, SrqProperty.MAX_BATCH, null, "32", null,
            "messages per call of an SrqBatchListener (at most one poll of the CQ)",
            "messages per call of an SrqBatchListener MDB; ignored for SrqReceiveListener"),
    REPLY_TIMEOUT("replyTimeout", Kind.DURATION, "ms", 0, 30_000, null, "1000", null,
            "milliseconds a reply waits for room in its connection's send ring, then ETIMEDOUT",
            "how long a reply waits for room in its connection's send ring, then fails with ETIMEDOUT"),
    MAX_SEQUENTIAL_DELIVERY_FAILURES("maxSequentialDeliveryFailures", Kind.INTEGER, "messages", 0, 1_000_000, null,
            "0", null, "dead-lettered messages in a row that pause delivery (0: never pause)",
            "dead-lettered messages in a row that pause delivery until resumed or pauseTimeout; 0: never pause"),
    PAUSE_TIMEOUT("pauseTimeout", Kind.DURATION, "ms", 0, 86_400_000, null, "60000", null,
            "milliseconds a pause after failures lasts unless resumed (0: until resumed)",
            "how long a pause after failures lasts; 0: until resumed by management"),
    LISTEN("listen", Kind.BOOLEAN, "", 0, 0, "true, false", "true", null, null,
            "true: listen on listenAddress:listenPort; false: no listener (needs connectTo)"),
    LISTEN_ADDRESS("listenAddress", Kind.ADDRESS, "", 0, 0, "an IP address literal, no port", "0.0.0.0", null, null,
            "an IP address of the device's interface to listen on (0.0.0.0 or :: for all)"),
    LISTEN_PORT("listenPort", Kind.INTEGER, "", 0, 65535, null, "7471", null, "0 = any free port",
            "the rdma_cm port to listen on; 0: any free port"),
    SERVICE_NAME("serviceName", Kind.TEXT, "", 0, 0, "1 to 128 letters, digits, '.', '-', '_', or empty", "", null,
            null, "the service name the listener is published as, for calls by service name (the cluster's directory);"
            + " empty: srqName, else the endpoint class's simple name (published only if that is a valid name)"),
    CLUSTER_SINGLETON("clusterSingleton", Kind.BOOLEAN, "", 0, 0, "true, false", "false", null, null,
            "true: only the node WildFly's singleton policy elects opens and delivers, one node of the cluster at a"
            + " time (the others STANDBY; the next one takes over when it leaves; docs/cluster.md); false: every node"),
    SINGLETON_POLICY("singletonPolicy", Kind.TEXT, "", 0, 0, "a singleton policy's name (letters, digits, '-', '_'), or empty",
            "", null, null, "with clusterSingleton=true: the singleton subsystem's policy that elects the node (its election"
            + " policy, preferences, quorum); empty: the server's default policy"),
    INITIAL_FILL("initialFill", Kind.INTEGER, "WRs", 0, Integer.MAX_VALUE, "srqLimit + 1..srqMaxWr", "", null,
            "receive WRs posted at start: more than srqLimit, at most srqMaxWr",
            "receive WRs posted at start; empty: 4 × srqLimit, at most srqMaxWr (srqMaxWr when srqLimit is 0)"),
    REPLENISH_POLICY("replenishPolicy", Kind.WORDS, "", 0, 0, "fixed, grow", "grow", null, null,
            "grow: the limit event doubles the fill up to srqMaxWr; fixed: the fill stays"),
    REPLY_BUFFER_SIZE("replyBufferSize", Kind.INTEGER, "bytes", 1, RcConnection.MAX_SLOT, null, "4096", null,
            "bytes per reply; a connection that replies registers a send ring of " + RcConnection.SEND_DEPTH
            + " such slots", "bytes per reply (ReceiveCompletion.reply)"),
    CONNECT_TO("connectTo", Kind.HOST_PORT, "", 0, 0, "host:port, [IPv6]:port, service:NAME, or empty", "", null, null,
            "a remote rdma_cm listener to keep connections to on the same SRQ, or service:NAME: spread over every"
            + " provider of that service and rebalanced as they come and go (docs/cluster.md); empty: none"),
    CONNECT_COUNT("connectCount", Kind.INTEGER, "connections", 1, 1024, null, "1", null,
            "connections kept to connectTo", "connections kept to connectTo"),
    RECONNECT_INTERVAL("reconnectInterval", Kind.DURATION, "ms", 100, 3_600_000, null, "1000", null,
            "milliseconds before a failed or lost connection is tried again",
            "the wait before a failed or lost connection to connectTo is tried again"),
    ALLOWED_PEERS("allowedPeers", Kind.CIDRS, "", 0, 0, "IPv4/IPv6 CIDRs, comma-separated, or empty", "", null, null,
            "the CIDRs a connect request's source address must lie in; empty: any (policy, not authentication)"),
    MAX_CONNECTIONS("maxConnections", Kind.INTEGER, "connections", 1, 65536, null, "1024", null,
            "accepted connections at most", "accepted connections at most"),
    MAX_CONNECTIONS_PER_PEER("maxConnectionsPerPeer", Kind.INTEGER, "connections", 1, 65536, "1..maxConnections", "",
            null, "accepted connections per peer address at most (empty: maxConnections), at most maxConnections",
            "accepted connections per peer address at most; empty: maxConnections"),
    CONNECT_RATE_LIMIT("connectRateLimit", Kind.INTEGER, "per second", 1, 1_000_000, null, "1000", null,
            "connect requests a second the listener considers; more are rejected RATE_LIMITED",
            "connect requests a second the listener considers; more are rejected RATE_LIMITED"),
    AUTH_KEY("authKey", Kind.ALIASES, "", 0, 0, "aliases of the adapter's authKeys, comma-separated, or empty", "", "",
            null, "the keys whose token is presented on connect (the first) and, on an activation, accepted; "
            + "empty: none"),
    TOKEN_MAX_AGE("tokenMaxAge", Kind.DURATION, "ms", 1000, 600_000, null, "30000", null,
            "milliseconds a token's timestamp may lie from this server's clock, either way",
            "how far a token's timestamp may lie from this server's clock, either way"),
    TRAFFIC_CLASS("trafficClass", Kind.INTEGER, "", 0, 255, null, "", "",
            "the TOS byte of the QP's packets, DSCP × 4 + ECN; empty: rdma_cm's",
            "TOS / traffic class of the QPs' packets (RoCE v2: DSCP × 4 + ECN); empty: rdma_cm's"),
    ACK_TIMEOUT("ackTimeout", Kind.INTEGER, "", 1, 31, null, "14", "14",
            "the ACK timeout 4.096 µs × 2^ackTimeout; 0, which never times out, is not allowed",
            "ACK timeout exponent: 4.096 µs × 2^n (14: 67.1 ms)"),
    RETRY_COUNT("retryCount", Kind.INTEGER, "", 0, 7, null, "6", "6",
            "transport retries after an ACK timeout; a dead peer is seen after ackTimeout × (retryCount + 1)",
            "transport retries after an ACK timeout (rxe retries forever with 7)"),
    RNR_RETRY_COUNT("rnrRetryCount", Kind.INTEGER, "", 0, 7, null, "7", "7", "retries after an RNR NAK; 7 = retry forever",
            "retries after an RNR NAK (the peer's SRQ empty); 7: forever"),
    ORDERING("ordering", Kind.WORDS, "", 0, 0, "none, connection", "none", null, null,
            "connection: one connection's messages in arrival order, one at a time; none: concurrently"),
    MAX_HELD_PER_CONNECTION("maxHeldPerConnection", Kind.INTEGER, "buffers", 1, Integer.MAX_VALUE,
            "32..srqMaxWr (srqMaxWr when below 32)", "", null,
            "receive buffers one connection may hold (waiting under ordering=connection, or kept by "
            + "ReceiveCompletion.retain()): " + SrqProperty.MAX_BATCH
            + " (one poll of the CQ) or srqMaxWr if less, up to srqMaxWr",
            "receive buffers one connection may hold (waiting under ordering=connection, or kept by retain()); "
            + "empty: srqMaxWr / 8, at least 32"),
    RECOVERY_INITIAL_DELAY("recoveryInitialDelay", Kind.DURATION, "ms", 10, 60_000, null, "100", null,
            "milliseconds before the first retry to open a missing or lost device; each next waits twice as long",
            "the wait before the first retry to open a missing or lost device; each next waits twice as long"),
    RECOVERY_MAX_DELAY("recoveryMaxDelay", Kind.DURATION, "ms", 10, 3_600_000, "recoveryInitialDelay..3600000", "30000",
            null, "the longest wait in milliseconds between retries to open the device, at least recoveryInitialDelay",
            "the longest wait between retries to open the device");

    /** The most messages one poll of an activation's CQ takes, and so the most per SrqBatchListener call. */
    public static final int MAX_BATCH = 32;
    /** The largest receive buffer, bytes (1 GiB). */
    public static final int MAX_BUFFER = 1 << 30;

    /** What a property's text is. */
    public enum Kind {
        /** ASCII digits, optionally signed. */
        INTEGER("integer"),
        /** milliseconds, as ASCII digits. */
        DURATION("duration"),
        /** one of a few words, exactly. */
        WORDS("word"),
        /** true or false. */
        BOOLEAN("boolean"),
        /** an IP address literal. */
        ADDRESS("address"),
        /** host:port. */
        HOST_PORT("host:port"),
        /** CIDRs separated by commas. */
        CIDRS("CIDR list"),
        /** key aliases separated by commas. */
        ALIASES("alias list"),
        /** free text. */
        TEXT("text");

        private final String text;

        Kind(String text) {
            this.text = text;
        }

        /** @return how the tables write it */
        public String text() {
            return text;
        }
    }

    /** Which bean has a property. */
    public enum Side {
        /** SrqActivationSpec: an MDB's {@code @ActivationConfigProperty}. */
        ACTIVATION,
        /** SrqManagedConnectionFactory: a connection definition's {@code config-property}. */
        CONNECTION_DEFINITION
    }

    private final String property;
    private final Kind kind;
    private final String unit;
    private final long min;
    private final long max;
    private final String range;
    private final String activationDefault;
    private final String connectionDefault;
    private final String why;
    private final String doc;

    SrqProperty(String property, Kind kind, String unit, long min, long max, String range, String activationDefault,
                String connectionDefault, String why, String doc) {
        this.property = property;
        this.kind = kind;
        this.unit = unit;
        this.min = min;
        this.max = max;
        this.range = range;
        this.activationDefault = activationDefault;
        this.connectionDefault = connectionDefault;
        this.why = why;
        this.doc = doc;
    }

    /** @return the JavaBean property name, e.g. {@code srqMaxWr} */
    public String property() {
        return property;
    }

    /** @return what its text is */
    public Kind kind() {
        return kind;
    }

    /** @return the unit of a number ({@code bytes}, {@code ms}, {@code WRs}…), empty for none */
    public String unit() {
        return unit;
    }

    /** @return the smallest value a static check allows (integers and durations) */
    public long min() {
        return min;
    }

    /** @return the largest value a static check allows (integers and durations) */
    public long max() {
        return max;
    }

    /** @return the allowed values as the tables write them, e.g. {@code 1..1024} or {@code fixed, grow} */
    public String range() {
        return range != null ? range : min + ".." + max;
    }

    /** @return the one-line meaning */
    public String doc() {
        return doc;
    }

    /** @return the one-line meaning and the allowed values, as a {@code @ConfigProperty} description gives them */
    public String description() {
        return doc + "; allowed: " + range();
    }

    /** @return the sides that have this property */
    public List<Side> sides() {
        return Arrays.stream(Side.values()).filter(this::on).toList();
    }

    /** @param side a bean @return true if that bean has this property */
    public boolean on(Side side) {
        return (side == Side.ACTIVATION ? activationDefault : connectionDefault) != null;
    }

    /**
     * @param side the bean
     * @return the default, as the text its setter takes (empty: the property's blank meaning)
     * @throws IllegalArgumentException if that side has no such property
     */
    public String defaultFor(Side side) {
        String d = side == Side.ACTIVATION ? activationDefault : connectionDefault;
        if (d == null) {
            throw new IllegalArgumentException(property + " is not a property of the " + side);
        }
        return d;
    }

    /** @param side a bean @return its properties, in declaration order */
    public static List<SrqProperty> of(Side side) {
        return Arrays.stream(values()).filter(p -> p.on(side)).toList();
    }

    /**
     * Parses an integer or duration in this property's static range.
     *
     * @param check where errors are reported
     * @param value the configured text
     * @return the value
     * @throws InvalidPropertyException naming this property and its range
     */
    public int parse(PropertyCheck check, String value) throws InvalidPropertyException {
        return parse(check, value, min, max);
    }

    /**
     * Parses an integer or duration in a range the bean computed (from another property or the
     * device), with this property's explanation.
     *
     * @param check where errors are reported
     * @param value the configured text
     * @param low   smallest allowed
     * @param high  largest allowed
     * @return the value
     * @throws InvalidPropertyException naming this property and the range
     */
    public int parse(PropertyCheck check, String value, long low, long high) throws InvalidPropertyException {
        if (kind != Kind.INTEGER && kind != Kind.DURATION) {
            throw new IllegalStateException(property + " is not a number");
        }
        return check.integer(property, value, low, high, why);
    }

    /** @return the property name */
    @Override
    public String toString() {
        return property;
    }
}
