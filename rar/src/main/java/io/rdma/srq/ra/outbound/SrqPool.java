package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.SrqLimitReached;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.RaLogger;
import io.rdma.srq.ra.support.RateLimitedLog;
import io.rdma.srq.ra.support.Teardown;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.SharedReceiveQueue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A pooled connection's named SRQs ({@link PooledSrq}: one slab each, kept filled), created on first
 * use with the connection definition's receiveBufferSize and closed with the connection. Thread-safe:
 * opening is serialized per pool, polling runs on the servicing round's thread.
 */
final class SrqPool {
    private final Map<String, PooledSrq> srqs = new ConcurrentHashMap<>();
    private final RateLimitedLog<String> refillLines = new RateLimitedLog<>();
    private final ProtectionDomain pd;
    private final DeviceAttributes attributes;
    private final String device;
    private final int receiveBufferSize;

    /**
     * @param pd                the connection's protection domain
     * @param attributes        its device's attributes (max_srq, max_srq_wr, max_cqe)
     * @param device            its device's name, for messages
     * @param receiveBufferSize bytes of each receive buffer (connection definition's receiveBufferSize)
     */
    SrqPool(ProtectionDomain pd, DeviceAttributes attributes, String device, int receiveBufferSize) {
        this.pd = pd;
        this.attributes = attributes;
        this.device = device;
        this.receiveBufferSize = receiveBufferSize;
    }

    /**
     * Opens or creates a named SRQ; a new one is created with srq_limit 0, filled from its slab, then
     * armed with {@code spec.srqLimit()} (ibv_create_srq(3), ibv_modify_srq(3)).
     *
     * @param name the name
     * @param spec the requested sizes
     * @return the SRQ
     * @throws VerbsException EINVAL for a bad name, a max_wr outside 1..min(max_srq_wr, max_cqe) or
     *                        srq_limit ≥ max_wr, EOPNOTSUPP on a device without SRQs, EEXIST if open
     *                        with less than asked, else the create errno
     */
    PooledSrq open(String name, SrqAttributes spec) throws VerbsException {
        if (name == null || name.isBlank()) {
            throw new VerbsException("ibv_create_srq", Errno.EINVAL, "the SRQ name must not be empty");
        }
        PooledSrq existing = srqs.get(name);
        if (existing == null) {
            synchronized (srqs) {
                existing = srqs.get(name);
                if (existing == null) {
                    PooledSrq created = create(name, spec);
                    srqs.put(name, created);
                    return created;
                }
            }
        }
        SharedReceiveQueue q = existing.srq();
        if (q.maxWr() < spec.maxWr() || q.maxSge() < spec.maxSge()) {
            throw new VerbsException("ibv_create_srq", Errno.EEXIST, "SRQ '" + name + "' is open with max_wr "
                    + q.maxWr() + ", max_sge " + q.maxSge() + "; asked for max_wr " + spec.maxWr()
                    + ", max_sge " + spec.maxSge());
        }
        return existing;
    }

    private PooledSrq create(String name, SrqAttributes spec) throws VerbsException {
        if (attributes.maxSrq() == 0 || attributes.maxSrqWr() == 0) {
            throw new VerbsException("ibv_create_srq", Errno.EOPNOTSUPP, device
                    + " has no SRQ support (max_srq " + attributes.maxSrq() + ")");
        }
        long most = Math.min(attributes.maxSrqWr(), attributes.maxCqe());
        if (spec.maxWr() < 1 || spec.maxWr() > most) {
            throw new VerbsException("ibv_create_srq", Errno.EINVAL, "max_wr " + spec.maxWr()
                    + " must be in 1.." + most + " (the device's max_srq_wr " + attributes.maxSrqWr()
                    + " and max_cqe " + attributes.maxCqe() + ": the SRQ's CQ holds a completion per "
                    + "receive)");
        }
        PooledSrq.checkLimit(spec);
        return PooledSrq.create(pd, name, spec, receiveBufferSize);
    }

    /** @param name an SRQ's name @return it, or null when not open */
    PooledSrq get(String name) {
        return srqs.get(name);
    }

    /**
     * Polls every SRQ's CQ once, handing what it takes to {@code sink}; a refill that fails is logged
     * (rate-limited) and the others go on.
     *
     * @return completions taken
     */
    int pollAll(PooledSrq.Sink sink) {
        int n = 0;
        for (PooledSrq s : srqs.values()) {
            try {
                n += s.poll(sink);
            } catch (VerbsException e) {
                refillFailed(s, e);
            }
        }
        return n;
    }

    /**
     * IBV_EVENT_SRQ_LIMIT_REACHED of {@code q} (ibv_get_async_event(3)): its SRQ tops up and re-arms
     * the one-shot limit.
     *
     * @return the event for the application's observers; empty when {@code q} is none of this pool's
     *         or the refill failed (logged)
     */
    Optional<SrqLimitReached> limitReached(SharedReceiveQueue q) {
        for (PooledSrq s : srqs.values()) {
            if (s.srq() == q) {
                try {
                    int outstanding = s.limitReached();
                    return Optional.of(SrqLimitReached.builder().srqName(s.name()).device(device).limit(s.limit())
                            .outstanding(outstanding).time(Instant.now()).build());
                } catch (VerbsException | IllegalStateException e) {
                    refillFailed(s, e);
                }
            }
        }
        return Optional.empty();
    }

    private void refillFailed(PooledSrq s, Exception e) {
        refillLines.event("refill " + s.name(), (notLogged, seconds) -> RaLogger.LOG.refillFailed(e, s.name(),
                device, notLogged, seconds));
    }

    /** @return the number of named SRQs open */
    int count() {
        return srqs.size();
    }

    /** @return registered receive bytes of all SRQs: their slabs, whatever the number of peers */
    long registeredBytes() {
        return srqs.values().stream().mapToLong(PooledSrq::registeredBytes).sum();
    }

    /** @return receive WRs posted and not consumed, over all SRQs */
    long outstanding() {
        return srqs.values().stream().mapToLong(PooledSrq::outstanding).sum();
    }

    /** Closes every SRQ (each before its slab), once no QP uses them; failures go to {@code teardown}. */
    void closeAll(Teardown teardown) {
        teardown.closeAll(List.copyOf(srqs.values()));
        srqs.clear();
    }
}
