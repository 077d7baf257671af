package io.rdma.srq.ra.cluster;

/**
 * Which node of the cluster delivers for a cluster-singleton activation ({@code clusterSingleton=true}):
 * one at a time, the next one taking over when it leaves. Two implementations: {@link LocalSingletonElection}
 * (a server without a singleton policy, other containers, tests: this node is the only candidate, so it
 * delivers at once) and {@code WildFlySingletonElection} (WildFly's singleton policy — the singleton
 * subsystem's default policy on the {@code server} cache container — elects among the nodes whose
 * candidate of that name is installed; never an election of ours).
 *
 * <p>At most one candidate per name on a node: a second is a clash, refused naming the property.
 */
public interface SingletonElection {

    /**
     * Enters a candidate. With {@link Candidacy#electedAtOnce()} the caller is the primary now and
     * opens itself; otherwise {@link Candidate#elected()} is called when (and each time) this node is
     * elected, {@link Candidate#deposed()} when it no longer is.
     *
     * @param name      the singleton's name: the same on every node ({@code serviceName}, else srqName, else the
     *                  endpoint class's simple name)
     * @param policy    the singleton policy that elects ({@code singletonPolicy}): "" for the server's default
     * @param candidate what is told of elections
     * @return the candidacy; closing it leaves the election (another node is elected)
     * @throws IllegalArgumentException naming clusterSingleton: this node has a candidate of that name already;
     *                                  naming singletonPolicy: no such policy here
     */
    Candidacy join(String name, String policy, Candidate candidate);

    /** {@return what it is, for logs: e.g. "WildFly's singleton policy" or "this node only"} */
    String describe();

    /** Told of this node's elections, on the election's thread (WildFly: an MSC thread). */
    interface Candidate {
        /** This node is the primary now: open and deliver. Must not throw. */
        void elected();

        /** This node is no longer the primary: stop delivering (drain what was accepted). Must not throw. */
        void deposed();
    }

    /** One candidate's place in the election. */
    interface Candidacy extends AutoCloseable {
        /** {@return whether the candidate is the primary from the start, without a call of elected (the local election)} */
        boolean electedAtOnce();

        /**
         * Leaves the election; idempotent. Another node may be elected once this returns, and a
         * candidate of the same name may join again. Not to be called from {@link Candidate#elected()}
         * (WildFly: it waits for the service whose start is running to be removed).
         */
        @Override
        void close();
    }

    /** Something that has the adapter's election: the resource adapter. */
    interface Source {
        /** {@return the adapter's singleton election} */
        SingletonElection singletonElection();
    }
}
