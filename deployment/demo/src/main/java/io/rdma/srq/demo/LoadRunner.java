package io.rdma.srq.demo;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqPeer;
import jakarta.ejb.Asynchronous;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends a run's messages: one pooled connection ({@code @Inject SrqConnectionFactory}), {@code
 * connections} peers connected to the MDB's listener, the messages round-robin over them (each with
 * its sequence number as immediate data), then a flush of every peer. Peers are pooled per address
 * and SRQ, so peer i rides on the pooled SRQ {@code demo-load-i}: distinct connections, each reused
 * by the next run.
 */
@Stateless
public class LoadRunner {
    private static final Logger LOG = Logger.getLogger(LoadRunner.class);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(60);
    private static final int PROGRESS_EVERY = 1024;

    @Inject
    SrqConnectionFactory factory;

    /** @param run the run to send, in the background; its state says how it ended */
    @Asynchronous
    public void run(LoadRun run) {
        InetSocketAddress listener = new InetSocketAddress(DemoReceiver.LISTEN_ADDRESS, DemoReceiver.LISTEN_PORT);
        ByteBuffer message = ByteBuffer.allocateDirect(run.size());
        for (int i = 0; i < run.size(); i++) {
            message.put(i, (byte) i);
        }
        long sent = 0;
        try (SrqConnection connection = factory.getConnection()) {
            List<SrqPeer> peers = new ArrayList<>(run.connections());
            try {
                for (int i = 0; i < run.connections(); i++) {
                    peers.add(connection.connect(listener, "demo-load-" + i, CONNECT_TIMEOUT));
                }
                LOG.infof("run %d: %d messages of %d bytes over %d connections to %s on %s", run.id(),
                        run.messages(), run.size(), peers.size(), listener, connection.deviceName());
                int k = peers.size();
                for (int i = 0; i < run.messages(); i++) {
                    peers.get(i % k).send(message.clear(), i);
                    sent++;
                    if ((sent & (PROGRESS_EVERY - 1)) == 0) {
                        run.sent(sent);
                    }
                }
                run.sent(sent);
                for (SrqPeer p : peers) {
                    p.flush(FLUSH_TIMEOUT);
                }
                run.sendsCompleted();
            } finally {
                for (SrqPeer p : peers) {
                    p.close();
                }
            }
        } catch (Exception e) {
            run.sent(sent);
            LOG.errorf(e, "run %d failed after %d messages", run.id(), sent);
            run.failed(e.toString());
        }
    }
}
