package io.rdma.srq.ra.inbound;

import io.rdma.srq.api.SrqLimitReached;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.spi.CDI;
import org.jboss.logging.Logger;

/**
 * Fires {@link SrqLimitReached} to the activating application's observers, synchronous
 * ({@code @Observes}) and asynchronous ({@code @ObservesAsync}), with the application's class loader
 * as thread context class loader ({@code CDI.current()} picks the container by it).
 */
public final class CdiLimitEventSink implements LimitEventSink {
    private static final Logger LOG = Logger.getLogger(CdiLimitEventSink.class);

    @Override
    public void fire(SrqLimitReached event, ClassLoader classLoader) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(classLoader);
        try {
            Event<SrqLimitReached> events = CDI.current().getBeanManager().getEvent().select(SrqLimitReached.class);
            events.fire(event);
            events.fireAsync(event);
        } catch (IllegalStateException | UnsupportedOperationException noCdi) {
            LOG.debugf("no CDI container for %s: %s", event, noCdi.getMessage());
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
