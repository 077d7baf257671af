package io.rdma.srq.demo;

import jakarta.ejb.AsyncResult;
import jakarta.ejb.Asynchronous;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import org.HdrHistogram.Histogram;

import java.util.Arrays;
import java.util.concurrent.Future;

/** One caller of the request/reply phase: calls {@link RoundTrip#call} through its EJB proxy, timing each. */
@Stateless
public class CallLoop {

    @EJB
    RoundTrip roundTrip;

    /**
     * @param calls how many
     * @param size  bytes per request
     * @param to    whom: "local" (this server's responder, {@link RoundTrip#call}), "peer" (the other
     *              server's, by address: {@link RoundTrip#callPeer}), "service" (by service name
     *              through the cluster: {@link RoundTrip#callService}) or "singleton" (the cluster
     *              singleton: {@link RoundTrip#callSingleton})
     * @return the round-trip times in ns; a reply that is not the request fails the loop
     * @throws Exception from a call
     */
    @Asynchronous
    public Future<Histogram> run(int calls, int size, String to) throws Exception {
        Histogram h = new Histogram(3);
        byte[] request = new byte[size];
        for (int i = 0; i < calls; i++) {
            request[0] = (byte) i;
            long start = System.nanoTime();
            byte[] reply = switch (to) {
                case "peer" -> roundTrip.callPeer(request);
                case "service" -> roundTrip.callService(request);
                case "singleton" -> roundTrip.callSingleton(request);
                default -> roundTrip.call(request);
            };
            h.recordValue(System.nanoTime() - start);
            if (!Arrays.equals(reply, request)) {
                throw new IllegalStateException("call " + i + " got another reply");
            }
        }
        return new AsyncResult<>(h);
    }
}
