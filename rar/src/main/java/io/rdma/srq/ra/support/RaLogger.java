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

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 60, value = "registered with the server's suspend controller: a suspend or graceful shutdown drains "
            + "every activation at once, before the MDBs' deactivations")
    void suspendDrainRegistered();

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 61, value = "server suspend: draining %d activation(s) at once")
    void suspendDrainStarted(int activations);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 62, value = "no server suspend controller reachable (%s): at a suspend, deactivations drain one "
            + "after another")
    void noSuspendController(String why);

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

    // ---- inbound delivery (300-399) ----

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 300, value = "activation %s: %d message(s) acknowledged to their senders were not delivered: the "
            + "drain timeout of %d ms passed at deactivation (counted as undelivered in the statistics)")
    void undeliveredAtDeactivation(String activation, long undelivered, long drainTimeoutMs);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 301, value = "activation %s: deliveries still running %d ms after the drain; the endpoints and "
            + "native objects are freed when they return")
    void deliveriesOutliveDeactivation(String activation, long boundMs);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 302, value = "activation %s: %d connection(s) could not be moved to ERROR at deactivation and were "
            + "closed at once")
    void stopArrivalsFailed(String activation, int connections);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 303, value = "activation %s on %s listening at %s%s: SRQ max_wr %d, %d buffers of %d bytes, fill %d, "
            + "limit %d")
    void activationStarted(String activation, String device, Object listenAddress, String connectTo, int srqMaxWr,
                           int buffers, int bufferSize, int fill, int srqLimit);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 304, value = "activation %s stopped: %s")
    void activationStopped(String activation, Object statistics);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 305, value = "activation %s: %d SrqLimitReached events already wait for a slow observer; the "
            + "oldest is dropped")
    void observerEventDropped(String activation, int waiting);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 306, value = "activation %s: the WorkManager refused the Work for SrqLimitReached observers")
    void observerWorkRejected(@Cause Throwable cause, String activation);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 307, value = "activation %s: an SrqLimitReached observer failed")
    void observerFailed(@Cause Throwable cause, String activation);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 308, value = "activation %s: a message of connection %d failed all %d delivery attempt(s); "
            + "SrqDeadLetter fired")
    void deadLettered(@Cause Throwable lastFailure, String activation, long connectionId, int attempts);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 309, value = "activation %s: an SrqDeadLetter observer failed")
    void deadLetterObserverFailed(@Cause Throwable cause, String activation);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 310, value = "activation %s: cannot schedule a delivery; running it on the poller")
    void deliveryNotScheduled(@Cause Throwable cause, String activation);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 311, value = "activation %s: connection %d to %s failed (trying again every %d ms): %s")
    void connectFailed(String activation, int slot, Object remote, long intervalMs, String reason);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 312, value = "activation %s: refusing the connection request of %s: %s")
    void connectRefused(String activation, Object remote, String reason);

    @LogMessage(level = Logger.Level.ERROR)
    @Message(id = 313, value = "activation %s: IBV_EVENT_DEVICE_FATAL on %s; no more messages will arrive")
    void deviceFatal(String activation, String device);

    @LogMessage(level = Logger.Level.ERROR)
    @Message(id = 314, value = "%s stopped")
    void loopFailed(@Cause Throwable cause, String loop);

    // admission control (200–299)

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 200, value = "activation %s: rejected the connect request from %s: %s (%d more of that reason "
            + "in the last %d s not logged; all are counted in the activation's statistics)")
    void connectRejected(String activation, java.net.InetSocketAddress peer, Object reason, long suppressed,
                         long intervalSeconds);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 201, value = "activation %s listens on %s with neither allowedPeers nor authKey: any host that "
            + "reaches the port can attach QPs to the SRQ and send into it; set authKey (and allowedPeers)")
    void openListener(String activation, Object listenAddress);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 202, value = "activation %s admission: allowedPeers %s, maxConnections %d, maxConnectionsPerPeer %d, "
            + "connectRateLimit %d/s, authKey %s")
    void admissionPolicy(String activation, Object allowedPeers, int maxConnections, int maxConnectionsPerPeer,
                         int connectRateLimit, Object keys);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 315, value = "activation %s: %d messages in a row failed every delivery attempt; delivery paused "
            + "(%d ms, 0: until resumed); completions wait in the CQ, senders see RNR backpressure")
    void deliveryPaused(String activation, int consecutive, long timeoutMs);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 316, value = "activation %s: delivery resumed")
    void deliveryResumed(String activation);
}
