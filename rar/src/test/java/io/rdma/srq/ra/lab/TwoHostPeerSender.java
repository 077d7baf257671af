package io.rdma.srq.ra.lab;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.SrqResourceAdapter;
import io.rdma.srq.ra.outbound.SrqManagedConnectionFactory;
import io.rdma.srq.ra.testing.TestBootstrapContext;
import io.rdma.srq.ra.testing.TestConnectionManager;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The two-host lab's sender through this adapter's own outbound path, run on the sender host:
 * a pooled connection (container-less) opened at once, then — when GO_FILE appears, holding
 * {@code PORT COUNT SENDER_ID} — {@link SrqConnection#connect} to the receiver host's activation at
 * ADDRESS:PORT and {@link SrqPeer#send} of COUNT numbered 64-byte messages (the layout of
 * {@link SequenceLedger}), {@link SrqPeer#flush} after every 64. Prints what {@code seq_send} prints:
 * {@code CONN 1 first=0}, {@code ACKED 1 upto=U} after each flush that succeeded (every message
 * before U completed successfully), and {@code SENDER id=I acked=A posted=P connections=1}.
 *
 * <p>Usage: {@code TwoHostPeerSender DEVICE ADDRESS GO_FILE}; exit code 0 when every message was
 * acknowledged.
 */
public final class TwoHostPeerSender {
    private TwoHostPeerSender() {
    }

    public static void main(String[] args) throws Exception {
        String device = args[0];
        Path go = Path.of(args[2]);
        SrqResourceAdapter ra = new SrqResourceAdapter();
        TestBootstrapContext bootstrap = new TestBootstrapContext();
        TestConnectionManager cm = new TestConnectionManager();
        ra.start(bootstrap);
        long acked = 0;
        long posted = 0;
        long count = -1;
        int id = 0;
        try {
            SrqManagedConnectionFactory mcf = new SrqManagedConnectionFactory();
            mcf.setProvider("ibverbs");
            mcf.setDevice(device);
            mcf.setResourceAdapter(ra);
            SrqConnectionFactory factory = (SrqConnectionFactory) mcf.createConnectionFactory(cm);
            try (SrqConnection c = factory.getConnection()) {
                while (!Files.exists(go)) {
                    Thread.sleep(100);
                }
                String[] what = Files.readString(go).trim().split(" ");
                count = Long.parseLong(what[1]);
                id = Integer.parseInt(what[2]);
                SrqPeer peer = c.connect(new InetSocketAddress(args[1], Integer.parseInt(what[0])), Duration.ofSeconds(30));
                System.out.println("CONN 1 first=0");
                ByteBuffer m = ByteBuffer.allocateDirect(64);
                for (long seq = 0; seq < count; seq++) {
                    m.clear();
                    m.putInt(0, SequenceLedger.MAGIC).putInt(4, id).putLong(8, seq);
                    peer.send(m);
                    posted++;
                    if (posted % 64 == 0 || posted == count) {
                        peer.flush(Duration.ofSeconds(30));
                        acked = posted;
                        System.out.println("ACKED 1 upto=" + acked);
                    }
                }
            }
        } catch (VerbsException e) {
            System.out.println("FAIL 1 seq=" + acked + " status=" + e.getMessage());
        } finally {
            System.out.printf("SENDER id=%d acked=%d posted=%d connections=1%n", id, acked, posted);
            cm.flush();
            ra.stop();
            bootstrap.testWorkManager().shutdown();
        }
        System.exit(acked == count ? 0 : 1);
    }
}
