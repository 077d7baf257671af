package io.rdma.srq.ra.inbound;

import io.rdma.srq.api.SrqLimitReached;

/** Where SRQ-limit events go: CDI in a container ({@link CdiLimitEventSink}), a recorder in tests. */
@FunctionalInterface
public interface LimitEventSink {

    /**
     * @param event       the event
     * @param classLoader the activating application's class loader, to be the thread context class
     *                    loader while observers run
     */
    void fire(SrqLimitReached event, ClassLoader classLoader);
}
