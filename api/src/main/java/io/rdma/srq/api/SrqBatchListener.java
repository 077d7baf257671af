package io.rdma.srq.api;

import java.util.List;

/**
 * The batch message listener interface: a message-driven bean may implement it instead of
 * {@link SrqReceiveListener} to get up to {@code maxBatchSize} messages (activation property,
 * 1..32, default 32) in one call, with one beforeDelivery / afterDelivery — so one container
 * transaction under CMT {@code REQUIRED} — per batch rather than per message. A batch holds
 * messages of one poll of the CQ, in the order they completed.
 *
 * <p>Each completion is valid during the call only, as for {@link SrqReceiveListener}. Failures:
 * <ul>
 *   <li>throw {@link SrqBatchFailure} naming the index of the message that failed: the messages
 *       before it count as delivered, that one as a failed attempt (redelivered alone, then
 *       dead-lettered when maxDeliveryAttempts run out), the ones after it are delivered in a
 *       further batch call;</li>
 *   <li>any other exception, or a rolled-back container transaction: the adapter cannot tell the
 *       good messages from the bad, so it delivers the batch again one message at a time (each a
 *       singleton batch with its own maxDeliveryAttempts), which isolates the failing one; a good
 *       message is never dead-lettered because of another. Under CMT a rollback undoes the whole
 *       batch's transactional work, so the one-by-one retry redoes it; without a transaction, an
 *       application that must not see a message twice reports the index instead.</li>
 * </ul>
 * A no-op implementation is a valid MDB:
 * <pre>{@code
 * @MessageDriven(activationConfig = {
 *     @ActivationConfigProperty(propertyName = "maxBatchSize", propertyValue = "32")})
 * public class CountingBean implements SrqBatchListener {
 *     public void onReceive(List<ReceiveCompletion> batch) { }
 * }
 * }</pre>
 */
public interface SrqBatchListener {

    /**
     * Called for up to maxBatchSize received messages.
     *
     * @param batch the messages, 1..maxBatchSize, in completion order; the list and its completions
     *              are valid only during the call
     * @throws SrqBatchFailure to report which message failed
     */
    void onReceive(List<ReceiveCompletion> batch);
}
