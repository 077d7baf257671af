package io.rdma.srq.ra.inbound;

import jakarta.resource.spi.work.HintsContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkContext;
import jakarta.resource.spi.work.WorkContextProvider;

import java.io.Serial;
import java.util.List;

/**
 * A loop that runs for the activation's life, marked with the LONGRUNNING hint so the container
 * gives it a thread of its own rather than one of its short-task pool (JCA 2.1 §11.6).
 */
final class LongRunningWork implements Work, WorkContextProvider {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String name;
    private final Runnable loop;
    private final Runnable release;

    LongRunningWork(String name, Runnable loop, Runnable release) {
        this.name = name;
        this.loop = loop;
        this.release = release;
    }

    @Override
    public void run() {
        Thread t = Thread.currentThread();
        String old = t.getName();
        t.setName(name);
        try {
            loop.run();
        } finally {
            t.setName(old);
        }
    }

    @Override
    public void release() {
        release.run();
    }

    @Override
    public List<WorkContext> getWorkContexts() {
        HintsContext hints = new HintsContext();
        hints.setName(name);
        hints.setHint(HintsContext.LONGRUNNING_HINT, Boolean.TRUE);
        return List.of(hints);
    }
}
