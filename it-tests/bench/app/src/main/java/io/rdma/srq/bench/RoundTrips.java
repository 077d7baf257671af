package io.rdma.srq.bench;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import io.rdma.srq.api.SrqConnectionFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The request/reply cases by name. JMS: {@code jms-required} and {@code jms-not-supported}, the
 * responder MDB's transaction attribute. Pooled SRQs: {@code srq-required} and
 * {@code srq-not-supported} ({@link SrqRoundTrip}: a pooled connection's peer to
 * {@link SrqResponderRequired#PORT} or {@link SrqResponderNotSupported#PORT}, one
 * {@code SrqPeer.call} per {@link RoundTrip.Caller#call()}); {@code srq-inline-required} and
 * {@code srq-inline-not-supported} the same to responders with maxConcurrency 1
 * ({@link SrqResponderInlineRequired}, {@link SrqResponderInlineNotSupported}: delivered on the
 * activation's poller thread). Across two servers ({@code it-tests/bench/two-servers.sh}, from
 * server A): {@code remote-jms-required}/{@code remote-jms-not-supported} to B's JMS responders
 * through {@link ServerB#JMS_FACTORY}, {@code remote-srq-required}/{@code remote-srq-not-supported}
 * to B's {@link FabricResponderRequired}/{@link FabricResponderNotSupported} through
 * {@link ServerB#SRQ_FACTORY}.
 */
@ApplicationScoped
public class RoundTrips {
    /** The longest a caller waits for one reply. */
    public static final long REPLY_TIMEOUT_MILLIS = 10_000;

    @Resource(lookup = "java:/ConnectionFactory")
    ConnectionFactory jms;

    @Inject
    SrqConnectionFactory srq;

    private final Map<String, RoundTrip> cases = new LinkedHashMap<>();

    @PostConstruct
    void register() {
        add(new JmsRoundTrip("jms-required", () -> jms, JmsResponderRequired.QUEUE));
        add(new JmsRoundTrip("jms-not-supported", () -> jms, JmsResponderNotSupported.QUEUE));
        add(new SrqRoundTrip("srq-required", () -> srq, local(SrqResponderRequired.PORT)));
        add(new SrqRoundTrip("srq-not-supported", () -> srq, local(SrqResponderNotSupported.PORT)));
        add(new SrqRoundTrip("srq-inline-required", () -> srq, local(SrqResponderInlineRequired.PORT)));
        add(new SrqRoundTrip("srq-inline-not-supported", () -> srq, local(SrqResponderInlineNotSupported.PORT)));
        // server A to server B (two-servers.sh): B's JMS responders over A's remote connection factory,
        // B's fabric responders over A's fabric connection definition
        add(new JmsRoundTrip("remote-jms-required", ServerB::jms, JmsResponderRequired.QUEUE));
        add(new JmsRoundTrip("remote-jms-not-supported", ServerB::jms, JmsResponderNotSupported.QUEUE));
        add(new SrqRoundTrip("remote-srq-required", ServerB::srq, ServerB.activation(FabricResponderRequired.PORT)));
        add(new SrqRoundTrip("remote-srq-not-supported", ServerB::srq,
                ServerB.activation(FabricResponderNotSupported.PORT)));
    }

    private static InetSocketAddress local(int port) {
        return new InetSocketAddress(ThroughputCase.SRQ_ADDRESS, port);
    }

    private void add(RoundTrip trip) {
        cases.put(trip.label(), trip);
    }

    /**
     * @param label a case name
     * @return its transport
     * @throws IllegalArgumentException naming the known cases
     */
    public RoundTrip of(String label) {
        RoundTrip t = cases.get(label);
        if (t == null) {
            throw new IllegalArgumentException("case must be one of " + cases.keySet() + ", got '" + label + "'");
        }
        return t;
    }
}
