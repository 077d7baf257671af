package io.rdma.srq.it.mdb;

import io.rdma.srq.api.SrqDeadLetter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The application's observer of the adapter's dead letters. */
@ApplicationScoped
public class DeadLetterObserver {
    /** Dead letters seen by {@code @Observes}. */
    public static final List<SrqDeadLetter> LETTERS = new CopyOnWriteArrayList<>();

    /** @param letter fired on the delivering thread */
    public void onDeadLetter(@Observes SrqDeadLetter letter) {
        LETTERS.add(letter);
    }
}
