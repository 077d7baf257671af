package io.rdma.srq.verbs.spi;

import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;

/**
 * SRQ attribute reads per the ibv_query_srq(3) FAQ: max_wr and max_sge only change on a resize, so
 * they are served from a cache refreshed by every query and invalidated by every modify of max_wr;
 * srq_limit is always queried live (the device zeroes it when the limit event fires).
 *
 * <p>This is the device-independent seam: any provider's query plugs in as a {@link Query}.
 */
public final class SrqAttributeCache {

    /** A live ibv_query_srq. */
    @FunctionalInterface
    public interface Query {
        /**
         * {@return the attributes the device reports now}
         *
         * @throws VerbsException the errno of the query
         */
        SrqAttributes query() throws VerbsException;
    }

    private final Query query;
    private volatile SrqAttributes cached;

    /**
     * A cache that starts with what create read back.
     *
     * @param query   the live query
     * @param created the attributes read back right after create
     */
    public SrqAttributeCache(Query query, SrqAttributes created) {
        this.query = query;
        this.cached = created;
    }

    /** {@return cached max_wr} */
    public int maxWr() {
        return cached.maxWr();
    }

    /** {@return cached max_sge} */
    public int maxSge() {
        return cached.maxSge();
    }

    /**
     * {@return srq_limit, read live}
     *
     * @throws VerbsException the errno of the query
     */
    public int srqLimit() throws VerbsException {
        return query().srqLimit();
    }

    /**
     * {@return all attributes, read live; refreshes the cache}
     *
     * @throws VerbsException the errno of the query
     */
    public SrqAttributes query() throws VerbsException {
        SrqAttributes now = query.query();
        cached = now;
        return now;
    }

    /**
     * Call after a successful modify of max_wr: re-reads the actual (possibly rounded) size.
     *
     * @throws VerbsException the errno of the query
     */
    public void resized() throws VerbsException {
        query();
    }
}
