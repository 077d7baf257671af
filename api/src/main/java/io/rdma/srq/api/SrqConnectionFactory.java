package io.rdma.srq.api;

import jakarta.resource.Referenceable;
import jakarta.resource.ResourceException;

import java.io.Serializable;
import java.util.List;

/**
 * The connection factory applications look up ({@code @Resource(lookup = "java:/eis/SrqConnectionFactory")})
 * or inject ({@code @Inject SrqConnectionFactory}, {@code @Inject @SrqFactory("java:/eis/Other")}).
 * Connections come from the container's pool: each wraps one device context, protection domain and
 * SRQ pool, configured by the administrator.
 */
public interface SrqConnectionFactory extends Serializable, Referenceable {

    /**
     * Gets a connection from the pool; close it (try-with-resources) to return it.
     *
     * @return a connection handle
     * @throws ResourceException when the pool is exhausted (after the container's blocking timeout) or
     *                           the device cannot be opened; the message names the device and errno
     */
    SrqConnection getConnection() throws ResourceException;

    /**
     * The counters of the message-endpoint activations (MDBs) running on the resource adapter this
     * factory belongs to: posted, completed and delivered messages, endpoint failures, error
     * completions, limit events, outstanding receives, fill level, connections.
     *
     * @return one snapshot per activation; empty when none runs
     */
    List<ActivationStatistics> activationStatistics();
}
