/**
 * Admission control: who may connect to an activation, and the token our own connects present.
 * Small parts with one job each, no dependency on the inbound or outbound side:
 * <ul>
 *   <li>{@link io.rdma.srq.ra.support.admission.Cidr}, {@link io.rdma.srq.ra.support.admission.PeerFilter}:
 *       the allowedPeers list (IPv4/IPv6 CIDRs) — policy, not authentication: the address a listener
 *       sees comes from the request the peer sends and can be forged on RoCE;</li>
 *   <li>{@link io.rdma.srq.ra.support.admission.ConnectionLimits}: maxConnections, maxConnectionsPerPeer;</li>
 *   <li>{@link io.rdma.srq.ra.support.admission.ConnectRateLimit}: connect requests per second (a token bucket);</li>
 *   <li>{@link io.rdma.srq.ra.support.admission.AuthKey}, {@link io.rdma.srq.ra.support.admission.KeyRing},
 *       {@link io.rdma.srq.ra.support.admission.PeerToken}: the HMAC-SHA-256 token in the connect's
 *       private data, {@link io.rdma.srq.ra.support.admission.ReplayCache}: its nonces, one cache per
 *       {@link io.rdma.srq.ra.support.admission.ReplayScopes scope} (key and target), JVM-wide;</li>
 *   <li>{@link io.rdma.srq.ra.support.admission.RejectReason}: the code a reject carries in its private data,
 *       {@link io.rdma.srq.ra.support.admission.RejectCounters}: counted by reason (and logged
 *       rate-limited, {@link io.rdma.srq.ra.support.RateLimitedLog});</li>
 *   <li>{@link io.rdma.srq.ra.support.admission.Admission}: the decision for one CONNECT_REQUEST, in that order.</li>
 * </ul>
 */
package io.rdma.srq.ra.support.admission;
