package io.rdma.srq.demo;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** Starts load runs, one at a time, and remembers the last. */
@ApplicationScoped
public class LoadGenerator {
    /** Largest number of peer connections a run may open. */
    public static final int MAX_CONNECTIONS = 256;

    private final AtomicLong ids = new AtomicLong();
    private final AtomicReference<LoadRun> current = new AtomicReference<>();

    @Inject
    DemoCounters counters;

    @Inject
    LoadRunner runner;

    /**
     * Starts a run in the background (an EJB @Asynchronous method).
     *
     * @param messages    messages to send, ≥ 1
     * @param connections peer connections, 1..{@value #MAX_CONNECTIONS}
     * @param size        bytes per message, 1..{@link DemoReceiver#BUFFER_SIZE}
     * @return the run
     * @throws IllegalArgumentException for a value out of range
     * @throws IllegalStateException    while another run is still sending
     */
    public LoadRun start(int messages, int connections, int size) {
        if (messages < 1) {
            throw new IllegalArgumentException("messages must be ≥ 1, got " + messages);
        }
        if (connections < 1 || connections > MAX_CONNECTIONS) {
            throw new IllegalArgumentException("connections must be in 1.." + MAX_CONNECTIONS + ", got " + connections);
        }
        if (size < 1 || size > DemoReceiver.BUFFER_SIZE) {
            throw new IllegalArgumentException("size must be in 1.." + DemoReceiver.BUFFER_SIZE
                    + " (the MDB's bufferSize), got " + size);
        }
        LoadRun previous = current.get();
        if (previous != null && !previous.finishedSending()) {
            throw new IllegalStateException("run " + previous.id() + " is still sending");
        }
        LoadRun run = new LoadRun(ids.incrementAndGet(), messages, connections, size, counters);
        if (!current.compareAndSet(previous, run)) {
            throw new IllegalStateException("another run was started at the same time");
        }
        runner.run(run);
        return run;
    }

    /** @return the last run, if any */
    public Optional<LoadRun> last() {
        return Optional.ofNullable(current.get());
    }
}
