package io.rdma.srq.bench;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import io.rdma.srq.api.SrqConnectionFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;

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
 * activation's poller thread).
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
        add(new JmsRoundTrip("jms-required", jms, JmsResponderRequired.QUEUE));
        add(new JmsRoundTrip("jms-not-supported", jms, JmsResponderNotSupported.QUEUE));
        add(new SrqRoundTrip("srq-required", srq, SrqResponderRequired.PORT));
        add(new SrqRoundTrip("srq-not-supported", srq, SrqResponderNotSupported.PORT));
        add(new SrqRoundTrip("srq-inline-required", srq, SrqResponderInlineRequired.PORT));
        add(new SrqRoundTrip("srq-inline-not-supported", srq, SrqResponderInlineNotSupported.PORT));
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
