package io.rdma.srq.api;

import java.time.Instant;

/**
 * CDI event fired when an activation's SRQ, or a pooled SRQ of a connection definition, raised
 * IBV_EVENT_SRQ_LIMIT_REACHED (ibv_get_async_event(3)): fewer than {@code limit} receive WRs were left. Observe it with {@code @Observes} or
 * {@code @ObservesAsync SrqLimitReached}. By the time it is seen, the adapter has replenished the SRQ
 * and re-armed the (one-shot) limit.
 *
 * @param srqName     the activation's SRQ name (its MDB's name or the configured srqName), or the
 *                    name a pooled SRQ was opened with ({@code SrqConnection.openSrq} / connect)
 * @param device      the device name
 * @param limit       the srq_limit that fired, in WRs
 * @param outstanding receive WRs posted and not yet consumed when the adapter handled the event; the
 *                    poller keeps reposting, so this is often above {@code limit} by then (the device
 *                    saw fewer than {@code limit} when it raised the event)
 * @param time        when the adapter took the event
 */
public record SrqLimitReached(String srqName, String device, int limit, int outstanding, Instant time) {
}
