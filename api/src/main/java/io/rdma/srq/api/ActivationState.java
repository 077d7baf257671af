package io.rdma.srq.api;

/**
 * Where a message-endpoint activation is in its life. The {@link #code()} is what the statistics
 * show as the figure {@code state} (jboss-cli, {@code /metrics}); codes are never renumbered.
 *
 * <pre>
 *   STARTING ──open──▶ ACTIVE ──device loss──▶ RECOVERING ──open──▶ ACTIVE …
 *      │  ▲  (device or address missing: retried with backoff)   │
 *      └──┘                                                      └──▶ FAILED (an error that will not go away)
 *   any state ──deactivation──▶ STOPPED
 *   STANDBY ──elected──▶ STARTING/ACTIVE ──another node elected──▶ STANDBY   (clusterSingleton=true)
 *   any state but STOPPED ──drain (management)──▶ DRAINED ──deactivation──▶ STOPPED
 * </pre>
 */
public enum ActivationState {
    /** 0: the device or the listen address is not there yet; opening is retried with backoff. */
    STARTING(0),
    /** 1: every native object is open, the listener accepts and messages are delivered. */
    ACTIVE(1),
    /**
     * 2: the device was lost (IBV_EVENT_DEVICE_FATAL, IBV_EVENT_PORT_ERR with no port left ACTIVE,
     * RDMA_CM_EVENT_DEVICE_REMOVAL); the native objects are freed and opening is retried with backoff.
     */
    RECOVERING(2),
    /** 3: deactivated (undeploy, stop-delivery, adapter stop). */
    STOPPED(3),
    /** 4: opening failed with an error that retrying cannot cure (e.g. EINVAL, a device limit); redeploy. */
    FAILED(4),
    /**
     * 5: a cluster-singleton activation ({@code clusterSingleton=true}) on a node the cluster's singleton
     * policy has not elected: nothing is open and nothing delivered; it opens when this node is elected
     * (the primary left), and comes back here when another node is.
     */
    STANDBY(5),
    /**
     * 6: drained by management (the {@code rdma-srq} subsystem's {@code drain}): withdrawn, arrivals
     * stopped, what was accepted delivered or counted undelivered; it accepts and delivers nothing more
     * until the endpoint is activated again (stop-delivery and start-delivery, or a redeploy).
     */
    DRAINED(6);

    private final int code;

    ActivationState(int code) {
        this.code = code;
    }

    /** {@return the number the statistics show for this state: 0 STARTING … 4 FAILED, 5 STANDBY, 6 DRAINED} */
    public int code() {
        return code;
    }
}
