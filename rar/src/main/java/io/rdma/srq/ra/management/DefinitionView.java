package io.rdma.srq.ra.management;

/**
 * What the statistics table reads of one connection definition (its pool's use — in-use, active,
 * created, destroyed, wait times — is IronJacamar's own {@code statistics=pool}).
 *
 * @param device          the configured device, queried now
 * @param openConnections pooled connections holding a device context now
 * @param srqs            named SRQs open on those connections
 * @param limitEvents     IBV_EVENT_SRQ_LIMIT_REACHED taken by the SRQs of those connections
 */
public record DefinitionView(DeviceState device, int openConnections, int srqs, long limitEvents) {
}
