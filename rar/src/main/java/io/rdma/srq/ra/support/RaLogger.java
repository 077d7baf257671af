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
}
