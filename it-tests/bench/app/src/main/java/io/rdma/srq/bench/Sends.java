package io.rdma.srq.bench;


/** A sender's count of messages sent, published to the run's {@link SendProgress} in steps; made when it begins sending. */
final class Sends {
    /** Messages between two updates of the shared counter. */
    static final int REPORT_EVERY = 256;

    private final SendProgress shared;
    private int pending;

    Sends(SendProgress shared) {
        this.shared = shared;
        shared.started();
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
