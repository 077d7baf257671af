package io.rdma.srq.api;

/**
 * The message listener interface of message-driven beans activated on the adapter: one call per
 * successful receive work completion of the activation's SRQ. Error completions are never
 * delivered. {@link SrqBatchListener} is the alternative taking up to maxBatchSize messages a call.
 *
 * <p>What is guaranteed: a message acknowledged to its sender is delivered, or counted
 * (ActivationStatistics {@code undelivered} when deactivation's drainTimeout passed, {@code
 * deadLettered} when every attempt failed) — never dropped unseen. With maxDeliveryAttempts 1 (the
 * default) delivery is <b>at-most-once</b>: a failed call is not repeated. With maxDeliveryAttempts
 * above 1 it is <b>at-least-once</b>: a failed call (an exception out of it, or a rolled-back
 * container transaction) is repeated until one succeeds or the attempts run out, then
 * {@link SrqDeadLetter} is fired; a listener with effects outside the container transaction may see
 * a message twice ({@link ReceiveCompletion#deliveryAttempt()} tells a redelivery). Not
 * exactly-once, and nothing is durable: receive buffers are memory, a crash loses what they hold.
 *
 * <p>Order: with activation property ordering {@code none} (the default) and maxConcurrency above
 * 1, messages of one connection may be processed concurrently and out of arrival order. With
 * {@code ordering=connection} the messages of one connection ({@link ReceiveCompletion#connectionId()})
 * are delivered in arrival order, one at a time (a redelivery before the next), different
 * connections in parallel up to maxConcurrency; a connection whose deliveries stall while the others
 * keep up is copied out of the SRQ past maxHeldPerConnection waiting messages, then disconnected,
 * so it cannot starve the others (connections merely slower than their senders get RNR
 * backpressure instead). Order across connections is never promised.
 *
 * <pre>{@code
 * @MessageDriven(activationConfig = {
 *     @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "7471"),
 *     @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "8")})
 * public class OrdersBean implements SrqReceiveListener {
 *     public void onReceive(ReceiveCompletion c) { process(c.copyPayload()); }
 * }
 * }</pre>
 */
public interface SrqReceiveListener {

    /**
     * Called for one received message. The completion and its payload view are valid only during
     * the call: the buffer is reposted to the SRQ afterwards. To use the message later or on another
     * thread, take {@link ReceiveCompletion#copy()} and/or {@link ReceiveCompletion#replyHandle()}
     * during the call. An exception thrown here is a failed
     * attempt: counted, and the message delivered again while maxDeliveryAttempts allow, then
     * dead-lettered ({@link SrqDeadLetter}); the buffer is reposted after the last attempt.
     *
     * @param completion the receive work completion
     */
    void onReceive(ReceiveCompletion completion);
}
