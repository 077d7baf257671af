package io.rdma.srq.it.mdb;

import io.rdma.srq.api.SrqLimitReached;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An application observer that blocks: the first {@link SrqLimitReached} it sees holds the thread
 * it is called on for {@value #BLOCK_SECONDS} s (or until {@link #release()}); later events return at once.
 */
@ApplicationScoped
public class BlockingLimitObserver {
    /** How long the first event blocks, s. */
    public static final int BLOCK_SECONDS = 10;
    private static final AtomicBoolean FIRST = new AtomicBoolean(true);
    private static final CountDownLatch RELEASE = new CountDownLatch(1);
    private static final AtomicLong BLOCKED_AT = new AtomicLong();
    private static final AtomicLong ENDED_AT = new AtomicLong();

    /** @param event fired by the adapter */
    public void onLimit(@Observes SrqLimitReached event) throws InterruptedException {
        if (FIRST.getAndSet(false)) {
            BLOCKED_AT.set(System.currentTimeMillis());
            try {
                RELEASE.await(BLOCK_SECONDS, TimeUnit.SECONDS);
            } finally {
                ENDED_AT.set(System.currentTimeMillis());
            }
        }
    }

    /** @return whether the first event's call is blocked now */
    public static boolean blocking() {
        return BLOCKED_AT.get() != 0 && ENDED_AT.get() == 0;
    }

    /** @return {@code blockedAt=… endedAt=…}, wall clock ms, 0 for not yet */
    public static String state() {
        return "blockedAt=" + BLOCKED_AT.get() + " endedAt=" + ENDED_AT.get();
    }

    /** Ends the blocked call now. */
    public static void release() {
        RELEASE.countDown();
    }
}
