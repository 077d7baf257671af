package io.rdma.srq.verbs.fabric;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmRequest;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.QueuePair;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An FI_CONNREQ: the connection request's fi_info (which the endpoint that accepts it is opened
 * with) and the private data it carried. Answered once: {@link #accept} or {@link #reject}.
 */
final class FabricCmRequest implements CmRequest {
    private final FabricCmListener listener;
    private final MemorySegment info;
    private final byte[] privateData;
    private final InetSocketAddress remote;
    private final AtomicBoolean answered = new AtomicBoolean();

    FabricCmRequest(FabricCmListener listener, MemorySegment info, byte[] privateData, InetSocketAddress remote) {
        this.listener = listener;
        this.info = info;
        this.privateData = privateData;
        this.remote = remote;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remote;
    }

    @Override
    public InetSocketAddress localAddress() {
        return listener.localAddress();
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    @Override
    public CmConnection accept(QueuePair qp, ConnectionParameters parameters) {
        answer("rdma_accept");
        return listener.accept(this, info, qp, parameters);
    }

    @Override
    public void reject(byte[] data) {
        if (data.length > MAX_REJECT_PRIVATE_DATA) {
            throw new VerbsException("rdma_reject", Errno.EINVAL, "private data of " + data.length
                    + " bytes; a reject carries at most " + MAX_REJECT_PRIVATE_DATA);
        }
        answer("rdma_reject");
        listener.reject(info, data);
    }

    private void answer(String operation) {
        if (!answered.compareAndSet(false, true)) {
            throw new VerbsException(operation, Errno.EINVAL, "the connect request from " + remote
                    + " was answered already");
        }
    }

    @Override
    public String toString() {
        return "CmRequest[from " + remote + ", " + privateData.length + " bytes of private data]";
    }
}
