package io.rdma.srq.ra.cluster;

import java.time.Duration;
import java.util.List;

/**
 * Which activations serve which service, on this node and — on a WildFly cluster — on every member
 * of the group: activations {@link #publish} their endpoints, callers by name read
 * {@link #providers}. Two implementations: {@link LocalServiceDirectory} (this JVM only: a server
 * without clustering, other containers, tests) and {@code WildFlyServiceDirectory} (WildFly's
 * {@code ServiceProviderRegistrar} on its clustering cache, where the server has one).
 *
 * <p>A member that leaves the group takes its publications with it (the registrar drops a member's
 * registrations at the view change). Never a coordinator of ours: the directory holds no state of
 * its own beyond this node's publications.
 */
public interface ServiceDirectory {

    /**
     * Publishes an endpoint of this node until the returned publication is closed.
     *
     * @param endpoint the endpoint
     * @return the publication; closing it withdraws the endpoint (idempotent)
     * @throws IllegalArgumentException the service is published on this node already over another
     *                                  transport (a clashing publication), naming both
     */
    Publication publish(ServiceEndpoint endpoint);

    /**
     * @param service a service name
     * @return its providers as this node sees them now (on a cluster possibly a moment old), in a
     *         stable order: by node, then address
     */
    List<ServiceProvider> providers(String service);

    /** {@return the members of the group this node sees now, this node included} */
    List<String> members();

    /** {@return this node's name in the group} */
    String localNode();

    /**
     * How long an activation that withdraws {@code service} keeps serving before it stops accepting
     * calls, so that no caller routes a call to it after it stopped: twice the longest a reader may
     * still see the endpoint, plus a margin for a call picked just before the withdrawal.
     *
     * @param service the service withdrawn
     * @return the wait; zero where nobody ever asked for the service
     */
    Duration withdrawGrace(String service);

    /** {@return what it is, for logs and errors: e.g. "this JVM" or "WildFly group ee"} */
    String describe();

    /** A publication; {@link #close()} withdraws it. */
    interface Publication extends AutoCloseable {
        /** Withdraws the endpoint; idempotent. */
        @Override
        void close();
    }

    /** Something that has the adapter's directory: the resource adapter. */
    interface Source {
        /** {@return the adapter's service directory} */
        ServiceDirectory serviceDirectory();
    }
}
