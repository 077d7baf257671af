package io.rdma.srq.ra.inbound;

import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.SrqBatchListener;
import io.rdma.srq.api.SrqReceiveListener;
import io.rdma.srq.ra.support.DeviceSelection;
import io.rdma.srq.ra.support.FabricProperties;
import io.rdma.srq.ra.support.IpLiteral;
import io.rdma.srq.ra.support.PropertyCheck;
import io.rdma.srq.ra.support.SrqProperty;
import io.rdma.srq.ra.support.SrqSizing;
import io.rdma.srq.ra.support.admission.Admission;
import io.rdma.srq.ra.support.admission.AuthKey;
import io.rdma.srq.ra.support.admission.KeyRing;
import io.rdma.srq.ra.support.admission.PeerFilter;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.Activation;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ResourceAdapter;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

import static io.rdma.srq.ra.support.SrqProperty.*;

/**
 * Configures one message-endpoint activation: an SRQ fed by rdma_cm connections, whose receive
 * completions go to {@link SrqReceiveListener} MDBs. Every property is text (as in
 * {@code @ActivationConfigProperty}); {@link #validate()} checks them all and names the first bad
 * one with its allowed range. Device limits are checked again when the device is opened.
 */
@Activation(messageListeners = {SrqReceiveListener.class, SrqBatchListener.class})
public class SrqActivationSpec implements ActivationSpec {
    private static final PropertyCheck CHECK = new PropertyCheck(SrqActivationSpec.class);

    private ResourceAdapter resourceAdapter;
    private String provider = d(PROVIDER);
    private String device = d(DEVICE);
    private String softProfile = d(SOFT_PROFILE);
    private String srqName = d(SRQ_NAME);
    private String srqMaxWr = d(SRQ_MAX_WR);
    private String srqMaxSge = d(SRQ_MAX_SGE);
    private String bufferSize = d(BUFFER_SIZE);
    private String srqLimit = d(SRQ_LIMIT);
    private String cqSize = d(CQ_SIZE);
    private String pollMode = d(POLL_MODE);
    private String maxConcurrency = d(MAX_CONCURRENCY);
    private String drainTimeout = d(DRAIN_TIMEOUT);
    private String maxDeliveryAttempts = d(MAX_DELIVERY_ATTEMPTS);
    private String maxBatchSize = d(MAX_BATCH_SIZE);
    private String replyTimeout = d(REPLY_TIMEOUT);
    private String maxSequentialDeliveryFailures = d(MAX_SEQUENTIAL_DELIVERY_FAILURES);
    private String pauseTimeout = d(PAUSE_TIMEOUT);
    private String listen = d(LISTEN);
    private String listenAddress = d(LISTEN_ADDRESS);
    private String listenPort = d(LISTEN_PORT);
    private String initialFill = d(INITIAL_FILL);
    private String replenishPolicy = d(REPLENISH_POLICY);
    private String replyBufferSize = d(REPLY_BUFFER_SIZE);
    private String connectTo = d(CONNECT_TO);
    private String connectCount = d(CONNECT_COUNT);
    private String reconnectInterval = d(RECONNECT_INTERVAL);
    private String allowedPeers = d(ALLOWED_PEERS);
    private String maxConnections = d(MAX_CONNECTIONS);
    private String maxConnectionsPerPeer = d(MAX_CONNECTIONS_PER_PEER);
    private String connectRateLimit = d(CONNECT_RATE_LIMIT);
    private String authKey = d(AUTH_KEY);
    private String tokenMaxAge = d(TOKEN_MAX_AGE);
    private String trafficClass = d(TRAFFIC_CLASS);
    private String ackTimeout = d(ACK_TIMEOUT);
    private String retryCount = d(RETRY_COUNT);
    private String rnrRetryCount = d(RNR_RETRY_COUNT);
    private String ordering = d(ORDERING);
    private String maxHeldPerConnection = d(MAX_HELD_PER_CONNECTION);
    private String recoveryInitialDelay = d(RECOVERY_INITIAL_DELAY);
    private String recoveryMaxDelay = d(RECOVERY_MAX_DELAY);

