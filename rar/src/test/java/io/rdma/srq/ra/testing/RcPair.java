package io.rdma.srq.ra.testing;

import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.ra.support.RcConnection;
import io.rdma.srq.ra.support.Teardown;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.ConnectionParameters;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.SharedReceiveQueue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Two {@link RcConnection}s of one context connected to each other through rdma_cm — the adapter's
 * own connect and accept, each with its fabric settings — on one SRQ, for tests that look at the
 * QPs. Closing closes both, the listener and the PD's objects.
 *
 * @param connected the connecting side
 * @param accepted  the accepting side
 * @param listener  the listener it was accepted on
 * @param pd        the PD of both, with a CQ and an SRQ
 */
public record RcPair(RcConnection connected, RcConnection accepted, CmListener listener, ProtectionDomain pd)
        implements AutoCloseable {

    /**
     * @param ctx        the device
     * @param at         an address of the device to listen on
     * @param connecting the connecting side's settings
     * @param accepting  the accepting side's settings
     * @return the pair, established
     * @throws Exception when a step fails or takes over 10 s
     */
    public static RcPair open(Context ctx, InetAddress at, ConnectionParameters connecting,
                              ConnectionParameters accepting) throws Exception {
        ProtectionDomain pd = ctx.allocPd();
        CompletionQueue cq = ctx.createCq(64, null);
        SharedReceiveQueue srq = pd.createSrq(new SrqAttributes(16, 1, 0));
        RcConnection.Receives receives = RcConnection.Receives.fromSrq(cq, srq);
        RcConnection.Sends sends = new RcConnection.Sends(64, "test", false);
        CmListener listener = ctx.listen(new InetSocketAddress(at, 0), 4);
        CompletableFuture<RcConnection> connect = CompletableFuture.supplyAsync(() -> {
            try {
                return RcConnection.connect(pd, receives, sends, listener.localAddress(), Duration.ofSeconds(10),
                        new byte[0], connecting);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        CmEvent request = listener.nextEvent(Duration.ofSeconds(10)).orElseThrow(() -> new AssertionError("no request"));
        if (request.type() != CmEventType.CONNECT_REQUEST) {
            throw new AssertionError("expected CONNECT_REQUEST, got " + request.type());
        }
        RcConnection accepted = RcConnection.accept(pd, receives, sends, request.request(), accepting);
        return new RcPair(connect.get(10, TimeUnit.SECONDS), accepted, listener, pd);
    }

    @Override
    public void close() throws Exception {
        new Teardown().close(connected).close(accepted).close(listener).close(pd).throwIfFailed();
    }
}
