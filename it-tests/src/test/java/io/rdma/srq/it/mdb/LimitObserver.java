package io.rdma.srq.it.mdb;

import io.rdma.srq.api.SrqLimitReached;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The application's observers of the adapter's SrqLimitReached events, synchronous and asynchronous. */
@ApplicationScoped
public class LimitObserver {
    /** Events seen by {@code @Observes}. */
    public static final List<SrqLimitReached> SYNC = new CopyOnWriteArrayList<>();
    /** Events seen by {@code @ObservesAsync}. */
    public static final List<SrqLimitReached> ASYNC = new CopyOnWriteArrayList<>();

    /** @param event fired on the adapter's thread */
    public void onLimit(@Observes SrqLimitReached event) {
        SYNC.add(event);
    }

    /** @param event fired asynchronously */
    public void onLimitAsync(@ObservesAsync SrqLimitReached event) {
        ASYNC.add(event);
    }
}