    /**
     * Parses and checks every property.
     *
     * @return the configuration
     * @throws InvalidPropertyException naming the first bad property and its allowed range
     */
    public InboundConfig config() throws InvalidPropertyException {
        DeviceSelection selection = DeviceSelection.parse(CHECK, provider, device, softProfile);
        SrqAttributes srq = SrqSizing.parse(CHECK, srqMaxWr, srqMaxSge, srqLimit);
        int maxWr = srq.maxWr();
        int limit = srq.srqLimit();
        int buffer = BUFFER_SIZE.parse(CHECK, bufferSize);
        int cq = CQ_SIZE.parse(CHECK, blankTo(cqSize, srqMaxWr), maxWr, CQ_SIZE.max());
        InboundConfig.PollMode mode = CHECK.oneOf("pollMode", pollMode, InboundConfig.PollMode.class);
        int concurrency = MAX_CONCURRENCY.parse(CHECK, maxConcurrency);
        InetSocketAddress listening = listening();
        int fill = INITIAL_FILL.parse(CHECK, blankTo(initialFill, String.valueOf(defaultFill(maxWr, limit))),
                limit + 1L, maxWr);
        InboundConfig.Replenish replenish = CHECK.oneOf("replenishPolicy", replenishPolicy, InboundConfig.Replenish.class);
        int reply = REPLY_BUFFER_SIZE.parse(CHECK, replyBufferSize);
        InetSocketAddress remote = remote();
        int count = CONNECT_COUNT.parse(CHECK, connectCount);
        int reconnect = RECONNECT_INTERVAL.parse(CHECK, reconnectInterval);
        int drain = DRAIN_TIMEOUT.parse(CHECK, drainTimeout);
        return new InboundConfig(selection, srqName == null ? "" : srqName.trim(), srq, buffer, cq, mode, concurrency,
                listening, fill, replenish, reply, remote, count, Duration.ofMillis(reconnect),
                Duration.ofMillis(drain), MAX_DELIVERY_ATTEMPTS.parse(CHECK, maxDeliveryAttempts),
                MAX_BATCH_SIZE.parse(CHECK, maxBatchSize),
                Duration.ofMillis(REPLY_TIMEOUT.parse(CHECK, replyTimeout)),
                MAX_SEQUENTIAL_DELIVERY_FAILURES.parse(CHECK, maxSequentialDeliveryFailures),
                Duration.ofMillis(PAUSE_TIMEOUT.parse(CHECK, pauseTimeout)),
                admission(), FabricProperties.parse(CHECK, trafficClass, ackTimeout, retryCount, rnrRetryCount),
                CHECK.oneOf("ordering", ordering, InboundConfig.Ordering.class),
                MAX_HELD_PER_CONNECTION.parse(CHECK, blankTo(maxHeldPerConnection,
                        String.valueOf(defaultHeldPerConnection(maxWr))), Math.min(Poller.BATCH, maxWr), maxWr));
    }

    /** @return maxHeldPerConnection when blank: an eighth of srqMaxWr, at least one poll of the CQ (or srqMaxWr) */
    static int defaultHeldPerConnection(int maxWr) {
        return Math.min(maxWr, Math.max(Poller.BATCH, maxWr / 8));
    }

    /** @return ordering text */
    public String getOrdering() {
        return ordering;
    }

    /**
     * @param ordering none (default: messages of one connection may be processed concurrently and out
     *                 of arrival order) | connection (in arrival order, one at a time per connection;
     *                 connections in parallel up to maxConcurrency)
     */
    public void setOrdering(String ordering) {
        this.ordering = ordering;
    }

