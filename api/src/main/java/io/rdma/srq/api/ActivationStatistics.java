package io.rdma.srq.api;

/**
 * A snapshot of one message-endpoint activation's counters ({@link SrqConnectionFactory#activationStatistics()}).
 *
 * @param srqName          the SRQ's name
 * @param device           the device
 * @param posted           receive WRs posted to the SRQ since activation
 * @param completed        receive work completions polled (success and error)
 * @param delivered        messages delivered to an endpoint (onReceive returned or threw)
 * @param undelivered      messages received (acknowledged to their sender) but never delivered: left
 *                         in the CQ or in a batch when deactivation's drain timeout passed
 * @param endpointFailures failed delivery attempts: onReceive (or before/afterDelivery) threw, or the
 *                         container transaction of the delivery rolled back
 * @param redelivered      delivery attempts after a failed one (activation property maxDeliveryAttempts)
 * @param deadLettered     messages whose every attempt failed: {@link SrqDeadLetter} was fired for each
 * @param pauses           pauses after maxSequentialDeliveryFailures dead-lettered messages in a row
 * @param paused           whether delivery is paused now (completions wait in the CQ)
 * @param errorCompletions completions with a status other than SUCCESS (never delivered)
 * @param limitEvents      IBV_EVENT_SRQ_LIMIT_REACHED taken
 * @param outstanding      receive WRs posted and not yet consumed, now
 * @param fill             the current fill level target
 * @param connections      connections on the SRQ now
 * @param rejectedByReason connect requests rejected since activation, by reason name (NOT_ALLOWED,
 *                         RATE_LIMITED, MAX_CONNECTIONS, MAX_CONNECTIONS_PER_PEER, NO_TOKEN, BAD_TOKEN,
 *                         EXPIRED, REPLAYED, REPLAY_CACHE_FULL, ACCEPT_FAILED), every reason present,
 *                         zeros included; unmodifiable
 */
public record ActivationStatistics(String srqName, String device, long posted, long completed, long delivered,
                                   long undelivered, long endpointFailures, long redelivered, long deadLettered,
                                   long pauses, boolean paused,
                                   long errorCompletions, long limitEvents, long outstanding,
                                   int fill, int connections, java.util.Map<String, Long> rejectedByReason) {

    /** Copies the map, keeping its order. */
    public ActivationStatistics {
        rejectedByReason = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(rejectedByReason));
    }

    /** {@return connect requests rejected since activation, all reasons} */
    public long rejected() {
        return rejectedByReason.values().stream().mapToLong(Long::longValue).sum();
    }
}
