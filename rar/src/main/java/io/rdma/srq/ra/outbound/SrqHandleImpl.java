package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.SrqHandle;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.SharedReceiveQueue;

/**
 * {@link SrqHandle} over a pooled SRQ, usable while its connection handle is open: after that every
 * method throws IllegalStateException. Read-only: the receive side is the pooled connection's.
 */
final class SrqHandleImpl implements SrqHandle {
    private final SrqConnectionHandle connection;
    private final PooledSrq pooled;

    SrqHandleImpl(SrqConnectionHandle connection, PooledSrq pooled) {
        this.connection = connection;
        this.pooled = pooled;
    }

    private SharedReceiveQueue srq() {
        connection.mc();
        return pooled.srq();
    }

    @Override
    public String name() {
        srq();
        return pooled.name();
    }

    @Override
    public int maxWr() {
        return srq().maxWr();
    }

    @Override
    public int maxSge() {
        return srq().maxSge();
    }

    @Override
    public int srqLimit() throws VerbsException {
        return srq().srqLimit();
    }

    @Override
    public SrqAttributes query() throws VerbsException {
        return srq().query();
    }

    @Override
    public int receiveBufferSize() {
        srq();
        return pooled.bufferSize();
    }
}
