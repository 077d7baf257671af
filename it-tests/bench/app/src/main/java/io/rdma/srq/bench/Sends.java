package io.rdma.srq.bench;

import java.util.concurrent.atomic.LongAdder;

/** A sender's count of messages sent, published to the run's shared counter in steps. */
final class Sends {
    /** Messages between two updates of the shared counter. */
    static final int REPORT_EVERY = 256;

    private final LongAdder shared;
    private int pending;

    Sends(LongAdder shared) {
        this.shared = shared;
    }

    void one() {
        if (++pending == REPORT_EVERY) {
            shared.add(pending);
            pending = 0;
        }
    }

    void done() {
        shared.add(pending);
        pending = 0;
    }
}
