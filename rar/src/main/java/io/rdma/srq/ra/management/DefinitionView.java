package io.rdma.srq.ra.management;

/**
 * What the statistics table reads of one connection definition (its pool's use — in-use, active,
 * created, destroyed, wait times — is IronJacamar's own {@code statistics=pool}).
 *
 * @param device          the configured device, queried now
 * @param openConnections pooled connections holding a device context now
 * @param srqs            named SRQs open on those connections
 * @param limitEvents     IBV_EVENT_SRQ_LIMIT_REACHED taken by the SRQs of those connections
 * @param peers           peer QPs (pooled with those connections) now
 * @param outstanding     receive WRs posted to their SRQs and not yet consumed, now
 * @param lateReplies     replies that found no waiting call (after a timeout or a closed handle), discarded
 * @param peerErrors      peer QPs that went to the error state (e.g. a reply longer than receiveBufferSize)
 * @param serviceFailovers calls by service name sent to another provider because theirs refused the
 *                        connect or answered "not run", since the definition started
 */
public record DefinitionView(DeviceState device, int openConnections, int srqs, long limitEvents, int peers,
                             long outstanding, long lateReplies, long peerErrors, long serviceFailovers) {
}
