package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqMessage;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.support.SpinBudget;
import io.rdma.srq.ra.testing.SoftActivationTest;
import io.rdma.srq.ra.testing.SoftAdapterTest;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import io.rdma.srq.verbs.soft.SoftProvider;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * An Error (OutOfMemoryError, injected into ibv_poll_cq by the soft device once) in the outbound
 * servicing loop while it spins for an asynchronous call: the pooled connection is reported broken
 * (CONNECTION_ERROR_OCCURRED, the pool destroys it and its waiting call fails), the loop's
 * {@link SpinBudget} slot comes back, and the next getConnection's calls work. The pooled
 * connections are on soft_mlx5_0 (the device whose poll fails), the replying activation on soft_rxe0.
 */
class ServicingLoopErrorTest extends SoftAdapterTest {
    private static final Duration T = Duration.ofSeconds(10);
    private final TestEndpointFactory endpoints = new TestEndpointFactory();

    @Test
    void anErrorInServicingGivesTheSpinSlotBackAndTheNextConnectionsCallsWork() throws Exception {
        assumeTrue(SpinBudget.PROCESS.slots() > 0, "the servicing loop spins only with a slot (srq.spinners > 0)");
        mcf.setSoftProfile("mlx5");
        endpoints.behaviour(TestEndpointFactory::echo);
        InetSocketAddress listener = activate();
        SoftActivationTest.await(() -> SpinBudget.PROCESS.spinning() == 0, "no slot held before (earlier tests' threads)");
        int spinningBefore = 0;
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(listener, T);
            assertEquals(6, peer.call(request(1), T).length(), "a call works before");

            endpoints.close(); // the next reply waits: the servicing loop spins for the asynchronous call
            CompletableFuture<SrqMessage> waiting = peer.callAsync(request(2), T);
            SoftActivationTest.await(() -> SpinBudget.PROCESS.spinning() > spinningBefore,
                    "the servicing loop spinning for the asynchronous call");
            SoftProvider.failNextPoll("soft_mlx5_0", new OutOfMemoryError("injected into ibv_poll_cq"));

            SoftActivationTest.await(() -> cm.events.contains("ERROR"),
                    "CONNECTION_ERROR_OCCURRED: the pool destroys the connection whose round broke off");
            ExecutionException failed = assertThrows(ExecutionException.class,
                    () -> waiting.get(T.toMillis(), TimeUnit.MILLISECONDS), "its waiting call fails at once");
            assertTrue(failed.getCause() != null, "a failure, not a reply");
            SoftActivationTest.await(() -> SpinBudget.PROCESS.spinning() == spinningBefore, "the spin slot given back");
            endpoints.open();
        }

        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(listener, T);
            for (int i = 0; i < 100; i++) {
                assertEquals(6, peer.call(request(i), T).length(), "call " + i + " on the next pooled connection");
            }
            assertEquals(6, peer.callAsync(request(100), T).get(T.toMillis(), TimeUnit.MILLISECONDS).length(),
                    "an asynchronous call: the servicing loop polls for it again");
        }
        SoftActivationTest.await(() -> SpinBudget.PROCESS.spinning() == spinningBefore,
                "every slot given back after the calls (a spin ends within microseconds)");
    }

    private InetSocketAddress activate() throws Exception {
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider("soft");
        spec.setListenAddress("10.0.0.1");
        spec.setListenPort("0");
        spec.setResourceAdapter(ra);
        ra.endpointActivation(endpoints, spec);
        return ra.activations().getFirst().listenAddress();
    }

    private static ByteBuffer request(int seq) {
        return ByteBuffer.allocate(6).putShort((short) 7).putInt(seq).flip();
    }
}
