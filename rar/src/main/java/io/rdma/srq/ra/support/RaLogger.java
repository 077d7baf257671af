package io.rdma.srq.ra.support;

import org.jboss.logging.BasicLogger;
import org.jboss.logging.Logger;
import org.jboss.logging.annotations.Cause;
import org.jboss.logging.annotations.LogMessage;
import org.jboss.logging.annotations.Message;
import org.jboss.logging.annotations.MessageLogger;

/**
 * The adapter's numbered log messages ({@code SRQRA0001:} …), the convention of WildFly's own
 * subsystems: an operator searches and alerts on the id, never on the wording. jboss-logging-processor
 * generates the implementation at compile time. Ids are never reused or renumbered.
 *
 * <p>Id ranges, one per area so that parallel work never collides:
 * <ul>
 *   <li>1–99: adapter and activation lifecycle, device and provider choice</li>
 *   <li>100–199: outbound pooled connections, peers, request/reply</li>
 *   <li>200–299: admission control (who may connect)</li>
 *   <li>300–399: inbound delivery (redelivery, dead letters, drain at stop)</li>
 *   <li>400–499: faults and recovery (device loss, link events)</li>
 * </ul>
 */
@MessageLogger(projectCode = "SRQRA", length = 4)
public interface RaLogger extends BasicLogger {

    /** The adapter's one logger, category {@code io.rdma.srq.ra}. */
    RaLogger LOG = Logger.getMessageLogger(java.lang.invoke.MethodHandles.lookup(), RaLogger.class, "io.rdma.srq.ra");

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 1, value = "RDMA SRQ resource adapter started")
    void adapterStarted();

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 2, value = "RDMA SRQ resource adapter stopped")
    void adapterStopped();

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 3, value = "destroying %s at adapter stop failed")
    void destroyAtStopFailed(@Cause Throwable cause, Object managedConnection);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 4, value = "pinned memory: %s")
    void pinnedMemoryLimit(String limit);

    // outbound pooled connections, peers, request/reply (100–199)

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 100, value = "pooled connection on %s lost: %s")
    void pooledConnectionLost(String device, String reason);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 101, value = "closing the connection handle on %s: %s")
    void handleCloseFailed(Object managedConnection, String reason);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 102, value = "a call to %s timed out after %d ms and the peer never echoed a call number: its QP is closed (a late reply in order could not be told from the next call's); the next connect re-establishes it")
    void inOrderPeerTimedOut(Object remote, long timeoutMillis);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 103, value = "closing the peer connection to %s failed")
    void peerCloseFailed(@Cause Throwable cause, Object remote);

    @LogMessage(level = Logger.Level.ERROR)
    @Message(id = 104, value = "servicing %s failed")
    void servicingFailed(@Cause Throwable cause, Object managedConnection);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 105, value = "peer %s on pooled SRQ '%s': a receive completed with %s, its QP is in the error state; waiting calls fail with EIO, the next connect re-establishes it")
    void peerReceiveError(Object remote, String srq, String status);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 106, value = "refilling pooled SRQ '%s' on %s failed")
    void refillFailed(@Cause Throwable cause, String srq, String device);
}
