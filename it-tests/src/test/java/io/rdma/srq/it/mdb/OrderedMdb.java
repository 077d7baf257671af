package io.rdma.srq.it.mdb;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An MDB with ordering=connection (port {@value #PORT}, 8 endpoints): checks that each connection's
 * messages arrive in the order {@link Sender} sent them (round-robin over {@value #CONNECTIONS}
 * peers: imm_data grows by {@value #CONNECTIONS} on each connection) and never two at once.
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = Messages.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + OrderedMdb.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = OrderedMdb.NAME),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "1024"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "ordering", propertyValue = "connection"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "8")})
public class OrderedMdb implements SrqReceiveListener {
    /** listenPort. */
    public static final int PORT = 7492;
    /** srqName and tally name. */
    public static final String NAME = "ordered";
    /** The payload marker. */
    public static final byte MARKER = 'O';
    /** Connections the test sends over. */
    public static final int CONNECTIONS = 8;
    /** Order or exclusivity violations seen. */
    public static final List<String> VIOLATIONS = new CopyOnWriteArrayList<>();
    /** The last imm_data seen per connection id. */
    public static final Map<Long, Integer> LAST = new ConcurrentHashMap<>();
    /** Deliveries running at once, over all connections, at most. */
    public static final AtomicInteger MAX_PARALLEL = new AtomicInteger();
    private static final AtomicInteger RUNNING = new AtomicInteger();
    private static final Map<Long, AtomicInteger> IN_DELIVERY = new ConcurrentHashMap<>();

    /** Forgets what earlier runs saw. */
    public static void reset() {
        VIOLATIONS.clear();
        LAST.clear();
        MAX_PARALLEL.set(0);
    }

    @Override
    public void onReceive(ReceiveCompletion c) {
        long id = c.connectionId();
        AtomicInteger mine = IN_DELIVERY.computeIfAbsent(id, k -> new AtomicInteger());
        if (mine.incrementAndGet() != 1) {
            VIOLATIONS.add("two deliveries of connection " + id + " at once");
        }
        MAX_PARALLEL.accumulateAndGet(RUNNING.incrementAndGet(), Math::max);
        try {
            Integer before = LAST.put(id, c.immData());
            if (before != null && before + CONNECTIONS != c.immData()) {
                VIOLATIONS.add("connection " + id + ": " + c.immData() + " after " + before);
            }
            Tally.of(NAME).record(c, MARKER);
            long end = System.nanoTime() + (c.immData() % 5) * 20_000L; // uneven work invites overtaking
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
        } finally {
            RUNNING.decrementAndGet();
            mine.decrementAndGet();
        }
    }
}
