package io.rdma.srq.ra.inbound.events;

/**
 * Where the adapter's application events go ({@link io.rdma.srq.api.SrqLimitReached},
 * {@link io.rdma.srq.api.SrqDeadLetter}): CDI in a container ({@link CdiEventSink}), a recorder in
 * tests.
 */
@FunctionalInterface
public interface EventSink {

    /**
     * @param event       the event
     * @param classLoader the activating application's class loader, to be the thread context class
     *                    loader while observers run
     */
    void fire(Object event, ClassLoader classLoader);
}
