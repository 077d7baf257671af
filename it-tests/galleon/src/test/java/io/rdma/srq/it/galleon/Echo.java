package io.rdma.srq.it.galleon;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.VerbsException;

/** What the test applications' echo MDBs do with a request: send it back as it came. */
final class Echo {
    private Echo() {
    }

    /** @param completion a request: answered with its own payload */
    static void reply(ReceiveCompletion completion) {
        try {
            completion.reply(completion.payload());
        } catch (VerbsException e) {
            throw new IllegalStateException("echo of " + completion.length() + " bytes", e);
        }
    }
}
