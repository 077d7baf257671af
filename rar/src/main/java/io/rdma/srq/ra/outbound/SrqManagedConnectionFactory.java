package io.rdma.srq.ra.outbound;

import io.rdma.srq.ra.cluster.LocalServiceDirectory;
import io.rdma.srq.ra.cluster.ServiceDirectory;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.ra.management.DefinitionDirectory;
import io.rdma.srq.ra.management.DefinitionView;
import io.rdma.srq.ra.management.DeviceState;
import io.rdma.srq.ra.management.FigureStatistics;
import io.rdma.srq.ra.management.StatisticsTable;
import io.rdma.srq.ra.support.PooledConnectionRegistry;
import io.rdma.srq.ra.support.FabricProperties;
import io.rdma.srq.ra.support.PropertyCheck;
import io.rdma.srq.ra.support.SrqProperty;
import io.rdma.srq.ra.support.admission.AuthKey;
import io.rdma.srq.ra.support.admission.KeyRing;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.ConnectionDefinition;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterAssociation;
import jakarta.resource.spi.TransactionSupport;
import jakarta.resource.spi.ValidatingManagedConnectionFactory;
import org.jboss.jca.core.spi.statistics.Statistics;
import org.jboss.jca.core.spi.statistics.StatisticsPlugin;

