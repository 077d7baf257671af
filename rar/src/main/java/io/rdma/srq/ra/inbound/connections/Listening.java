package io.rdma.srq.ra.inbound.connections;

import io.rdma.srq.ra.inbound.config.InboundConfig;

import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.Teardown;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.Verbs;

import io.rdma.srq.ra.cluster.ServiceDirectory;
import io.rdma.srq.ra.cluster.ServiceEndpoint;
import io.rdma.srq.ra.support.RaLogger;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.time.Duration;
import java.util.Optional;

/**
 * Whether and where an activation listens: with {@code listen=true} (the default) an rdma_cm
 * listener on listenAddress:listenPort, held in the {@link ListenerRegistry}; with
 * {@code listen=false} (an activation that only uses {@code connectTo}) no listener, no port and no
 * connection request ever. {@link #close} closes the listener and releases the address.
 */
public final class Listening implements AutoCloseable {
    /** The listener's backlog: connection requests rdma_cm queues before the control loop takes them. */
    static final int BACKLOG = 128;
    private final AtomicBoolean withdrawn = new AtomicBoolean();
    /** System.nanoTime of the withdrawal, once {@link #withdrawn}. */
    private volatile long withdrawnAt;

    private final CmListener listener;
    private final ListenerRegistry.Claim claim;
    /** Null when not published. */
    private final Published published;

    private Listening(CmListener listener, ListenerRegistry.Claim claim, Published published) {
        this.listener = listener;
        this.claim = claim;
        this.published = published;
    }

    /** The listener's publication in the adapter's service directory. */
    private record Published(String activation, ServiceEndpoint endpoint, ServiceDirectory.Publication publication,
                             ServiceDirectory directory) {
    }

    /**
     * @param name    the activation's name (what a colliding activation's error names)
     * @param context the device
     * @param config  listenAddress (null: listen=false)
     * @return the listening, or one that does not listen
     * @throws VerbsException EADDRINUSE naming the activation that holds the address, EADDRNOTAVAIL
     *                        for an address no RDMA device has, else the errno of rdma_bind_addr / rdma_listen
     */
    public static Listening open(String name, Context context, InboundConfig config) throws VerbsException {
        if (config.listenAddress() == null) {
            return new Listening(null, null, null);
        }
        ListenerRegistry.Claim requested = ListenerRegistry.claim(config.listenAddress(), name);
        CmListener l = null;
        try {
            l = context.listen(config.listenAddress(), BACKLOG);
            ListenerRegistry.Claim claim = requested != null ? requested : ListenerRegistry.claim(l.localAddress(), name);
            try {
                return new Listening(l, claim, publish(name, context, config, l.localAddress()));
            } catch (RuntimeException e) {
                throw requested == null ? Teardown.rollback(e, claim) : e; // the outer catch releases a requested claim
            }
        } catch (VerbsException e) {
            throw Teardown.rollback(e, l, requested);
        } catch (RuntimeException e) {
            throw Teardown.rollback(e, l, requested);
        }
    }

    /**
     * Publishes the listener as the activation's service (serviceName, else the activation's name),
     * a wildcard listener at this host's address (InetAddress.getLocalHost).
     *
     * @return the publication, or null: nothing to publish, or the default name is not a service name
     * @throws IllegalArgumentException naming serviceName: the service is published on this node over
     *                                  another transport (a clash)
     */
    private static Published publish(String name, Context context, InboundConfig config, InetSocketAddress bound) {
        if (config.serviceName() == null) {
            return null;
        }
        String service = config.serviceName().isEmpty() ? name : config.serviceName();
        if (!ServiceEndpoint.isName(service)) {
            RaLogger.LOG.serviceNotPublished(name, "its name '" + service + "' is not a service name ("
                    + ServiceEndpoint.NAME_RULE + "); set serviceName to publish it");
            return null;
        }
        InetSocketAddress reachable = bound;
        if (bound.getAddress().isAnyLocalAddress() && Verbs.SOFT.equals(context.providerName())) {
            // the soft device is in-process: only this JVM reaches it, at any address it bound
            reachable = new InetSocketAddress(InetAddress.getLoopbackAddress(), bound.getPort());
        } else if (bound.getAddress().isAnyLocalAddress()) {
            try {
                reachable = new InetSocketAddress(InetAddress.getLocalHost(), bound.getPort());
            } catch (UnknownHostException e) {
                RaLogger.LOG.serviceNotPublished(name, "it listens on every address and this host's address is unknown ("
                        + e.getMessage() + "); set listenAddress to publish it");
                return null;
            }
        }
        ServiceEndpoint endpoint = new ServiceEndpoint(service, context.providerName(), reachable);
        ServiceDirectory directory = config.directory();
        ServiceDirectory.Publication p;
        try {
            p = directory.publish(endpoint);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("serviceName: " + e.getMessage(), e);
        }
        RaLogger.LOG.servicePublished(name, endpoint, directory.describe());
        return new Published(name, endpoint, p, directory);
    }

    /**
     * Withdraws the publication, if any (the first call), and with {@code wait} keeps serving until
     * the directory's {@link ServiceDirectory#withdrawGrace} has passed since the withdrawal, so that
     * no caller routes a call here after the listener stops. Idempotent: a withdrawal made without
     * waiting (the endpoint refused a delivery: the MDB is stopping) is waited out by a later call
     * with {@code wait} (the deactivation's), meanwhile refused calls are answered "not run".
     *
     * @param wait whether to wait (false when nothing can be served any more: a lost device, or now)
     */
    public void withdraw(boolean wait) {
        if (published == null) {
            return;
        }
        long at;
        synchronized (withdrawn) {
            if (withdrawn.compareAndSet(false, true)) {
                withdrawnAt = System.nanoTime();
                published.publication().close();
                RaLogger.LOG.serviceWithdrawn(published.activation(), published.endpoint(),
                        published.directory().withdrawGrace(published.endpoint().service()).toMillis());
            }
            at = withdrawnAt;
        }
        if (!wait) {
            return;
        }
        long until = at + published.directory().withdrawGrace(published.endpoint().service()).toNanos();
        long left = until - System.nanoTime();
        if (left > 0) {
            try {
                Thread.sleep(Duration.ofNanos(left));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** {@return the published endpoint, or null when the listener is not published (or withdrawn)} */
    public ServiceEndpoint publishedEndpoint() {
        return published == null || withdrawn.get() ? null : published.endpoint();
    }

    /** @return whether it listens */
    boolean listens() {
        return listener != null;
    }

    /** @return the bound address (the port chosen for port 0), or null when it does not listen */
    public InetSocketAddress localAddress() {
        return listener == null ? null : listener.localAddress();
    }

    /** @return the bound address as the start line shows it, or {@code no address (listen=false)} */
    public String describe() {
        return listener == null ? "no address (listen=false)" : String.valueOf(listener.localAddress());
    }

    /**
     * The listener's next event; without a listener a wait of {@code timeout} that returns empty,
     * so the control loop keeps its pace.
     *
     * @param timeout the longest wait
     * @return the event, or empty
     * @throws VerbsException as {@link CmListener#nextEvent}
     */
    Optional<CmEvent> nextEvent(Duration timeout) throws VerbsException {
        if (listener != null) {
            return listener.nextEvent(timeout);
        }
        try {
            Thread.sleep(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Optional.empty();
    }

    /**
     * Withdraws the publication (without waiting, if {@link #withdraw} did not run), closes the
     * listener (and every accepted connection id) and releases the address, quietly.
     */
    @Override
    public void close() {
        withdraw(false);
        Teardown.quietly(listener);
        if (claim != null) {
            claim.close();
        }
    }
}
