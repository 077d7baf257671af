package io.rdma.srq.bench;

import io.rdma.srq.api.SrqConnectionFactory;
import jakarta.jms.ConnectionFactory;

import javax.naming.InitialContext;
import javax.naming.NamingException;
import java.net.InetSocketAddress;

/**
 * How server A reaches server B in the two-server cases ({@code it-tests/bench/two-servers.sh}):
 * Artemis through {@value #JMS_FACTORY} (a connection factory of A's messaging subsystem whose
 * http-connector points at B's http-acceptor: WildFly's remote connector), the adapter through
 * {@value #SRQ_FACTORY} (the connection definition of deployment's fabric.cli: provider fabric,
 * libfabric tcp) to B's activations on {@value #ADDRESS}. Both looked up when a case first runs, so
 * that a single server without them deploys the war as before.
 */
final class ServerB {
    /** A's remote Artemis connection factory (two-servers.cli). */
    static final String JMS_FACTORY = "java:/jms/bench/RemoteB";
    /** A's fabric connection definition (deployment's fabric.cli). */
    static final String SRQ_FACTORY = "java:/eis/SrqFabric";
    /** B's fabric activations listen here (loopback: both servers on one machine). */
    static final String ADDRESS = "127.0.0.1";

    private ServerB() {
    }

    static ConnectionFactory jms() throws NamingException {
        return InitialContext.doLookup(JMS_FACTORY);
    }

    static SrqConnectionFactory srq() throws NamingException {
        return InitialContext.doLookup(SRQ_FACTORY);
    }

    static InetSocketAddress activation(int port) {
        return new InetSocketAddress(ADDRESS, port);
    }
}
