package io.rdma.srq.ra.inbound.delivery;

import io.rdma.srq.api.WcStatus;
import io.rdma.srq.ra.support.RaLogger;
import io.rdma.srq.verbs.WorkCompletionArray;

/**
 * Checks a receive completion's wr_id and byte_len before the poller uses either: both come from the
 * device and its driver (ibv_poll_cq(3)), and a bad one would index outside the slab or repost a
 * buffer twice. The wr_id must name a posted receive buffer of the SRQ ({@link ReceiveBuffers#completed});
 * a successful completion's byte_len must fit a buffer (bufferSize). A bad completion is counted by
 * the poller as an error completion and never delivered; only a wr_id that names a posted buffer of
 * ours gets that buffer back. Logged WARN SRQRA0335 on the 1st, 2nd, 4th, 8th … bad completion,
 * with the count. The poller's thread only.
 */
final class CompletionCheck {
    private static final WcStatus[] STATUSES = WcStatus.values();
    private final String name;
    private final ReceiveBuffers buffers;
    private long bad;

    /**
     * @param name    the activation's SRQ name, for logs
     * @param buffers the SRQ's receive buffers
     */
    CompletionCheck(String name, ReceiveBuffers buffers) {
        this.name = name;
        this.buffers = buffers;
    }

    /**
     * Takes the buffer completion {@code i} names (no longer posted).
     *
     * @param wcs the polled completions
     * @param i   the completion's index in {@code wcs}
     * @return its buffer, or -1 when its wr_id names no posted buffer of the SRQ (logged)
     */
    int buffer(WorkCompletionArray wcs, int i) {
        int buffer = buffers.completed(wcs.wrId(i));
        if (buffer < 0) {
            rejected(wcs, i, "wr_id names no posted receive buffer (0.." + (buffers.count() - 1) + ")");
        }
        return buffer;
    }

    /**
     * @param wcs the polled completions
     * @param i   the index of a successful completion in {@code wcs}
     * @return whether its byte_len (unsigned) fits a buffer; logged when not
     */
    boolean fits(WorkCompletionArray wcs, int i) {
        int byteLen = wcs.byteLen(i);
        if (byteLen >= 0 && byteLen <= buffers.bufferSize()) {
            return true;
        }
        rejected(wcs, i, "byte_len above the bufferSize of " + buffers.bufferSize());
        return false;
    }

    /** @return bad completions seen */
    long bad() {
        return bad;
    }

    /**
     * @param wcs the polled completions
     * @param i   a completion's index in {@code wcs}
     * @return its status's name (ibv_wc_status_str(3)), or its number when no status has that number
     *         ({@link WorkCompletionArray#status} would throw)
     */
    static String status(WorkCompletionArray wcs, int i) {
        int code = wcs.statusCode(i);
        return code >= 0 && code < STATUSES.length ? STATUSES[code].name() : "unknown status " + code;
    }

    private void rejected(WorkCompletionArray wcs, int i, String why) {
        if (Long.bitCount(++bad) == 1) { // the 1st, 2nd, 4th, 8th …: a faulty device cannot flood the log
            RaLogger.LOG.badCompletion(name, why, wcs.wrId(i), Integer.toUnsignedString(wcs.byteLen(i)),
                    status(wcs, i), wcs.qpNum(i), bad);
        }
    }
}
