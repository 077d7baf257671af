package io.rdma.srq.ra.inbound.events;

import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.spi.CDI;
import org.jboss.logging.Logger;

/**
 * Fires an adapter event ({@link io.rdma.srq.api.SrqLimitReached}, {@link io.rdma.srq.api.SrqDeadLetter})
 * to the activating application's observers, synchronous ({@code @Observes}) and asynchronous
 * ({@code @ObservesAsync}), with the application's class loader as thread context class loader
 * ({@code CDI.current()} picks the container by it).
 */
public final class CdiEventSink implements EventSink {
    private static final Logger LOG = Logger.getLogger(CdiEventSink.class);

    @Override
    public void fire(Object event, ClassLoader classLoader) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(classLoader);
        try {
            Event<Object> events = CDI.current().getBeanManager().getEvent(); // observers resolve by the runtime type
            events.fire(event);
            events.fireAsync(event);
        } catch (IllegalStateException | UnsupportedOperationException noCdi) {
            LOG.debugf("no CDI container for %s: %s", event, noCdi.getMessage());
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