    /** @return maxHeldPerConnection text */
    public String getMaxHeldPerConnection() {
        return maxHeldPerConnection;
    }

    /**
     * @param maxHeldPerConnection messages of one connection that may wait in receive buffers of the
     *                             SRQ behind its delivery in progress, under ordering=connection:
     *                             32..srqMaxWr (or srqMaxWr when below 32); empty: srqMaxWr / 8, at
     *                             least 32. Beyond it its messages are copied to the heap, and a
     *                             stalled connection with as many again waiting in copies is
     *                             disconnected. The same number bounds the receive buffers one
     *                             connection's messages may keep through ReceiveCompletion.retain()
     *                             (either ordering)
     */
    public void setMaxHeldPerConnection(String maxHeldPerConnection) {
        this.maxHeldPerConnection = maxHeldPerConnection;
    }

    /**
     * listen, listenAddress, listenPort: where the activation listens, or null with listen=false,
     * which needs connectTo (an activation that neither listens nor connects receives nothing).
     */
    private InetSocketAddress listening() throws InvalidPropertyException {
        boolean on = CHECK.oneOf("listen", listen, java.util.List.of(Boolean.TRUE, Boolean.FALSE), String::valueOf);
        if (!on) {
            if (connectTo == null || connectTo.isBlank()) {
                throw CHECK.invalid("listen", "listen=false needs connectTo: an activation that neither listens nor "
                        + "connects receives nothing");
            }
            return null;
        }
        InetAddress address = listenAddress();
        int port = LISTEN_PORT.parse(CHECK, listenPort);
        return new InetSocketAddress(address, port);
    }

    /** The admission properties: allowedPeers, maxConnections, maxConnectionsPerPeer, connectRateLimit, authKey, tokenMaxAge. */
    private Admission.Policy admission() throws InvalidPropertyException {
        PeerFilter peers;
        try {
            peers = PeerFilter.parse(allowedPeers);
        } catch (IllegalArgumentException e) {
            throw CHECK.invalid("allowedPeers", "allowedPeers must be IPv4/IPv6 CIDRs separated by commas (empty: any "
                    + "address): " + e.getMessage());
        }
        int max = MAX_CONNECTIONS.parse(CHECK, maxConnections);
        int perPeer = MAX_CONNECTIONS_PER_PEER.parse(CHECK, blankTo(maxConnectionsPerPeer, String.valueOf(max)), 1, max);
        int rate = CONNECT_RATE_LIMIT.parse(CHECK, connectRateLimit);
        int age = TOKEN_MAX_AGE.parse(CHECK, tokenMaxAge);
        List<AuthKey> keys;
        try {
            KeyRing ring = resourceAdapter instanceof KeyRing.Source source ? source.keyRing() : KeyRing.EMPTY;
            keys = ring.select(authKey);
        } catch (IllegalArgumentException e) {
            throw CHECK.invalid("authKey", "authKey must name keys of the resource adapter's authKeys property: "
                    + e.getMessage());
        }
        // a nonce lives tokenMaxAge at most; the rate bounds how many arrive meanwhile (twice: the window goes both ways)
        int cache = (int) Math.min(1 << 20, 2L * rate * age / 1000 + 1);
        return new Admission.Policy(peers, max, perPeer, rate, keys, Duration.ofMillis(age), cache);
    }

    /**
     * The fill when initialFill is empty: 4 × srqLimit (at least srqLimit + 1), at most srqMaxWr, so
     * the grow policy has room; srqMaxWr when srqLimit is 0.
     */
    private static int defaultFill(int maxWr, int limit) {
        return limit > 0 ? (int) Math.min(maxWr, Math.max(4L * limit, limit + 1L)) : maxWr;
    }

    /** listenAddress: an IP address literal (no host names, no port). */
    private InetAddress listenAddress() throws InvalidPropertyException {
        String v = listenAddress == null ? "" : listenAddress.trim();
        try {
            return IpLiteral.parse(v);
        } catch (IllegalArgumentException e) {
            throw CHECK.invalid("listenAddress", "listenAddress must be an IP address of the device's interface "
                    + "(0.0.0.0 or :: for all), without a port, got '" + v + "'");
        }
    }

