package io.rdma.srq.ra.cluster;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The election where the server has no singleton policy (WildFly's standalone.xml, other
 * containers, container-less): this node is the only candidate, so every candidate is the primary at
 * once and stays it — a single node behaves as it does without {@code clusterSingleton}.
 */
public final class LocalSingletonElection implements SingletonElection {
    private final SingletonNames names = new SingletonNames();

    @Override
    public Candidacy join(String name, String policy, Candidate candidate) {
        if (!policy.isEmpty()) {
            throw new IllegalArgumentException("singletonPolicy: '" + policy + "' names a singleton policy, but this "
                    + "server has none (no singleton subsystem: " + describe() + "); leave singletonPolicy empty");
        }
        names.take(name);
        AtomicBoolean left = new AtomicBoolean();
        return new Candidacy() {
            @Override
            public boolean electedAtOnce() {
                return true;
            }

            @Override
            public void close() {
                if (left.compareAndSet(false, true)) {
                    names.release(name);
                }
            }
        };
    }

    @Override
    public String describe() {
        return "this node only (no singleton policy)";
    }
}
