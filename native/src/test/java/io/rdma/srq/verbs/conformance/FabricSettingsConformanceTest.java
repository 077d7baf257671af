package io.rdma.srq.verbs.conformance;

import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.api.WcStatus;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetSocketAddress;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What rdma_cm refuses and what the fabric settings of a connect or accept do, the same on every
 * target: the soft fabric must refuse what rxe0 refuses (an address no interface has, a port in
 * use), and {@link ConnectionParameters} must reach both QPs (ibv_query_qp(3): traffic class,
 * timeout, retry_cnt, rnr_retry) and govern the RNR retries of a send.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.rdma.srq.verbs.conformance.VerbsTarget#targets")
class FabricSettingsConformanceTest extends ConformanceBase {
    /** TEST-NET-1 (RFC 5737): no interface of any machine has it. */
    private static final String NO_INTERFACE = "192.0.2.77";

    FabricSettingsConformanceTest(VerbsTarget target) {
        super(target);
    }

    @Test
    @DisplayName("rdma_bind_addr: an address no interface has is EADDRNOTAVAIL")
    void bindToAnAddressNoInterfaceHas() {
        VerbsException e = assertThrows(VerbsException.class,
                () -> ctx.listen(new InetSocketAddress(NO_INTERFACE, 7471), 4));
        assertTrue(e.is(Errno.EADDRNOTAVAIL), e.getMessage());
    }

    @Test
    @DisplayName("rdma_bind_addr: a port in use on the device's address is EADDRINUSE for that address, EADDRNOTAVAIL for the wildcard (cma_check_port); free again once closed")
    void portInUse() throws Exception {
        assumeRcOnSrq();
        Link l = new Link(16, 64, 7);
        java.net.InetAddress own = deviceAddress(l.a);
        CmListener first = ctx.listen(new InetSocketAddress(own, 0), 4);
        int port = first.localAddress().getPort();
        VerbsException same = assertThrows(VerbsException.class, () -> ctx.listen(new InetSocketAddress(own, port), 4));
        assertTrue(same.is(Errno.EADDRINUSE), same.getMessage());
        VerbsException wildcard = assertThrows(VerbsException.class,
                () -> ctx.listen(new InetSocketAddress("0.0.0.0", port), 4));
        // rdma_cm binds the wildcard to no device and refuses it on a device's port; a socket-based fabric finds the port taken
        assertTrue(wildcard.is(driver == Driver.LIBFABRIC ? Errno.EADDRINUSE : Errno.EADDRNOTAVAIL), wildcard.getMessage());
        first.close();
        ctx.listen(new InetSocketAddress(own, port), 4).close();
    }

    @Test
    @DisplayName("ConnectionParameters reach both QPs of an rdma_cm connection: traffic_class, timeout, retry_cnt, rnr_retry (ibv_query_qp)")
    void parametersReachTheQps() throws Exception {
        assumeRcOnSrq();
        ConnectionParameters mine = new ConnectionParameters(OptionalInt.of(106), OptionalInt.of(12), 5, 3);
        ConnectionParameters theirs = new ConnectionParameters(OptionalInt.of(32), OptionalInt.of(16), 6, 4);
        Pair p = connect(mine, theirs);
        ConnectionParameters c = p.client().queryConnectionParameters();
        ConnectionParameters s = p.server().queryConnectionParameters();
        System.out.printf("%s: connecting QP %s; accepting QP %s%n", target, c, s);
        assertEquals(mine, c, "the connecting QP");
        assertEquals(theirs, s, "the accepting QP");
        p.close();
    }

    @Test
    @DisplayName("ConnectionParameters.RDMA_CM_DEFAULTS: retry_cnt 7, rnr_retry 7 (infinite), timeout and traffic class as rdma_cm gives them")
    void rdmaCmDefaults() throws Exception {
        assumeRcOnSrq();
        assumeRcTransportRetries();
        Pair p = connect(ConnectionParameters.RDMA_CM_DEFAULTS, ConnectionParameters.RDMA_CM_DEFAULTS);
        ConnectionParameters c = p.client().queryConnectionParameters();
        System.out.printf("%s: rdma_cm's defaults on the connecting QP: %s; accepting QP: %s%n", target, c,
                p.server().queryConnectionParameters());
        assertEquals(7, c.retryCount());
        assertEquals(7, c.rnrRetryCount());
        assertTrue(c.ackTimeout().orElseThrow() > 0, "rdma_cm sets a finite ACK timeout: " + c);
        p.close();
    }

