package io.rdma.srq.ra.inbound.connections;

import io.rdma.srq.ra.inbound.config.InboundConfig;

import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.Teardown;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.Context;

import java.net.InetSocketAddress;
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

    private final CmListener listener;
    private final ListenerRegistry.Claim claim;

    private Listening(CmListener listener, ListenerRegistry.Claim claim) {
        this.listener = listener;
        this.claim = claim;
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
            return new Listening(null, null);
        }
        ListenerRegistry.Claim requested = ListenerRegistry.claim(config.listenAddress(), name);
        CmListener l = null;
        try {
            l = context.listen(config.listenAddress(), BACKLOG);
            ListenerRegistry.Claim claim = requested != null ? requested : ListenerRegistry.claim(l.localAddress(), name);
            return new Listening(l, claim);
        } catch (VerbsException e) {
            throw Teardown.rollback(e, l, requested);
        } catch (RuntimeException e) {
            throw Teardown.rollback(e, l, requested);
        }
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

    /** Closes the listener (and every accepted connection id) and releases the address, quietly. */
    @Override
    public void close() {
        Teardown.quietly(listener);
        if (claim != null) {
            claim.close();
        }
    }
}
