package io.rdma.srq.it.galleon;

import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqFactory;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.io.Serializable;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * The test application's bean: it gets the default connection factory both ways an application does, from
 * the adapter's CDI producer and from JNDI, and uses a connection of each; it also calls the application's
 * message-driven bean.
 */
@ApplicationScoped
public class FactoryUser {

    /** The requested max_wr of the SRQ each use opens. */
    static final int MAX_WR = 64;

    @Inject
    private SrqConnectionFactory injected;

    @Resource(lookup = SrqFactory.DEFAULT)
    private SrqConnectionFactory lookedUp;

    /** @return what a connection of the {@code @Inject} factory saw @throws Exception from the adapter */
    public Seen useInjected() throws Exception {
        return use(injected, "injected");
    }

    /** @return what a connection of the {@code @Resource} factory saw @throws Exception from the adapter */
    public Seen useLookedUp() throws Exception {
        return use(lookedUp, "looked-up");
    }

    /**
     * Calls {@link EchoMdb} over a pooled connection of the {@code @Inject} factory.
     *
     * @param request the request bytes
     * @return the MDB's reply
     * @throws Exception from the adapter
     */
    public byte[] callEcho(byte[] request) throws Exception {
        try (SrqConnection connection = injected.getConnection()) {
            return connection.connect(new InetSocketAddress(EchoMdb.ADDRESS, EchoMdb.PORT), Duration.ofSeconds(10))
                    .call(ByteBuffer.wrap(request), Duration.ofSeconds(10)).copyPayload();
        }
    }

    private static Seen use(SrqConnectionFactory factory, String srqName) throws Exception {
        try (SrqConnection connection = factory.getConnection()) {
            int maxWr = connection.openSrq(srqName, new SrqAttributes(MAX_WR, 1, 0)).maxWr();
            return new Seen(connection.providerName(), connection.deviceName(), maxWr);
        }
    }

    /**
     * What one connection saw.
     *
     * @param provider the verbs provider, ibverbs or soft
     * @param device   the device, e.g. soft_rxe0
     * @param srqMaxWr the actual max_wr of the SRQ it opened (at least {@link #MAX_WR})
     */
    public record Seen(String provider, String device, int srqMaxWr) implements Serializable {
    }
}
