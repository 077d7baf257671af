package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.EfaDeviceAttributes;
import io.rdma.srq.api.PortAttributes;
import io.rdma.srq.api.RegisteredMemory;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqHandle;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.api.SrqCallException;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.cluster.ServiceEndpoint;
import io.rdma.srq.ra.support.RaLogger;
import io.rdma.srq.ra.support.Teardown;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The application's connection handle. Memory registered through it is the handle's and is freed
 * when it closes (or when the container cleans the pooled connection up); SRQs and peers belong to
 * the pooled connection (its peers' calls still waiting end with ENOTCONN at close). After close
 * every method but {@link #close()} throws IllegalStateException, and so do the {@link SrqHandle}s,
 * {@link SrqPeer}s and {@link RegisteredMemory} it gave out.
 */
public final class SrqConnectionHandle implements SrqConnection {
    private volatile SrqManagedConnection mc;
    private final List<RegisteredMemoryImpl> memory = new CopyOnWriteArrayList<>();
    private final List<SrqPeerImpl> peers = new CopyOnWriteArrayList<>();
    private final List<ServicePeer> servicePeers = new CopyOnWriteArrayList<>();

    SrqConnectionHandle(SrqManagedConnection mc) {
        this.mc = mc;
    }

    SrqManagedConnection mc() {
        SrqManagedConnection m = mc;
        if (m == null) {
            throw new IllegalStateException("the SRQ connection is closed");
        }
        return m;
    }

    @Override
    public String deviceName() {
        return mc().context().deviceName();
    }

    @Override
    public String providerName() {
        return mc().context().providerName();
    }

    @Override
    public int portNumber() {
        return mc().config().port();
    }

    @Override
    public DeviceAttributes deviceAttributes() throws VerbsException {
        return mc().context().queryDevice();
    }

    @Override
    public PortAttributes portAttributes() throws VerbsException {
        SrqManagedConnection m = mc();
        return m.context().queryPort(m.config().port());
    }

    @Override
    public Optional<EfaDeviceAttributes> efaAttributes() throws VerbsException {
        return mc().context().queryEfaDevice();
    }

    @Override
    public SrqHandle openSrq(String name, SrqAttributes spec) throws VerbsException {
        return new SrqHandleImpl(this, mc().srq(name, spec));
    }

    @Override
    public RegisteredMemory registerMemory(long bytes, Set<AccessFlag> access) throws VerbsException {
        RegisteredMemoryImpl m = new RegisteredMemoryImpl(mc().pd().allocateRegistered(bytes, access), memory::remove);
        memory.add(m);
        return m;
    }

    @Override
    public SrqPeer connect(InetSocketAddress remote, Duration timeout) {
        return connect(remote, DEFAULT_SRQ, timeout);
    }

    @Override
    public SrqPeer connect(InetSocketAddress remote, String srqName, Duration timeout) {
        Objects.requireNonNull(remote, "remote");
        Objects.requireNonNull(srqName, "srqName");
        Objects.requireNonNull(timeout, "timeout");
        PeerLink link;
        try {
            link = mc().peer(remote, srqName, timeout);
        } catch (VerbsException e) {
            throw SrqCallException.ofConnect(e, remote.toString());
        }
        SrqPeerImpl p = new SrqPeerImpl(link, peers::remove);
        peers.add(p);
        return p;
    }

    @Override
    public SrqPeer connect(String service, Duration timeout) {
        Objects.requireNonNull(service, "service");
        SrqPeerImpl.checked(timeout, "connect", false);
        if (!ServiceEndpoint.isName(service)) {
            throw new IllegalArgumentException("service name '" + service + "' must be " + ServiceEndpoint.NAME_RULE);
        }
        SrqManagedConnection m = mc();
        ServicePeer p = new ServicePeer(this, service, m.factory().serviceDirectory(), m.context().providerName(),
                timeout, m.factory()::serviceFailover, servicePeers::remove);
        servicePeers.add(p);
        try {
            p.connectFirst(timeout);
        } catch (RuntimeException e) {
            p.close();
            throw e;
        }
        return p;
    }

    @Override
    public void close() {
        SrqManagedConnection m = mc;
        if (m == null) {
            return;
        }
        Teardown teardown = new Teardown();
        invalidate(teardown);
        m.closed(this);
        for (Exception e : teardown.failures()) {
            RaLogger.LOG.handleCloseFailed(m, e.getMessage());
        }
    }

    /**
     * Closes the handle's peers and memory and detaches it; later use throws IllegalStateException.
     *
     * @param teardown where failing closes are recorded
     */
    void invalidate(Teardown teardown) {
        mc = null;
        teardown.closeAll(List.copyOf(servicePeers)).closeAll(List.copyOf(peers)).closeAll(List.copyOf(memory));
        servicePeers.clear();
        peers.clear();
        memory.clear();
    }

    void associate(SrqManagedConnection target) {
        SrqManagedConnection old = mc;
        if (old != null) {
            old.detach(this);
        }
        mc = target;
        target.attach(this);
    }
}
