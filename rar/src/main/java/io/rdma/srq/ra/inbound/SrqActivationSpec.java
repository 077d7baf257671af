package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.cluster.LocalServiceDirectory;
import io.rdma.srq.ra.cluster.LocalSingletonElection;
import io.rdma.srq.ra.cluster.SingletonElection;
import io.rdma.srq.ra.cluster.ServiceDirectory;
import io.rdma.srq.ra.cluster.ServiceEndpoint;
import io.rdma.srq.ra.inbound.config.InboundConfig;
import io.rdma.srq.ra.inbound.lifecycle.Backoff;

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
 * one with its allowed range. Device limits are checked again when the device is opened. Each
 * property's type, range, default and meaning are declared once, in {@link SrqProperty}
 * ({@link SrqProperty.Side#ACTIVATION}).
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
    private String serviceName = d(SERVICE_NAME);
    private String clusterSingleton = d(CLUSTER_SINGLETON);
    private String singletonPolicy = d(SINGLETON_POLICY);
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
                        String.valueOf(defaultHeldPerConnection(maxWr))), Math.min(SrqProperty.MAX_BATCH, maxWr), maxWr),
                serviceName(listening), connectService(), directory(),
                singleton(), singletonPolicy(), election(), CHECK);
    }

    /** @return maxHeldPerConnection when blank: an eighth of srqMaxWr, at least one poll of the CQ (or srqMaxWr) */
    static int defaultHeldPerConnection(int maxWr) {
        return Math.min(maxWr, Math.max(SrqProperty.MAX_BATCH, maxWr / 8));
    }

    /** @return the text of {@link SrqProperty#ORDERING} */
    public String getOrdering() {
        return ordering;
    }

    /**
     * @param ordering the text of {@link SrqProperty#ORDERING} (its type, range, default and meaning)
     */
    public void setOrdering(String ordering) {
        this.ordering = ordering;
    }

    /** @return the text of {@link SrqProperty#MAX_HELD_PER_CONNECTION} */
    public String getMaxHeldPerConnection() {
        return maxHeldPerConnection;
    }

    /**
     * @param maxHeldPerConnection the text of {@link SrqProperty#MAX_HELD_PER_CONNECTION} (its type,
     *                             range, default and meaning); beyond it, under ordering=connection,
     *                             its messages are copied to the heap, and a stalled connection with
     *                             as many again waiting in copies is disconnected
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

    /**
     * serviceName: checked when set; blank means srqName (else the endpoint class's name, decided at
     * activation), so blank is returned as "".
     *
     * @param listening where the activation listens; null: it publishes nothing
     * @return the service name, "" for the default, or null when nothing is published
     */
    private String serviceName(InetSocketAddress listening) throws InvalidPropertyException {
        String v = serviceName == null ? "" : serviceName.trim();
        if (!v.isEmpty() && !ServiceEndpoint.isName(v)) {
            throw CHECK.invalid("serviceName", "serviceName must be " + ServiceEndpoint.NAME_RULE + " (empty: srqName), got '"
                    + v + "'");
        }
        return listening == null ? null : v;
    }

    /** @return the resource adapter's service directory, or one of this JVM when there is no adapter */
    private ServiceDirectory directory() {
        return resourceAdapter instanceof ServiceDirectory.Source source ? source.serviceDirectory()
                : new LocalServiceDirectory("localhost");
    }

    /** @return clusterSingleton */
    private boolean singleton() throws InvalidPropertyException {
        return CHECK.oneOf("clusterSingleton", clusterSingleton, java.util.List.of(Boolean.TRUE, Boolean.FALSE), String::valueOf);
    }

    /**
     * singletonPolicy: empty for the server's default policy; a policy's name (letters, digits, '-', '_')
     * only with clusterSingleton=true.
     */
    private String singletonPolicy() throws InvalidPropertyException {
        String v = singletonPolicy == null ? "" : singletonPolicy.trim();
        if (v.isEmpty()) {
            return v;
        }
        if (!v.matches("[A-Za-z0-9_-]{1,128}")) {
            throw CHECK.invalid("singletonPolicy", "singletonPolicy must be 1 to 128 letters, digits, '-' or '_' (a "
                    + "singleton policy's name; empty: the default policy), got '" + v + "'");
        }
        if (!singleton()) {
            throw CHECK.invalid("singletonPolicy", "singletonPolicy '" + v + "' needs clusterSingleton=true");
        }
        return v;
    }

    /** @return the resource adapter's singleton election, or this node only when there is no adapter */
    private SingletonElection election() {
        return resourceAdapter instanceof SingletonElection.Source source ? source.singletonElection()
                : new LocalSingletonElection();
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

    /** The prefix of a connectTo that names a service. */
    private static final String SERVICE_PREFIX = "service:";

    /** connectTo=service:NAME: the service name, checked; null for host:port or empty. */
    private String connectService() throws InvalidPropertyException {
        String v = connectTo == null ? "" : connectTo.trim();
        if (!v.startsWith(SERVICE_PREFIX)) {
            return null;
        }
        String name = v.substring(SERVICE_PREFIX.length());
        if (!ServiceEndpoint.isName(name)) {
            throw CHECK.invalid("connectTo", "connectTo=service:NAME needs NAME of " + ServiceEndpoint.NAME_RULE
                    + ", got '" + v + "'");
        }
        return name;
    }

    /** connectTo: empty or service:NAME (null), or host:port ([v6-address]:port) of a listener, resolved now. */
    private InetSocketAddress remote() throws InvalidPropertyException {
        String v = connectTo == null ? "" : connectTo.trim();
        if (v.isEmpty() || v.startsWith(SERVICE_PREFIX)) {
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

    /** @return the text of {@link SrqProperty#RECOVERY_INITIAL_DELAY} */
    public String getRecoveryInitialDelay() {
        return recoveryInitialDelay;
    }

    /**
     * @param recoveryInitialDelay the text of {@link SrqProperty#RECOVERY_INITIAL_DELAY} (its type, range, default and meaning)
     */
    public void setRecoveryInitialDelay(String recoveryInitialDelay) {
        this.recoveryInitialDelay = recoveryInitialDelay;
    }

    /** @return the text of {@link SrqProperty#RECOVERY_MAX_DELAY} */
    public String getRecoveryMaxDelay() {
        return recoveryMaxDelay;
    }

    /**
     * @param recoveryMaxDelay the text of {@link SrqProperty#RECOVERY_MAX_DELAY} (its type, range, default and meaning)
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

    /** @return the text of {@link SrqProperty#PROVIDER} */
    public String getProvider() {
        return provider;
    }

    /**
     * @param provider the text of {@link SrqProperty#PROVIDER} (its type, range, default and meaning)
     */
    public void setProvider(String provider) {
        this.provider = provider;
    }

    /** @return the text of {@link SrqProperty#DEVICE} */
    public String getDevice() {
        return device;
    }

    /**
     * @param device the text of {@link SrqProperty#DEVICE} (its type, range, default and meaning)
     */
    public void setDevice(String device) {
        this.device = device;
    }

    /** @return the text of {@link SrqProperty#SOFT_PROFILE} */
    public String getSoftProfile() {
        return softProfile;
    }

    /**
     * @param softProfile the text of {@link SrqProperty#SOFT_PROFILE} (its type, range, default and meaning)
     */
    public void setSoftProfile(String softProfile) {
        this.softProfile = softProfile;
    }

    /** @return the text of {@link SrqProperty#SRQ_NAME} */
    public String getSrqName() {
        return srqName;
    }

    /**
     * @param srqName the text of {@link SrqProperty#SRQ_NAME} (its type, range, default and meaning)
     */
    public void setSrqName(String srqName) {
        this.srqName = srqName;
    }

    /** @return the text of {@link SrqProperty#SRQ_MAX_WR} */
    public String getSrqMaxWr() {
        return srqMaxWr;
    }

    /**
     * @param srqMaxWr the text of {@link SrqProperty#SRQ_MAX_WR} (its type, range, default and meaning)
     */
    public void setSrqMaxWr(String srqMaxWr) {
        this.srqMaxWr = srqMaxWr;
    }

    /** @return the text of {@link SrqProperty#SRQ_MAX_SGE} */
    public String getSrqMaxSge() {
        return srqMaxSge;
    }

    /**
     * @param srqMaxSge the text of {@link SrqProperty#SRQ_MAX_SGE} (its type, range, default and meaning)
     */
    public void setSrqMaxSge(String srqMaxSge) {
        this.srqMaxSge = srqMaxSge;
    }

    /** @return the text of {@link SrqProperty#BUFFER_SIZE} */
    public String getBufferSize() {
        return bufferSize;
    }

    /**
     * @param bufferSize the text of {@link SrqProperty#BUFFER_SIZE} (its type, range, default and meaning)
     */
    public void setBufferSize(String bufferSize) {
        this.bufferSize = bufferSize;
    }

    /** @return the text of {@link SrqProperty#SRQ_LIMIT} */
    public String getSrqLimit() {
        return srqLimit;
    }

    /**
     * @param srqLimit the text of {@link SrqProperty#SRQ_LIMIT} (its type, range, default and meaning)
     */
    public void setSrqLimit(String srqLimit) {
        this.srqLimit = srqLimit;
    }

    /** @return the text of {@link SrqProperty#CQ_SIZE} */
    public String getCqSize() {
        return cqSize;
    }

    /**
     * @param cqSize the text of {@link SrqProperty#CQ_SIZE} (its type, range, default and meaning)
     */
    public void setCqSize(String cqSize) {
        this.cqSize = cqSize;
    }

    /** @return the text of {@link SrqProperty#POLL_MODE} */
    public String getPollMode() {
        return pollMode;
    }

    /**
     * @param pollMode the text of {@link SrqProperty#POLL_MODE} (its type, range, default and meaning)
     */
    public void setPollMode(String pollMode) {
        this.pollMode = pollMode;
    }

    /** @return the text of {@link SrqProperty#MAX_SEQUENTIAL_DELIVERY_FAILURES} */
    public String getMaxSequentialDeliveryFailures() {
        return maxSequentialDeliveryFailures;
    }

    /**
     * @param maxSequentialDeliveryFailures the text of {@link SrqProperty#MAX_SEQUENTIAL_DELIVERY_FAILURES} (its type, range, default and meaning)
     */
    public void setMaxSequentialDeliveryFailures(String maxSequentialDeliveryFailures) {
        this.maxSequentialDeliveryFailures = maxSequentialDeliveryFailures;
    }

    /** @return the text of {@link SrqProperty#PAUSE_TIMEOUT} */
    public String getPauseTimeout() {
        return pauseTimeout;
    }

    /**
     * @param pauseTimeout the text of {@link SrqProperty#PAUSE_TIMEOUT} (its type, range, default and meaning)
     */
    public void setPauseTimeout(String pauseTimeout) {
        this.pauseTimeout = pauseTimeout;
    }

    /** @return the text of {@link SrqProperty#REPLY_TIMEOUT} */
    public String getReplyTimeout() {
        return replyTimeout;
    }

    /**
     * @param replyTimeout the text of {@link SrqProperty#REPLY_TIMEOUT} (its type, range, default and meaning)
     */
    public void setReplyTimeout(String replyTimeout) {
        this.replyTimeout = replyTimeout;
    }

    /** @return the text of {@link SrqProperty#MAX_BATCH_SIZE} */
    public String getMaxBatchSize() {
        return maxBatchSize;
    }

    /**
     * @param maxBatchSize the text of {@link SrqProperty#MAX_BATCH_SIZE} (its type, range, default and meaning)
     */
    public void setMaxBatchSize(String maxBatchSize) {
        this.maxBatchSize = maxBatchSize;
    }

    /** @return the text of {@link SrqProperty#MAX_DELIVERY_ATTEMPTS} */
    public String getMaxDeliveryAttempts() {
        return maxDeliveryAttempts;
    }

    /**
     * @param maxDeliveryAttempts the text of {@link SrqProperty#MAX_DELIVERY_ATTEMPTS} (its type,
     *                            range, default and meaning); a failed attempt (an exception out of
     *                            the listener or before/afterDelivery, a rolled-back container
     *                            transaction) is repeated at once
     */
    public void setMaxDeliveryAttempts(String maxDeliveryAttempts) {
        this.maxDeliveryAttempts = maxDeliveryAttempts;
    }

    /** @return the text of {@link SrqProperty#DRAIN_TIMEOUT} */
    public String getDrainTimeout() {
        return drainTimeout;
    }

    /**
     * @param drainTimeout the text of {@link SrqProperty#DRAIN_TIMEOUT} (its type, range, default and meaning)
     */
    public void setDrainTimeout(String drainTimeout) {
        this.drainTimeout = drainTimeout;
    }

    /** @return the text of {@link SrqProperty#MAX_CONCURRENCY} */
    public String getMaxConcurrency() {
        return maxConcurrency;
    }

    /**
     * @param maxConcurrency the text of {@link SrqProperty#MAX_CONCURRENCY} (its type, range, default and meaning)
     */
    public void setMaxConcurrency(String maxConcurrency) {
        this.maxConcurrency = maxConcurrency;
    }

    /** @return the text of {@link SrqProperty#LISTEN} */
    public String getListen() {
        return listen;
    }

    /**
     * @param listen the text of {@link SrqProperty#LISTEN} (its type, range, default and meaning)
     */
    public void setListen(String listen) {
        this.listen = listen;
    }

    /** @return the text of {@link SrqProperty#TRAFFIC_CLASS} */
    public String getTrafficClass() {
        return trafficClass;
    }

    /**
     * @param trafficClass the text of {@link SrqProperty#TRAFFIC_CLASS} (its type, range, default and meaning)
     */
    public void setTrafficClass(String trafficClass) {
        this.trafficClass = trafficClass;
    }

    /** @return the text of {@link SrqProperty#ACK_TIMEOUT} */
    public String getAckTimeout() {
        return ackTimeout;
    }

    /**
     * @param ackTimeout the text of {@link SrqProperty#ACK_TIMEOUT} (its type, range, default and meaning)
     */
    public void setAckTimeout(String ackTimeout) {
        this.ackTimeout = ackTimeout;
    }

    /** @return the text of {@link SrqProperty#RETRY_COUNT} */
    public String getRetryCount() {
        return retryCount;
    }

    /**
     * @param retryCount the text of {@link SrqProperty#RETRY_COUNT} (its type, range, default and meaning)
     */
    public void setRetryCount(String retryCount) {
        this.retryCount = retryCount;
    }

    /** @return the text of {@link SrqProperty#RNR_RETRY_COUNT} */
    public String getRnrRetryCount() {
        return rnrRetryCount;
    }

    /**
     * @param rnrRetryCount the text of {@link SrqProperty#RNR_RETRY_COUNT} (its type, range, default and meaning)
     */
    public void setRnrRetryCount(String rnrRetryCount) {
        this.rnrRetryCount = rnrRetryCount;
    }

    /** @return the text of {@link SrqProperty#LISTEN_ADDRESS} */
    public String getListenAddress() {
        return listenAddress;
    }

    /**
     * @param listenAddress the text of {@link SrqProperty#LISTEN_ADDRESS} (its type, range, default and meaning)
     */
    public void setListenAddress(String listenAddress) {
        this.listenAddress = listenAddress;
    }

    /** @return the text of {@link SrqProperty#LISTEN_PORT} */
    public String getListenPort() {
        return listenPort;
    }

    /**
     * @param listenPort the text of {@link SrqProperty#LISTEN_PORT} (its type, range, default and meaning)
     */
    public void setListenPort(String listenPort) {
        this.listenPort = listenPort;
    }

    /** @return the text of {@link SrqProperty#CLUSTER_SINGLETON} */
    public String getClusterSingleton() {
        return clusterSingleton;
    }

    /**
     * @param clusterSingleton the text of {@link SrqProperty#CLUSTER_SINGLETON} (its type, range, default and meaning)
     */
    public void setClusterSingleton(String clusterSingleton) {
        this.clusterSingleton = clusterSingleton;
    }

    /** @return the text of {@link SrqProperty#SINGLETON_POLICY} */
    public String getSingletonPolicy() {
        return singletonPolicy;
    }

    /**
     * @param singletonPolicy the text of {@link SrqProperty#SINGLETON_POLICY} (its type, range, default and meaning)
     */
    public void setSingletonPolicy(String singletonPolicy) {
        this.singletonPolicy = singletonPolicy;
    }

    /** @return the text of {@link SrqProperty#SERVICE_NAME} */
    public String getServiceName() {
        return serviceName;
    }

    /**
     * @param serviceName the text of {@link SrqProperty#SERVICE_NAME} (its type, range, default and meaning)
     */
    public void setServiceName(String serviceName) {
        this.serviceName = serviceName;
    }

    /** @return the text of {@link SrqProperty#INITIAL_FILL} */
    public String getInitialFill() {
        return initialFill;
    }

    /**
     * @param initialFill the text of {@link SrqProperty#INITIAL_FILL} (its type, range, default and meaning)
     */
    public void setInitialFill(String initialFill) {
        this.initialFill = initialFill;
    }

    /** @return the text of {@link SrqProperty#REPLENISH_POLICY} */
    public String getReplenishPolicy() {
        return replenishPolicy;
    }

    /**
     * @param replenishPolicy the text of {@link SrqProperty#REPLENISH_POLICY} (its type, range, default and meaning)
     */
    public void setReplenishPolicy(String replenishPolicy) {
        this.replenishPolicy = replenishPolicy;
    }

    /** @return the text of {@link SrqProperty#REPLY_BUFFER_SIZE} */
    public String getReplyBufferSize() {
        return replyBufferSize;
    }

    /**
     * @param replyBufferSize the text of {@link SrqProperty#REPLY_BUFFER_SIZE} (its type, range, default and meaning)
     */
    public void setReplyBufferSize(String replyBufferSize) {
        this.replyBufferSize = replyBufferSize;
    }

    /** @return the text of {@link SrqProperty#CONNECT_TO} */
    public String getConnectTo() {
        return connectTo;
    }

    /**
     * @param connectTo the text of {@link SrqProperty#CONNECT_TO} (its type, range, default and meaning)
     */
    public void setConnectTo(String connectTo) {
        this.connectTo = connectTo;
    }

    /** @return the text of {@link SrqProperty#CONNECT_COUNT} */
    public String getConnectCount() {
        return connectCount;
    }

    /**
     * @param connectCount the text of {@link SrqProperty#CONNECT_COUNT} (its type, range, default and meaning)
     */
    public void setConnectCount(String connectCount) {
        this.connectCount = connectCount;
    }

    /** @return the text of {@link SrqProperty#RECONNECT_INTERVAL} */
    public String getReconnectInterval() {
        return reconnectInterval;
    }

    /**
     * @param reconnectInterval the text of {@link SrqProperty#RECONNECT_INTERVAL} (its type, range, default and meaning)
     */
    public void setReconnectInterval(String reconnectInterval) {
        this.reconnectInterval = reconnectInterval;
    }

    /** @return the text of {@link SrqProperty#ALLOWED_PEERS} */
    public String getAllowedPeers() {
        return allowedPeers;
    }

    /**
     * @param allowedPeers the text of {@link SrqProperty#ALLOWED_PEERS} (its type, range, default and meaning)
     */
    public void setAllowedPeers(String allowedPeers) {
        this.allowedPeers = allowedPeers;
    }

    /** @return the text of {@link SrqProperty#MAX_CONNECTIONS} */
    public String getMaxConnections() {
        return maxConnections;
    }

    /**
     * @param maxConnections the text of {@link SrqProperty#MAX_CONNECTIONS} (its type, range, default and meaning)
     */
    public void setMaxConnections(String maxConnections) {
        this.maxConnections = maxConnections;
    }

    /** @return the text of {@link SrqProperty#MAX_CONNECTIONS_PER_PEER} */
    public String getMaxConnectionsPerPeer() {
        return maxConnectionsPerPeer;
    }

    /**
     * @param maxConnectionsPerPeer the text of {@link SrqProperty#MAX_CONNECTIONS_PER_PEER} (its type, range, default and meaning)
     */
    public void setMaxConnectionsPerPeer(String maxConnectionsPerPeer) {
        this.maxConnectionsPerPeer = maxConnectionsPerPeer;
    }

    /** @return the text of {@link SrqProperty#CONNECT_RATE_LIMIT} */
    public String getConnectRateLimit() {
        return connectRateLimit;
    }

    /**
     * @param connectRateLimit the text of {@link SrqProperty#CONNECT_RATE_LIMIT} (its type, range, default and meaning)
     */
    public void setConnectRateLimit(String connectRateLimit) {
        this.connectRateLimit = connectRateLimit;
    }

    /** @return the text of {@link SrqProperty#AUTH_KEY} */
    public String getAuthKey() {
        return authKey;
    }

    /**
     * @param authKey the text of {@link SrqProperty#AUTH_KEY} (its type, range, default and meaning)
     */
    public void setAuthKey(String authKey) {
        this.authKey = authKey;
    }

    /** @return the text of {@link SrqProperty#TOKEN_MAX_AGE} */
    public String getTokenMaxAge() {
        return tokenMaxAge;
    }

    /**
     * @param tokenMaxAge the text of {@link SrqProperty#TOKEN_MAX_AGE} (its type, range, default and meaning)
     */
    public void setTokenMaxAge(String tokenMaxAge) {
        this.tokenMaxAge = tokenMaxAge;
    }
}
