package io.rdma.srq.demo;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One run of the load generator: what was asked, what was sent and, from the counters, what the MDB
 * got since the run started. Times are System.nanoTime().
 */
public final class LoadRun {
    /** Where a run is. */
    public enum State {
        /** connecting and sending */
        SENDING,
        /** every send completed (flushed); deliveries may still be running */
        SENT,
        /** delivered = sent */
        DONE,
        /** connect or send failed: see error */
        FAILED
    }

    private final long id;
    private final int messages;
    private final int connections;
    private final int size;
    private final long deliveredBefore;
    private final long limitEventsBefore;
    private final long limitEventsAsyncBefore;
    private final Instant started = Instant.now();
    private final long startNanos = System.nanoTime();
    private final AtomicLong sent = new AtomicLong();
    private volatile State state = State.SENDING;
    private volatile long sentNanos;
    private volatile String error;

    LoadRun(long id, int messages, int connections, int size, DemoCounters counters) {
        this.id = id;
        this.messages = messages;
        this.connections = connections;
        this.size = size;
        this.deliveredBefore = counters.delivered();
        this.limitEventsBefore = counters.limitEvents();
        this.limitEventsAsyncBefore = counters.limitEventsAsync();
    }

    /** @return the run's number */
    public long id() {
        return id;
    }

    /** @return messages to send */
    public int messages() {
        return messages;
    }

    /** @return peer connections to send over, round-robin */
    public int connections() {
        return connections;
    }

    /** @return bytes per message */
    public int size() {
        return size;
    }

    void sent(long n) {
        sent.set(n);
    }

    void sendsCompleted() {
        sentNanos = System.nanoTime();
        state = State.SENT;
    }

    void failed(String message) {
        error = message;
        state = State.FAILED;
    }

    /** @return whether no send is running any more */
    public boolean finishedSending() {
        return state != State.SENDING;
    }

    /**
     * @param counters the application's counters
     * @return the run as the report shows it
     */
    public Map<String, Object> snapshot(DemoCounters counters) {
        long now = System.nanoTime();
        long s = sent.get();
        long delivered = counters.delivered() - deliveredBefore;
        State st = state;
        if (st == State.SENT && delivered >= s) {
            st = State.DONE;
        }
        long end = st == State.DONE ? counters.lastDeliveryNanos() : now;
        double elapsedMs = Math.max(0, end - startNanos) / 1e6;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("run", id);
        m.put("state", st.name());
        m.put("messages", messages);
        m.put("connections", connections);
        m.put("size", size);
        m.put("sent", s);
        m.put("delivered", delivered);
        m.put("limitEvents", counters.limitEvents() - limitEventsBefore);
        m.put("limitEventsAsync", counters.limitEventsAsync() - limitEventsAsyncBefore);
        m.put("elapsedMs", Math.round(elapsedMs));
        m.put("throughput", elapsedMs > 0 ? Math.round(delivered * 1000.0 / elapsedMs) : 0);
        if (sentNanos != 0) {
            double sendMs = (sentNanos - startNanos) / 1e6;
            m.put("sendElapsedMs", Math.round(sendMs));
            m.put("sendThroughput", sendMs > 0 ? Math.round(s * 1000.0 / sendMs) : 0);
        }
        m.put("started", started.toString());
        if (error != null) {
            m.put("error", error);
        }
        return m;
    }
}
