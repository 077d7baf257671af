package io.rdma.srq.ra.inbound.delivery;

import io.rdma.srq.ra.inbound.config.InboundConfig;

import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CompletionChannel;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.ra.support.SpinBudget;

import java.time.Duration;
import java.util.Objects;

/**
 * How the poller waits after an empty poll (activation property pollMode): {@code busy} spins;
 * {@code event} arms the CQ (ibv_req_notify_cq(3)) and sleeps on the completion channel
 * (ibv_get_cq_event(3)), bounded; {@code adaptive} spins for {@value #ADAPTIVE_SPIN_NANOS} ns after
 * the last completion if {@link SpinBudget} gives it a slot (held while it spins, given back with
 * {@link #rest()}), else, and after that, sleeps as {@code event} does. Poller thread only.
 */
final class CompletionWait {
    /** Longest sleep on the channel, ms: returned buffers and deactivation are noticed within it. */
    static final long EVENT_WAIT_MS = 50;
    private static final long ADAPTIVE_SPIN_NANOS = 50_000;

    private final InboundConfig.PollMode mode;
    private final CompletionQueue cq;
    private final CompletionChannel channel;
    private boolean armed;
    /** Whether the poller holds a {@link SpinBudget} slot (adaptive mode). */
    private boolean spinning;

    /**
     * @param mode    the poll mode
     * @param cq      the polled CQ
     * @param channel its completion channel; may be null for {@code busy} only
     * @throws NullPointerException without a channel for {@code event} or {@code adaptive}
     */
    CompletionWait(InboundConfig.PollMode mode, CompletionQueue cq, CompletionChannel channel) {
        this.mode = mode;
        this.cq = cq;
        this.channel = mode == InboundConfig.PollMode.BUSY ? channel
                : Objects.requireNonNull(channel, "a completion channel for pollMode " + mode);
    }

    /**
     * Waits a little after an empty poll.
     *
     * @param lastWork nanoTime of the last completion
     * @param pending  whether the poller has other work (returned buffers to repost): then it never sleeps
     * @param draining deactivation is emptying the CQ: sleep 1 ms at most
     * @throws VerbsException the errno of ibv_req_notify_cq or of waiting on the channel
     */
    void idle(long lastWork, boolean pending, boolean draining) throws VerbsException {
        switch (mode) {
            case BUSY -> Thread.onSpinWait();
            case ADAPTIVE -> {
                if (System.nanoTime() - lastWork < ADAPTIVE_SPIN_NANOS
                        && (spinning || (spinning = SpinBudget.PROCESS.tryEnter()))) {
                    Thread.onSpinWait();
                } else {
                    rest();
                    sleepOnChannel(pending, draining);
                }
            }
            case EVENT -> sleepOnChannel(pending, draining);
        }
    }

    /**
     * Gives back the spin slot, if held: the poller found work, waits for an endpoint, or sleeps.
     * Poller thread only.
     */
    void rest() {
        if (spinning) {
            spinning = false;
            SpinBudget.PROCESS.exit();
        }
    }

    /**
     * First empty poll: arm the CQ and poll once more (a completion that arrived before the arming
     * raises no event). Second: sleep on the channel, bounded.
     */
    private void sleepOnChannel(boolean pending, boolean draining) throws VerbsException {
        if (!armed) {
            cq.requestNotify(false);
            armed = true;
            return;
        }
        if (!pending) {
            channel.getCqEvent(Duration.ofMillis(draining ? 1 : EVENT_WAIT_MS));
        }
        armed = false;
    }
}