    /** connectTo: empty, or host:port ([v6-address]:port) of a listener, resolved now. */
    private InetSocketAddress remote() throws InvalidPropertyException {
        String v = connectTo == null ? "" : connectTo.trim();
        if (v.isEmpty()) {
            return null;
        }
        int colon = v.lastIndexOf(':');
        String host = colon > 0 ? v.substring(0, colon) : "";
        if (v.startsWith("[") && !host.endsWith("]")) {
            host = "";   // "[::1]" without a port
        } else if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":")) {
            throw CHECK.invalid("connectTo", "connectTo: an IPv6 address goes in brackets, e.g. [" + host + "]:"
                    + v.substring(colon + 1) + ", got '" + v + "'");
        }
        if (host.isEmpty()) {
            throw CHECK.invalid("connectTo", "connectTo must be host:port of an rdma_cm listener (empty for none), got '"
                    + v + "'");
        }
        int port = CHECK.integer("connectTo", v.substring(colon + 1), 1, 65535, "the port of connectTo");
        InetSocketAddress a = new InetSocketAddress(host, port);
        if (a.isUnresolved()) {
            throw CHECK.invalid("connectTo", "connectTo: cannot resolve host '" + host + "'");
        }
        if (a.getAddress().isAnyLocalAddress()) {
            throw CHECK.invalid("connectTo", "connectTo must name a listener's address, not the wildcard '" + host + "'");
        }
        return a;
    }

    private static String d(SrqProperty property) {
        return property.defaultFor(Side.ACTIVATION);
    }

    private static String blankTo(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }

    static PropertyCheck check() {
        return CHECK;
    }

    /**
     * Parses and checks the recovery properties.
     *
     * @return the backoff between attempts to open the device (late device, device loss)
     * @throws InvalidPropertyException naming recoveryInitialDelay or recoveryMaxDelay and the allowed range
     */
    public Backoff recovery() throws InvalidPropertyException {
        int initial = RECOVERY_INITIAL_DELAY.parse(CHECK, recoveryInitialDelay);
        int max = RECOVERY_MAX_DELAY.parse(CHECK, recoveryMaxDelay, initial, RECOVERY_MAX_DELAY.max());
        return new Backoff(Duration.ofMillis(initial), Duration.ofMillis(max));
    }

    @Override
    public void validate() throws InvalidPropertyException {
        config();
        recovery();
    }

    /** @return recoveryInitialDelay text */
    public String getRecoveryInitialDelay() {
        return recoveryInitialDelay;
    }

    /**
     * @param recoveryInitialDelay milliseconds, 10..60000 (default 100): the wait before the first
     *                             retry to open the device when it (or the listen address) is missing
     *                             at activation or lost later; each next retry waits twice as long
     */
    public void setRecoveryInitialDelay(String recoveryInitialDelay) {
        this.recoveryInitialDelay = recoveryInitialDelay;
    }

    /** @return recoveryMaxDelay text */
    public String getRecoveryMaxDelay() {
        return recoveryMaxDelay;
    }

    /**
     * @param recoveryMaxDelay milliseconds, recoveryInitialDelay..3600000 (default 30000): the longest
     *                         wait between retries to open the device
     */
    public void setRecoveryMaxDelay(String recoveryMaxDelay) {
        this.recoveryMaxDelay = recoveryMaxDelay;
    }

    @Override
    public ResourceAdapter getResourceAdapter() {
        return resourceAdapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter ra) throws ResourceException {
        this.resourceAdapter = ra;
    }

    /** @return auto | ibverbs | soft */
    public String getProvider() {
        return provider;
    }

    /** @param provider auto | ibverbs | soft */
    public void setProvider(String provider) {
        this.provider = provider;
    }

    /** @return device name, empty for the first */
    public String getDevice() {
        return device;
    }

    /** @param device device name, empty for the first */
    public void setDevice(String device) {
        this.device = device;
    }

    /** @return rxe | mlx5 | efa */
    public String getSoftProfile() {
        return softProfile;
    }

    /** @param softProfile rxe | mlx5 | efa */
    public void setSoftProfile(String softProfile) {
        this.softProfile = softProfile;
    }

    /** @return the SRQ name, empty for the endpoint class's simple name */
    public String getSrqName() {
        return srqName;
    }

    /** @param srqName the SRQ name */
    public void setSrqName(String srqName) {
        this.srqName = srqName;
    }

    /** @return srqMaxWr text */
    public String getSrqMaxWr() {
        return srqMaxWr;
    }

    /** @param srqMaxWr 1..max_srq_wr */
    public void setSrqMaxWr(String srqMaxWr) {
        this.srqMaxWr = srqMaxWr;
    }

    /** @return srqMaxSge text */
    public String getSrqMaxSge() {
        return srqMaxSge;
    }

    /** @param srqMaxSge 1..max_srq_sge */
    public void setSrqMaxSge(String srqMaxSge) {
        this.srqMaxSge = srqMaxSge;
    }

    /** @return bufferSize text */
    public String getBufferSize() {
        return bufferSize;
    }

    /** @param bufferSize bytes per receive buffer, 1..1073741824 */
    public void setBufferSize(String bufferSize) {
        this.bufferSize = bufferSize;
    }

    /** @return srqLimit text */
    public String getSrqLimit() {
        return srqLimit;
    }

    /** @param srqLimit 0..srqMaxWr − 1 (0: not armed) */
    public void setSrqLimit(String srqLimit) {
        this.srqLimit = srqLimit;
    }

    /** @return cqSize text, empty = srqMaxWr */
    public String getCqSize() {
        return cqSize;
    }

    /** @param cqSize srqMaxWr..max_cqe */
    public void setCqSize(String cqSize) {
        this.cqSize = cqSize;
    }

    /** @return busy | event | adaptive */
    public String getPollMode() {
        return pollMode;
    }

    /** @param pollMode busy | event | adaptive (as event when the poller delivers inline: maxConcurrency 1, ordering none) */
    public void setPollMode(String pollMode) {
        this.pollMode = pollMode;
    }

    /** @return maxSequentialDeliveryFailures text */
    public String getMaxSequentialDeliveryFailures() {
        return maxSequentialDeliveryFailures;
    }

    /**
     * @param maxSequentialDeliveryFailures 0..1000000 (default 0: never): after that many messages in
     *                                      a row were dead-lettered, delivery pauses (completions wait
     *                                      in the CQ) until resumed or pauseTimeout
     */
    public void setMaxSequentialDeliveryFailures(String maxSequentialDeliveryFailures) {
        this.maxSequentialDeliveryFailures = maxSequentialDeliveryFailures;
    }

    /** @return pauseTimeout text */
    public String getPauseTimeout() {
        return pauseTimeout;
    }

    /** @param pauseTimeout milliseconds, 0..86400000 (default 60000; 0: until resumed by management) */
    public void setPauseTimeout(String pauseTimeout) {
        this.pauseTimeout = pauseTimeout;
    }

    /** @return replyTimeout text */
    public String getReplyTimeout() {
        return replyTimeout;
    }

    /**
     * @param replyTimeout milliseconds, 0..30000 (default 1000): how long a reply waits for room in
     *                     its connection's send ring of 64 replies (full when the peer stops reading);
     *                     then it fails with ETIMEDOUT and the delivering thread goes on
     */
    public void setReplyTimeout(String replyTimeout) {
        this.replyTimeout = replyTimeout;
    }

    /** @return maxBatchSize text */
    public String getMaxBatchSize() {
        return maxBatchSize;
    }

    /**
     * @param maxBatchSize 1..32 (default 32): messages per call of an MDB implementing
     *                     SrqBatchListener; ignored for SrqReceiveListener
     */
    public void setMaxBatchSize(String maxBatchSize) {
        this.maxBatchSize = maxBatchSize;
    }

    /** @return maxDeliveryAttempts text */
    public String getMaxDeliveryAttempts() {
        return maxDeliveryAttempts;
    }

    /**
     * @param maxDeliveryAttempts 1..1000 (default 1): attempts per message; a failed attempt (an
     *                            exception out of the listener or before/afterDelivery, a rolled-back
     *                            container transaction) is repeated at once until they run out, then
     *                            SrqDeadLetter is fired
     */
    public void setMaxDeliveryAttempts(String maxDeliveryAttempts) {
        this.maxDeliveryAttempts = maxDeliveryAttempts;
    }

    /** @return drainTimeout text */
    public String getDrainTimeout() {
        return drainTimeout;
    }

    /**
     * @param drainTimeout milliseconds, 0..600000 (default 5000): at deactivation, after the QPs
     *                     stopped acknowledging, how long what the CQ holds is still delivered; the
     *                     rest is counted undelivered and logged (SRQRA0300)
     */
    public void setDrainTimeout(String drainTimeout) {
        this.drainTimeout = drainTimeout;
    }

    /** @return maxConcurrency text */
    public String getMaxConcurrency() {
        return maxConcurrency;
    }

    /**
     * @param maxConcurrency 1..1024; 1 with ordering none: the poller delivers on its own thread
     *                       (no WorkManager hand-off; see Poller)
     */
    public void setMaxConcurrency(String maxConcurrency) {
        this.maxConcurrency = maxConcurrency;
    }

    /** @return listen text: true | false */
    public String getListen() {
        return listen;
    }

    /** @param listen true (default): listen on listenAddress:listenPort; false: no listener (needs connectTo) */
    public void setListen(String listen) {
        this.listen = listen;
    }

    /** @return trafficClass text */
    public String getTrafficClass() {
        return trafficClass;
    }

    /** @param trafficClass TOS / traffic class of the connections' packets, 0..255; empty for rdma_cm's */
    public void setTrafficClass(String trafficClass) {
        this.trafficClass = trafficClass;
    }

    /** @return ackTimeout text */
    public String getAckTimeout() {
        return ackTimeout;
    }

    /** @param ackTimeout ACK timeout exponent 1..31: 4.096 µs × 2^n (default 14: 67.1 ms) */
    public void setAckTimeout(String ackTimeout) {
        this.ackTimeout = ackTimeout;
    }

    /** @return retryCount text */
    public String getRetryCount() {
        return retryCount;
    }

    /** @param retryCount transport retries after an ACK timeout, 0..7 (default 6; rxe retries forever with 7) */
    public void setRetryCount(String retryCount) {
        this.retryCount = retryCount;
    }

    /** @return rnrRetryCount text */
    public String getRnrRetryCount() {
        return rnrRetryCount;
    }

    /** @param rnrRetryCount retries after an RNR NAK, 0..7; 7 (default) = forever */
    public void setRnrRetryCount(String rnrRetryCount) {
        this.rnrRetryCount = rnrRetryCount;
    }

    /** @return the rdma_cm listen address */
    public String getListenAddress() {
        return listenAddress;
    }

    /** @param listenAddress an IP address of the device's interface */
    public void setListenAddress(String listenAddress) {
        this.listenAddress = listenAddress;
    }

    /** @return listenPort text */
    public String getListenPort() {
        return listenPort;
    }

    /** @param listenPort 0..65535 */
    public void setListenPort(String listenPort) {
        this.listenPort = listenPort;
    }

    /** @return initialFill text; empty = 4 × srqLimit, at most srqMaxWr (srqMaxWr when srqLimit is 0) */
    public String getInitialFill() {
        return initialFill;
    }

    /** @param initialFill receive WRs posted at start, srqLimit + 1..srqMaxWr; empty for the default (4 × srqLimit) */
    public void setInitialFill(String initialFill) {
        this.initialFill = initialFill;
    }

    /** @return fixed | grow */
    public String getReplenishPolicy() {
        return replenishPolicy;
    }

    /** @param replenishPolicy fixed | grow */
    public void setReplenishPolicy(String replenishPolicy) {
        this.replenishPolicy = replenishPolicy;
    }

    /** @return replyBufferSize text */
    public String getReplyBufferSize() {
        return replyBufferSize;
    }

    /** @param replyBufferSize bytes per reply (ReceiveCompletion.reply), 1..1073741824 */
    public void setReplyBufferSize(String replyBufferSize) {
        this.replyBufferSize = replyBufferSize;
    }

    /** @return connectTo text: host:port, or empty */
    public String getConnectTo() {
        return connectTo;
    }

    /** @param connectTo host:port of a remote rdma_cm listener to keep connections to; empty for none */
    public void setConnectTo(String connectTo) {
        this.connectTo = connectTo;
    }

    /** @return connectCount text */
    public String getConnectCount() {
        return connectCount;
    }

    /** @param connectCount connections kept to connectTo, 1..1024 */
    public void setConnectCount(String connectCount) {
        this.connectCount = connectCount;
    }

    /** @return reconnectInterval text (milliseconds) */
    public String getReconnectInterval() {
        return reconnectInterval;
    }

    /** @param reconnectInterval milliseconds before a failed or lost connection is tried again, 100..3600000 */
    public void setReconnectInterval(String reconnectInterval) {
        this.reconnectInterval = reconnectInterval;
    }

    /** @return allowedPeers text */
    public String getAllowedPeers() {
        return allowedPeers;
    }

    /** @param allowedPeers IPv4/IPv6 CIDRs (comma-separated) a connect request's source address must lie in; empty: any. Policy, not authentication: the address can be forged */
    public void setAllowedPeers(String allowedPeers) {
        this.allowedPeers = allowedPeers;
    }

    /** @return maxConnections text */
    public String getMaxConnections() {
        return maxConnections;
    }

    /** @param maxConnections accepted connections at most, 1..65536 */
    public void setMaxConnections(String maxConnections) {
        this.maxConnections = maxConnections;
    }

    /** @return maxConnectionsPerPeer text */
    public String getMaxConnectionsPerPeer() {
        return maxConnectionsPerPeer;
    }

    /** @param maxConnectionsPerPeer accepted connections per peer address at most, 1..maxConnections; empty: maxConnections */
    public void setMaxConnectionsPerPeer(String maxConnectionsPerPeer) {
        this.maxConnectionsPerPeer = maxConnectionsPerPeer;
    }

    /** @return connectRateLimit text */
    public String getConnectRateLimit() {
        return connectRateLimit;
    }

    /** @param connectRateLimit connect requests a second considered, 1..1000000; more are rejected */
    public void setConnectRateLimit(String connectRateLimit) {
        this.connectRateLimit = connectRateLimit;
    }

    /** @return authKey text */
    public String getAuthKey() {
        return authKey;
    }

    /** @param authKey aliases of the resource adapter's authKeys (comma-separated; the first is presented by connectTo, all are accepted); empty: no token asked for */
    public void setAuthKey(String authKey) {
        this.authKey = authKey;
    }

    /** @return tokenMaxAge text */
    public String getTokenMaxAge() {
        return tokenMaxAge;
    }

    /** @param tokenMaxAge milliseconds a token's timestamp may lie from this server's clock, 1000..600000 */
    public void setTokenMaxAge(String tokenMaxAge) {
        this.tokenMaxAge = tokenMaxAge;
    }
}
