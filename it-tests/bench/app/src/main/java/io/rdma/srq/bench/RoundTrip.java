package io.rdma.srq.bench;

/**
 * A request/reply transport that {@link RoundTripCaller}'s loop drives and times: JMS through the
 * embedded Artemis ({@link JmsRoundTrip}) and over pooled SRQs ({@link SrqRoundTrip}), registered
 * in {@link RoundTrips}.
 */
public interface RoundTrip {
    /** @return the case name the driver and the results use */
    String label();

    /**
     * Opens what one caller thread uses for all of its calls (JMS: a connection, a session, a
     * temporary reply queue and its consumer).
     *
     * @param size bytes per request (the responder echoes them)
     * @return the caller's session
     * @throws Exception from the transport
     */
    Caller open(int size) throws Exception;

    /** One caller thread's session; not shared between threads. */
    interface Caller extends AutoCloseable {
        /**
         * Sends one request and waits for its reply.
         *
         * @throws Exception from the transport; {@link java.util.concurrent.TimeoutException} when no
         *                   reply came within {@link RoundTrips#REPLY_TIMEOUT_MILLIS} ms
         */
        void call() throws Exception;

        @Override
        void close() throws Exception;
    }
}
