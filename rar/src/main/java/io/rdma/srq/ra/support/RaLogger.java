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
 *   <li>1–99: adapter and activation lifecycle, device and provider choice (50–59: the device
 *       chosen, listeners, fabric settings)</li>
 *   <li>100–199: outbound pooled connections, peers, request/reply</li>
 *   <li>200–299: admission control (who may connect)</li>
 *   <li>300–399: inbound delivery (redelivery, dead letters, drain at stop)</li>
 *   <li>400–499: faults and recovery (device loss, link events)</li>
 *   <li>500–599: services and the cluster (publications, calls by service name, failover)</li>
 * </ul>
 */
@MessageLogger(projectCode = "SRQRA", length = 4)
public interface RaLogger extends BasicLogger {

    /**
     * The end of a rate-limited line ({@link RateLimitedLog}): how many lines like it were not written
     * since the previous one, and the least time between two.
     */
    String NOT_LOGGED = " (%d more like it not logged since the previous one; at most one such line every %d s)";

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

    @LogMessage(level = Logger.Level.ERROR)
    @Message(id = 5, value = "%s: using the default, %d")
    void badSystemProperty(String problem, long defaultValue);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 6, value = "adapter stop: %s failed; the other steps ran")
    void stopStepFailed(@Cause Throwable cause, String step);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 50, value = "%s: device %s, chosen %s")
    void deviceChosen(String who, String device, String why);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 51, value = "%s: no device named and provider %s lists %s: took %s, the first by name; name one "
            + "with the device property (a name, an interface address, or gid:<GID>)")
    void deviceNotNamed(String who, String provider, Object devices, String chosen);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 52, value = "%s: fabric settings %s; a peer that stops answering is seen after about %s")
    void fabricSettings(String who, Object settings, String deadPeer);

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
    @Message(id = 104, value = "servicing %s failed" + NOT_LOGGED)
    void servicingFailed(@Cause Throwable cause, Object managedConnection, long notLogged, long intervalSeconds);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 105, value = "peer %s on pooled SRQ '%s': a receive completed with %s, its QP is in the error state; waiting calls fail with EIO, the next connect re-establishes it" + NOT_LOGGED)
    void peerReceiveError(Object remote, String srq, String status, long notLogged, long intervalSeconds);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 106, value = "refilling pooled SRQ '%s' on %s failed" + NOT_LOGGED)
    void refillFailed(@Cause Throwable cause, String srq, String device, long notLogged, long intervalSeconds);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 107, value = "%d unsolicited message(s) from %s were not taken with receive() by the pooled connection's last user: discarded (counted), so its next user does not get them")
    void unsolicitedDiscarded(int count, Object remote);

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
            + "SrqDeadLetter fired" + NOT_LOGGED)
    void deadLettered(@Cause Throwable lastFailure, String activation, long connectionId, int attempts, long notLogged,
                      long intervalSeconds);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 309, value = "activation %s: an SrqDeadLetter observer failed" + NOT_LOGGED)
    void deadLetterObserverFailed(@Cause Throwable cause, String activation, long notLogged, long intervalSeconds);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 310, value = "activation %s: cannot schedule a delivery; running it on the poller" + NOT_LOGGED)
    void deliveryNotScheduled(@Cause Throwable cause, String activation, long notLogged, long intervalSeconds);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 311, value = "activation %s: connection %d to %s failed (trying again every %d ms): %s")
    void connectFailed(String activation, int slot, Object remote, long intervalMs, String reason);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 312, value = "activation %s: refusing the connection request of %s: %s" + NOT_LOGGED)
    void connectRefused(String activation, Object remote, String reason, long notLogged, long intervalSeconds);

    // 313 (IBV_EVENT_DEVICE_FATAL: no more messages will arrive) is retired: an activation recovers (400–).

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
    @Message(id = 210, value = "activation %s: closed the accepted connection from %s on QP %d before it was "
            + "established: %s (%d more in the last %d s not logged; all are counted as halfOpenReaped)")
    void halfOpenReaped(String activation, java.net.InetSocketAddress peer, int qpNum, String why, long suppressed,
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
    @Message(id = 203, value = "activation %s: QP %d was accepted again while it still counted as a connection from "
            + "%s, whose close the activation missed; that connection's slot is freed and the QP counts for %s")
    void closeMissed(String activation, int qpNum, Object stalePeer, Object peer);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 315, value = "activation %s: %d messages in a row failed every delivery attempt; delivery paused "
            + "(%d ms, 0: until resumed); completions wait in the CQ, senders see RNR backpressure")
    void deliveryPaused(String activation, int consecutive, long timeoutMs);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 316, value = "activation %s: delivery resumed")
    void deliveryResumed(String activation);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 317, value = "activation %s: delivery paused by management until resumed; completions wait in the "
            + "CQ, senders see RNR backpressure")
    void deliveryHeld(String activation);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 318, value = "activation %s: drained by management within %d ms: %d delivered, %d undelivered; it "
            + "accepts and delivers nothing more until the endpoint is activated again")
    void drainedByManagement(String activation, long timeoutMs, long delivered, long undelivered);

    // inbound delivery, ordering and held buffers (330–339)

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 330, value = "activation %s: connection %d holds %d receive buffers (maxHeldPerConnection) and %d "
            + "further messages wait in heap copies behind its slow delivery; disconnecting it (its QP to ERROR, "
            + "rdma_disconnect): what it sent before is still delivered, in order")
    void slowConnectionDisconnected(String activation, long connectionId, int held, int copied);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 335, value = "activation %s: a receive completion the SRQ cannot have produced (%s; wr_id %d, "
            + "byte_len %s, status %s, qp_num %d): counted as an error completion, not delivered, no buffer reposted "
            + "for a wr_id that is not a posted one of the SRQ; a faulty device or driver? (%d such so far, logged "
            + "on the 1st, 2nd, 4th, 8th …)")
    void badCompletion(String activation, String why, long wrId, String byteLen, Object status, int qpNum, long count);

    // faults and recovery (400–499)

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 400, value = "activation %s: device %s lost (%s, %s); freeing its native objects and recovering "
            + "(first attempt in %d ms, backoff up to %d ms)")
    void deviceLost(String activation, String device, String what, String errno, long firstMs, long maxMs);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 401, value = "activation %s: %d message(s) acknowledged to their senders were lost with device %s: "
            + "left in the CQ or in batches not begun when the drain ended (drainTimeout %d ms); counted in "
            + "lost-at-device-loss")
    void lostAtDeviceLoss(String activation, long lost, String device, long drainTimeoutMs);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 402, value = "activation %s is ACTIVE on %s after %d attempt(s) in %d ms (was %s)")
    void activationRecovered(String activation, String device, int attempts, long elapsedMs, Object from);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 403, value = "activation %s (%s): cannot open yet: %s; trying again in %d ms, then with backoff up "
            + "to every %d ms until the device and address are there (%s: if they should be there already, check "
            + "these properties)")
    void openDeferred(String activation, Object state, String reason, long delayMs, long maxMs, String properties);

    @LogMessage(level = Logger.Level.ERROR)
    @Message(id = 404, value = "activation %s: opening failed with an error retrying cannot cure, the activation is "
            + "FAILED until redeployed: %s")
    void activationFailed(String activation, String reason);

    @LogMessage(level = Logger.Level.ERROR)
    @Message(id = 405, value = "activation %s: the WorkManager refused the Work that opens the device; the "
            + "activation is FAILED until redeployed")
    void recoveryWorkRejected(@Cause Throwable cause, String activation);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 406, value = "activation %s: no port of %s is ACTIVE (%s): RECOVERING until IBV_EVENT_PORT_ACTIVE; "
            + "the SRQ, its buffers and the listener stay, connections whose peers give up end as usual")
    void portsDown(String activation, String device, String what);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 407, value = "activation %s is ACTIVE again: port %d of %s is ACTIVE after %d ms")
    void portsUp(String activation, int port, String device, long ms);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 408, value = "activation %s: %s; RECOVERING: the run is stopped (what its CQ holds delivered "
            + "within drainTimeout, else counted undelivered) and opened again at once, then with backoff up to %d ms "
            + "(counted in loop-failures)")
    void loopDied(String activation, String what, long maxMs);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 500, value = "service directory: %s, %d member(s) seen; activations publish their endpoints there "
            + "and calls by service name read it")
    void clusterDirectoryReady(String directory, int members);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 501, value = "service directory: this JVM only (%s); calls by service name reach this server's "
            + "activations")
    void noClusterDirectory(String why);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 502, value = "activation %s: published service %s in %s")
    void servicePublished(String activation, Object endpoint, String directory);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 503, value = "activation %s: withdrew service %s; serving %d ms more before it stops accepting calls")
    void serviceWithdrawn(String activation, Object endpoint, long graceMillis);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 504, value = "activation %s: not published as a service: %s")
    void serviceNotPublished(String activation, String why);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 505, value = "service %s: provider %s failed (%s); the call goes to another provider")
    void serviceFailover(String service, Object provider, String why);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 506, value = "activation %s: a call of connection %d was refused by the endpoint before it ran (%s); "
            + "answered 'not run' to its caller, which may send it elsewhere; the service is withdrawn" + NOT_LOGGED)
    void answeredNotRun(String activation, long connectionId, String refusal, long notLogged, long seconds);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 507, value = "activation %s: connection %d moves from %s to %s (%s: a provider joined or left)")
    void connectionRebalanced(String activation, int slot, Object from, Object to, String targets);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 508, value = "singleton election: %s; activations with clusterSingleton=true deliver on this node "
            + "at once")
    void noSingletonPolicy(String why);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 509, value = "singleton %s: this node is a candidate (MSC service %s, %s); it delivers once elected")
    void singletonCandidate(String name, String service, String election);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 510, value = "singleton %s: the candidate could not be installed (%s); this node's activation stays in "
            + "STANDBY and delivers nothing")
    void singletonNotInstalled(String name, String why);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 511, value = "activation %s: elected as the primary of singleton %s; opening")
    void singletonElected(String activation, String name);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 512, value = "activation %s: no longer the primary of singleton %s (%s); stopped delivering, STANDBY")
    void singletonDeposed(String activation, String name, String why);
}
