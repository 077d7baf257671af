package io.rdma.srq.bench;

import java.util.Arrays;

/**
 * The throughput cases: a no-op sink MDB per transport and transaction attribute, 64-byte messages
 * sent from inside the server; (d) is rar's container-less ActivationPipelineBenchmark.
 */
public enum ThroughputCase {
    /** (a) this adapter, {@code SrqReceiveListener}, CMT REQUIRED ({@link SrqSinkRequired}) */
    SRQ_REQUIRED("a-srq-required", Transport.SRQ, "7491"),
    /** (a) this adapter, {@code SrqReceiveListener}, NOT_SUPPORTED ({@link SrqSinkNotSupported}) */
    SRQ_NOT_SUPPORTED("a-srq-not-supported", Transport.SRQ, "7492"),
    /** (b) this adapter, {@code SrqBatchListener} (maxBatchSize 32), CMT REQUIRED ({@link SrqBatchSinkRequired}) */
    SRQ_BATCH_REQUIRED("b-srq-batch-required", Transport.SRQ, "7495"),
    /** (b) this adapter, {@code SrqBatchListener} (maxBatchSize 32), NOT_SUPPORTED ({@link SrqBatchSinkNotSupported}) */
    SRQ_BATCH_NOT_SUPPORTED("b-srq-batch-not-supported", Transport.SRQ, "7496"),
    /** (c) Artemis in-VM, NON_PERSISTENT, CMT REQUIRED ({@link JmsSinkRequired}) */
    JMS_REQUIRED("c-jms-required", Transport.JMS, JmsSinkRequired.QUEUE),
    /** (c) Artemis in-VM, NON_PERSISTENT, NOT_SUPPORTED ({@link JmsSinkNotSupported}) */
    JMS_NOT_SUPPORTED("c-jms-not-supported", Transport.JMS, JmsSinkNotSupported.QUEUE),
    /**
     * Two servers, sent on A: B's {@link FabricBatchSinkNotSupported} over A's fabric connection
     * definition; B counts the deliveries (in this case there)
     */
    R_SRQ_BATCH_NOT_SUPPORTED("r-srq-batch-not-supported", Transport.FABRIC, "" + FabricBatchSinkNotSupported.PORT),
    /**
     * Two servers, sent on A: B's {@link JmsSinkNotSupported} over A's remote connection factory; B
     * counts the deliveries in {@link #JMS_NOT_SUPPORTED}
     */
    R_JMS_NOT_SUPPORTED("r-jms-not-supported", Transport.JMS_REMOTE, JmsSinkNotSupported.QUEUE);

    /** How the senders reach the sink. */
    public enum Transport {
        /** SrqPeer connections of pooled connections to the activation's listener (port) */
        SRQ,
        /** JMS producers on java:/ConnectionFactory (in-VM) to the queue (JNDI name) */
        JMS,
        /** as SRQ, on {@link ServerB#SRQ_FACTORY} to server B's activation on {@link ServerB#ADDRESS} (port) */
        FABRIC,
        /** as JMS, on {@link ServerB#JMS_FACTORY} to server B's queue (JNDI name) */
        JMS_REMOTE
    }

    /** The address of every SRQ sink activation (any address works on the soft device). */
    public static final String SRQ_ADDRESS = "10.0.0.1";

    private final String label;
    private final Transport transport;
    private final String destination;
    private final DeliveryCount deliveries = new DeliveryCount();

    ThroughputCase(String label, Transport transport, String destination) {
        this.label = label;
        this.transport = transport;
        this.destination = destination;
    }

    /** @return the name the driver and the results use */
    public String label() {
        return label;
    }

    /** @return how senders reach it */
    public Transport transport() {
        return transport;
    }

    /** @return the listen port (SRQ) or the queue's JNDI name (JMS) */
    public String destination() {
        return destination;
    }

    /** @return the sink's delivery count */
    public DeliveryCount deliveries() {
        return deliveries;
    }

    /**
     * @param label a {@link #label()}
     * @return its case
     * @throws IllegalArgumentException naming the known labels
     */
    public static ThroughputCase of(String label) {
        return Arrays.stream(values()).filter(c -> c.label.equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("case must be one of "
                        + Arrays.stream(values()).map(ThroughputCase::label).toList() + ", got '" + label + "'"));
    }
}
