package io.rdma.srq.verbs;

import io.rdma.srq.api.AsyncEventType;

import java.util.Optional;

/**
 * A copy of an asynchronous event (ibv_get_async_event(3)), taken and acknowledged
 * (ibv_ack_async_event) at once, so that no destroy ever waits for an unacknowledged event.
 *
 * @param type    the event type
 * @param element the CQ, QP or SRQ it names (the Java object this context created), or
 *                {@code null} for port and device events or an object already closed
 * @param portNum the port for port events, else 0
 */
public record AsyncEvent(AsyncEventType type, VerbsObject element, int portNum) {

    /**
     * {@return the element if it is of that kind}
     *
     * @param kind the expected element class, e.g. {@code SharedReceiveQueue.class}
     * @param <T>  that class
     */
    public <T extends VerbsObject> Optional<T> element(Class<T> kind) {
        return kind.isInstance(element) ? Optional.of(kind.cast(element)) : Optional.empty();
    }
}
