package io.rdma.srq.api;

/**
 * The message listener interface of message-driven beans activated on the adapter: one call per
 * successful receive work completion of the activation's SRQ, exactly once per message. Error
 * completions are never delivered.
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
     * the call: the buffer is reposted to the SRQ afterwards. An exception thrown here is counted and
     * logged; the buffer is still reposted and the message is not redelivered.
     *
     * @param completion the receive work completion
     */
    void onReceive(ReceiveCompletion completion);
}
