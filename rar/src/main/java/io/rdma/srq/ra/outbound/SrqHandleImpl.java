package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.RegisteredMemory;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.SrqHandle;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.PostReceiveException;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.SharedReceiveQueue;

/**
 * {@link SrqHandle} over a pooled SRQ, usable while its connection handle is open: after that every
 * method throws IllegalStateException.
 */
final class SrqHandleImpl implements SrqHandle {
    private static final int CHAIN = 64;

    private final SrqConnectionHandle connection;
    private final String name;
    private final SharedReceiveQueue srq;

    SrqHandleImpl(SrqConnectionHandle connection, String name, SharedReceiveQueue srq) {
        this.connection = connection;
        this.name = name;
        this.srq = srq;
    }

    private SharedReceiveQueue srq() {
        connection.mc();
        return srq;
    }

    @Override
    public String name() {
        srq();
        return name;
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
    public void resize(int maxWr) throws VerbsException {
        srq().resize(maxWr);
    }

    @Override
    public void armLimit(int srqLimit) throws VerbsException {
        srq().armLimit(srqLimit);
    }

    @Override
    public int postReceives(RegisteredMemory memory, long offset, int bufferSize, int count, long firstWrId)
            throws VerbsException {
        SharedReceiveQueue q = srq();
        if (bufferSize < 1 || count < 1 || offset < 0 || offset + (long) bufferSize * count > memory.length()) {
            throw new VerbsException("ibv_post_srq_recv", Errno.EINVAL, count + " buffers of " + bufferSize
                    + " bytes from offset " + offset + " do not fit in " + memory.length() + " registered bytes");
        }
        long base = memory.segment().address() + offset;
        int posted = 0;
        try (ReceiveWorkRequests wrs = new ReceiveWorkRequests(Math.min(CHAIN, count))) {
            while (posted < count) {
                int n = Math.min(wrs.capacity(), count - posted);
                for (int i = 0; i < n; i++) {
                    int k = posted + i;
                    wrs.set(i, firstWrId + k, base + (long) k * bufferSize, bufferSize, memory.lkey());
                }
                try {
                    q.postReceive(wrs, n);
                } catch (PostReceiveException e) {
                    throw new VerbsException("ibv_post_srq_recv", e.errno(), "SRQ '" + name + "' took "
                            + (posted + e.failedIndex()) + " of " + count + " receive WRs (max_wr " + q.maxWr() + ")");
                }
                posted += n;
            }
        }
        return posted;
    }
}
