package io.rdma.srq.it.mdb;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqMessage;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;

/** Calls {@link ReplyMdb} as an application does: a pooled connection, its pooled peer, one call. */
@Stateless
public class Caller {

    @Inject
    SrqConnectionFactory factory;

    /**
     * @param request the request bytes
     * @return the MDB's reply
     * @throws Exception from the adapter
     */
    public byte[] call(byte[] request) throws Exception {
        try (SrqConnection c = factory.getConnection()) {
            SrqMessage reply = c.connect(new InetSocketAddress(Messages.ADDRESS, ReplyMdb.PORT), Duration.ofSeconds(10))
                    .call(ByteBuffer.wrap(request), Duration.ofSeconds(10));
            return reply.copyPayload();
        }
    }
}