import javax.security.auth.Subject;
import java.io.PrintWriter;
import java.io.Serial;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Creates the pooled connections: each opens a device context, allocates a protection domain and
 * keeps a pool of named SRQs. The container pools them; matching is by configuration (one
 * factory = one configuration). Properties are text, checked with messages that name the property
 * and its range; device limits are checked when the device is opened. Each property's type, range,
 * default and meaning are declared once, in {@link SrqProperty} ({@link SrqProperty.Side#CONNECTION_DEFINITION}). Its statistics
 * ({@link StatisticsTable#DEFINITION}: device state, open connections, SRQs) are WildFly's
 * {@code .../connection-definitions=C/statistics=extended}, beside IronJacamar's {@code statistics=pool}.
 */
@ConnectionDefinition(connectionFactory = SrqConnectionFactory.class,
        connectionFactoryImpl = SrqConnectionFactoryImpl.class,
        connection = SrqConnection.class,
        connectionImpl = SrqConnectionHandle.class)
public class SrqManagedConnectionFactory implements ManagedConnectionFactory, ResourceAdapterAssociation,
        TransactionSupport, Statistics, ValidatingManagedConnectionFactory {
    @Serial
    private static final long serialVersionUID = 1L;
    private static final PropertyCheck CHECK = new PropertyCheck(SrqManagedConnectionFactory.class);

    @ConfigProperty(defaultValue = "auto", description = "verbs provider: auto (ibverbs when a device exists, else the soft device), ibverbs, soft, or fabric (libfabric's tcp: two servers without RDMA); allowed: auto, ibverbs, soft, fabric")
    private String provider = d(SrqProperty.PROVIDER);
    @ConfigProperty(defaultValue = "", description = "the device, by name, by its interface's address or by a GID (docs/configuration.md, Which device); empty: the soft profile's device, or the first ibverbs device by name; allowed: a device name, an IP address of its interface, gid:GID, or empty")
    private String device = d(SrqProperty.DEVICE);
    @ConfigProperty(defaultValue = "rxe", description = "the soft device's profile (efa opens, but has no SRQs: openSrq / connect fail with EOPNOTSUPP); allowed: rxe, mlx5, efa")
    private String softProfile = d(SrqProperty.SOFT_PROFILE);
    @ConfigProperty(defaultValue = "1", description = "the device's port number; allowed: 1..phys_port_cnt")
    private String port = d(SrqProperty.PORT);
    @ConfigProperty(defaultValue = "1024", description = "max_wr of the SRQ (a connection definition's: the SRQ default that connect attaches peers to); allowed: 1..max_srq_wr")
    private String srqMaxWr = d(SrqProperty.SRQ_MAX_WR);
    @ConfigProperty(defaultValue = "1", description = "max_sge of the SRQ; allowed: 1..max_srq_sge")
    private String srqMaxSge = d(SrqProperty.SRQ_MAX_SGE);
    @ConfigProperty(defaultValue = "0", description = "srq_limit, the low watermark that fires SrqLimitReached; 0: not armed; allowed: 0..srqMaxWr − 1")
    private String srqLimit = d(SrqProperty.SRQ_LIMIT);
    @ConfigProperty(defaultValue = "4096", description = "bytes per receive buffer of every pooled SRQ (srqMaxWr × this at most 16 GiB); a longer reply fails its peer with EIO; allowed: 1..1073741824")
    private String receiveBufferSize = d(SrqProperty.RECEIVE_BUFFER_SIZE);

    @ConfigProperty(defaultValue = "4096", description = "the largest message sent to a peer (SrqConnection.connect); allowed: 1..16777216")
    private String sendBufferSize = d(SrqProperty.SEND_BUFFER_SIZE);

    @ConfigProperty(defaultValue = "", description = "the keys whose token is presented on connect (the first) and, on an activation, accepted; empty: none; allowed: aliases of the adapter's authKeys, comma-separated, or empty")
    private String authKey = d(SrqProperty.AUTH_KEY);

    @ConfigProperty(defaultValue = "", description = "TOS / traffic class of the QPs' packets (RoCE v2: DSCP × 4 + ECN); empty: rdma_cm's; allowed: 0..255")
    private String trafficClass = d(SrqProperty.TRAFFIC_CLASS);
    @ConfigProperty(defaultValue = "14", description = "ACK timeout exponent: 4.096 µs × 2^n (14: 67.1 ms); allowed: 1..31")
    private String ackTimeout = d(SrqProperty.ACK_TIMEOUT);
    @ConfigProperty(defaultValue = "6", description = "transport retries after an ACK timeout (rxe retries forever with 7); allowed: 0..7")
    private String retryCount = d(SrqProperty.RETRY_COUNT);
    @ConfigProperty(defaultValue = "7", description = "retries after an RNR NAK (the peer's SRQ empty); 7: forever; allowed: 0..7")
    private String rnrRetryCount = d(SrqProperty.RNR_RETRY_COUNT);

    private transient ResourceAdapter resourceAdapter;
    /** The directory of a definition without a resource adapter: nothing publishes into it. */
    private static final ServiceDirectory NO_ADAPTER = new LocalServiceDirectory("localhost");
    /** Calls by service name that went to another provider (ServicePeer). */
    private final transient java.util.concurrent.atomic.LongAdder serviceFailovers = new java.util.concurrent.atomic.LongAdder();
    private transient ReceiveService receiveService;
    private transient PrintWriter logWriter;
    private final AtomicBoolean deviceLogged = new AtomicBoolean();
    private final FigureStatistics<DefinitionView> statistics =
            new FigureStatistics<>(StatisticsTable.DEFINITION, () -> Optional.of(definitionView()));

    /** @return the parsed configuration @throws ResourceException naming a bad property and its range */
    public SrqConfig config() throws ResourceException {
        return SrqConfig.parse(CHECK, provider, device, softProfile, port, srqMaxWr, srqMaxSge, srqLimit,
                sendBufferSize, receiveBufferSize, trafficClass, ackTimeout, retryCount, rnrRetryCount);
    }

    /** @return the servicing loop of this connection definition's pooled connections */
    synchronized ReceiveService receiveService() {
        if (receiveService == null) {
            receiveService = new ReceiveService("srq-outbound-" + Integer.toHexString(System.identityHashCode(this)));
        }
        return receiveService;
    }

    /**
     * {@return the keys of authKey (the first is presented on connect), empty for none}
     *
     * @throws InvalidPropertyException naming authKey for an unknown alias or malformed authKeys
     */
    public List<AuthKey> authKeys() throws InvalidPropertyException {
        try {
            KeyRing ring = resourceAdapter instanceof KeyRing.Source source ? source.keyRing() : KeyRing.EMPTY;
            return ring.select(authKey);
        } catch (IllegalArgumentException e) {
            throw CHECK.invalid("authKey", "authKey must name keys of the resource adapter's authKeys property: "
                    + e.getMessage());
        }
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

    private static String d(SrqProperty property) {
        return property.defaultFor(SrqProperty.Side.CONNECTION_DEFINITION);
    }

    PropertyCheck check() {
        return CHECK;
    }

    /** @return true the first time only: the device the pool's connections use is logged once (SRQRA0050) */
    boolean firstOpen() {
        return deviceLogged.compareAndSet(false, true);
    }

    @Override
    public Object createConnectionFactory(ConnectionManager cm) throws ResourceException {
        SrqConfig c = config();
        FabricProperties.log("connection definition (" + c.device() + ")", c.fabric());
        authKeys();
        SrqConnectionFactoryImpl cf = new SrqConnectionFactoryImpl(this, cm);
        if (resourceAdapter != null) {
            DefinitionDirectory.bound(cf, resourceAdapter); // the rdma-srq subsystem lists those with a pool name
        }
        return cf;
    }

    @Override
    public Object createConnectionFactory() throws ResourceException {
        return createConnectionFactory(new UnmanagedConnectionManager());
    }

    @Override
    public ManagedConnection createManagedConnection(Subject subject, ConnectionRequestInfo info) throws ResourceException {
        return SrqManagedConnection.open(this, config());
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public ManagedConnection matchManagedConnections(Set candidates, Subject subject, ConnectionRequestInfo info) {
        for (Object c : candidates) {
            if (c instanceof SrqManagedConnection mc && mc.factory() == this && mc.isUsable()) {
                return mc;
            }
        }
        return null;
    }

    /**
     * The pool's background validation: the connections whose device raised a fatal event or a port
     * error, or whose port is not ACTIVE now (Jakarta Connectors 2.1, 6.5.3.5).
     *
     * @param connectionSet the pool's connections to check
     * @return the invalid ones (the pool destroys them)
     */
    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public Set getInvalidConnections(Set connectionSet) {
        Set invalid = new java.util.HashSet<>();
        for (Object c : connectionSet) {
            if (c instanceof SrqManagedConnection mc && !mc.validate()) {
                invalid.add(mc);
            }
        }
        return invalid;
    }

    @Override
    public StatisticsPlugin getStatistics() {
        return statistics;
    }

    /** A call by service name went to another provider (a failover). */
    void serviceFailover() {
        serviceFailovers.increment();
    }

    /** {@return the resource adapter's service directory (calls by service name), or this JVM's without an adapter} */
    ServiceDirectory serviceDirectory() {
        return resourceAdapter instanceof ServiceDirectory.Source source ? source.serviceDirectory() : NO_ADAPTER;
    }

    /**
     * @return the definition now: its device opened and queried (or why it cannot be), and what the
     *         pooled connections of this factory hold
     */
    DefinitionView definitionView() {
        SrqConfig c;
        try {
            c = config();
        } catch (ResourceException e) {
            return new DefinitionView(DeviceState.unavailable(provider, device, e.getMessage()), 0, 0, 0, 0, 0, 0, 0,
                    serviceFailovers.sum());
        }
        List<SrqManagedConnection> mine = resourceAdapter instanceof PooledConnectionRegistry r
                ? r.pooledConnections().stream().filter(SrqManagedConnection.class::isInstance)
                        .map(SrqManagedConnection.class::cast).filter(mc -> mc.factory() == this).toList()
                : List.of();
        return new DefinitionView(DeviceState.probe(c.device(), c.port()), mine.size(),
                mine.stream().mapToInt(SrqManagedConnection::srqCount).sum(),
                mine.stream().mapToLong(SrqManagedConnection::limitEvents).sum(),
                mine.stream().mapToInt(SrqManagedConnection::peerCount).sum(),
                mine.stream().mapToLong(SrqManagedConnection::outstandingReceives).sum(),
                mine.stream().mapToLong(SrqManagedConnection::lateReplies).sum(),
                mine.stream().mapToLong(SrqManagedConnection::peerErrors).sum(), serviceFailovers.sum());
    }

    @Override
    public TransactionSupportLevel getTransactionSupport() {
        return TransactionSupportLevel.NoTransaction;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public ResourceAdapter getResourceAdapter() {
        return resourceAdapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter ra) {
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

    /** @return the text of {@link SrqProperty#PORT} */
    public String getPort() {
        return port;
    }

    /**
     * @param port the text of {@link SrqProperty#PORT} (its type, range, default and meaning)
     */
    public void setPort(String port) {
        this.port = port;
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

    /** @return the text of {@link SrqProperty#RECEIVE_BUFFER_SIZE} */
    public String getReceiveBufferSize() {
        return receiveBufferSize;
    }

    /**
     * @param receiveBufferSize the text of {@link SrqProperty#RECEIVE_BUFFER_SIZE} (its type, range, default and meaning)
     */
    public void setReceiveBufferSize(String receiveBufferSize) {
        this.receiveBufferSize = receiveBufferSize;
    }

    /** @return the text of {@link SrqProperty#SEND_BUFFER_SIZE} */
    public String getSendBufferSize() {
        return sendBufferSize;
    }

    /**
     * @param sendBufferSize the text of {@link SrqProperty#SEND_BUFFER_SIZE} (its type, range, default and meaning)
     */
    public void setSendBufferSize(String sendBufferSize) {
        this.sendBufferSize = sendBufferSize;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SrqManagedConnectionFactory f && Objects.equals(provider, f.provider)
                && Objects.equals(device, f.device) && Objects.equals(softProfile, f.softProfile)
                && Objects.equals(port, f.port) && Objects.equals(receiveBufferSize, f.receiveBufferSize)
                && Objects.equals(srqMaxWr, f.srqMaxWr) && Objects.equals(srqMaxSge, f.srqMaxSge)
                && Objects.equals(srqLimit, f.srqLimit) && Objects.equals(sendBufferSize, f.sendBufferSize)
                && Objects.equals(authKey, f.authKey) && Objects.equals(trafficClass, f.trafficClass)
                && Objects.equals(ackTimeout, f.ackTimeout) && Objects.equals(retryCount, f.retryCount)
                && Objects.equals(rnrRetryCount, f.rnrRetryCount);
    }

    @Override
    public int hashCode() {
        return Objects.hash(provider, device, softProfile, port, receiveBufferSize, srqMaxWr, srqMaxSge, srqLimit,
                sendBufferSize, authKey);
    }
}
