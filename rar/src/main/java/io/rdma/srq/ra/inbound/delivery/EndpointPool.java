package io.rdma.srq.ra.inbound.delivery;

import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * At most {@code size} message endpoints, created lazily from the factory and reused; the caller
 * bounds concurrent use (a semaphore of the same size), so {@link #take()} never has to wait.
 */
final class EndpointPool {
    private final MessageEndpointFactory factory;
    private final ConcurrentLinkedQueue<MessageEndpoint> idle = new ConcurrentLinkedQueue<>();
    private final List<MessageEndpoint> all = new ArrayList<>();

    EndpointPool(MessageEndpointFactory factory) {
        this.factory = factory;
    }

    MessageEndpoint take() throws UnavailableException {
        MessageEndpoint e = idle.poll();
        if (e != null) {
            return e;
        }
        MessageEndpoint created = factory.createEndpoint(null);
        synchronized (all) {
            all.add(created);
        }
        return created;
    }

    void give(MessageEndpoint e) {
        idle.offer(e);
    }

    /** A broken endpoint: released, not reused. */
    void discard(MessageEndpoint e) {
        synchronized (all) {
            all.remove(e);
        }
        e.release();
    }

    /** Releases every endpoint (deactivation, after deliveries have ended). */
    void releaseAll() {
        synchronized (all) {
            all.forEach(MessageEndpoint::release);
            all.clear();
        }
        idle.clear();
    }
}