    @Test
    @DisplayName("rnr_retry n < 7 of a connect: a SEND to an empty SRQ completes IBV_WC_RNR_RETRY_EXC_ERR after its retries; the next receive is not consumed")
    void rnrRetryExhausted() throws Exception {
        assumeRcOnSrq();
        assumeRcTransportRetries();
        ConnectionParameters twoRetries = new ConnectionParameters(OptionalInt.empty(), OptionalInt.empty(), 7, 2);
        Pair p = connect(twoRetries, ConnectionParameters.RDMA_CM_DEFAULTS);
        // the SRQ is empty: the accepting side answers RNR NAK until the sender's two retries are gone
        p.link().mr.segment().asSlice(0, 16).fill((byte) 5);
        p.client().postSend(9, p.link().mr, 0, 16, null);
        Wc wc = poll(p.link().cqA, 1).getFirst();
        assertEquals(9, wc.wrId());
        assertEquals(WcStatus.RNR_RETRY_EXC_ERR, wc.status());
        assertTrue(pollQuietly(p.link().cqB).isEmpty(), "nothing arrived");
        p.close();
    }

    @Test
    @DisplayName("out-of-range fabric settings are refused with EINVAL naming the field, before any verbs call")
    void outOfRange() {
        VerbsException tc = assertThrows(VerbsException.class,
                () -> ConnectionParameters.check(OptionalInt.of(256), OptionalInt.empty(), 7, 7));
        assertTrue(tc.is(Errno.EINVAL) && tc.getMessage().contains("traffic_class"), tc.getMessage());
        VerbsException timeout = assertThrows(VerbsException.class,
                () -> ConnectionParameters.check(OptionalInt.empty(), OptionalInt.of(32), 7, 7));
        assertTrue(timeout.is(Errno.EINVAL) && timeout.getMessage().contains("timeout"), timeout.getMessage());
        VerbsException retry = assertThrows(VerbsException.class,
                () -> ConnectionParameters.check(OptionalInt.empty(), OptionalInt.empty(), 8, 7));
        assertTrue(retry.is(Errno.EINVAL) && retry.getMessage().contains("retry_cnt"), retry.getMessage());
        VerbsException rnr = assertThrows(VerbsException.class,
                () -> ConnectionParameters.check(OptionalInt.empty(), OptionalInt.empty(), 7, -1));
        assertTrue(rnr.is(Errno.EINVAL) && rnr.getMessage().contains("rnr_retry"), rnr.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new ConnectionParameters(OptionalInt.empty(), OptionalInt.empty(), 7, 8));
    }

    /** The two ends of one connection (client on cqA, server on cqB, both on the link's SRQ), closed together. */
    private record Pair(Link link, QueuePair client, QueuePair server, CmListener listener, CmConnection connected,
                        CmConnection accepted) implements AutoCloseable {
        /** Disconnects the way rdma_cm wants it (the passive side takes DISCONNECTED and answers), then closes. */
        @Override
        public void close() throws VerbsException {
            connected.disconnect();
            nextOfType(listener, CmEventType.DISCONNECTED);
            connected.close();
            accepted.close();
            listener.close();
        }
    }

    private Pair connect(ConnectionParameters clientParameters, ConnectionParameters serverParameters) throws Exception {
        Link l = new Link(16, 64, 7);
        QueuePair server = l.pd.createQp(QpInitAttributes.rcOnSrq(l.cqB, l.srq, 16));
        QueuePair client = l.pd.createQp(QpInitAttributes.rcOnSrq(l.cqA, l.srq, 16));
        CmListener listener = ctx.listen(new InetSocketAddress(deviceAddress(server), 0), 4);
        InetSocketAddress at = new InetSocketAddress(deviceAddress(server), listener.localAddress().getPort());
        CompletableFuture<CmConnection> connecting = CompletableFuture.supplyAsync(() -> {
            try {
                return ctx.connect(client, at, PATIENCE, new byte[0], clientParameters);
            } catch (VerbsException e) {
                throw new RuntimeException(e);
            }
        });
        CmEvent request = nextOfType(listener, CmEventType.CONNECT_REQUEST);
        CmConnection accepted = request.request().accept(server, serverParameters);
        CmConnection connected = connecting.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        nextOfType(listener, CmEventType.ESTABLISHED);
        return new Pair(l, client, server, listener, connected, accepted);
    }
}
