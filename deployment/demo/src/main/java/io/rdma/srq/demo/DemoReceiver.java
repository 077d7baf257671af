package io.rdma.srq.demo;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqBatchListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;

import java.util.List;

/**
 * The demo's message-driven bean: a batch listener, one call (and one container transaction) per
 * batch of up to maxBatchSize 32 messages received on the activation's SRQ — three times the rate of
 * one call per message in WildFly (it-tests/bench/RESULTS.md, cases (a) and (b)). No
 * {@code @ResourceAdapter}: configure.cli makes the adapter (the layer's rdma-srq, or srq-rar.rar) the ejb3
 * default resource adapter.
 *
 * <p>The activation listens (rdma_cm) on {@value DemoReceiver#LISTEN_ADDRESS}:{@value DemoReceiver#LISTEN_PORT};
 * on the soft device any address works. It starts with 128 receive WRs posted and the one-shot limit
 * armed at 64: a burst that outruns the 8 endpoints makes the SRQ fall below it, and the adapter
 * fires {@code SrqLimitReached} and doubles the fill level (replenishPolicy grow) up to srqMaxWr.
 */
@MessageDriven(name = "DemoReceiver", messageListenerInterface = SrqBatchListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "auto"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = DemoReceiver.LISTEN_ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + DemoReceiver.LISTEN_PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = DemoReceiver.SRQ_NAME),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "1024"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "initialFill", propertyValue = "128"),
        @ActivationConfigProperty(propertyName = "replenishPolicy", propertyValue = "grow"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "" + DemoReceiver.BUFFER_SIZE),
        @ActivationConfigProperty(propertyName = "pollMode", propertyValue = "adaptive"),
        @ActivationConfigProperty(propertyName = "maxBatchSize", propertyValue = "32"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "8")})
public class DemoReceiver implements SrqBatchListener {
    /** The rdma_cm address the activation listens on (any address works on the soft device). */
    public static final String LISTEN_ADDRESS = "10.0.0.1";
    /** Its port. */
    public static final int LISTEN_PORT = 7471;
    /** The activation's SRQ name. */
    public static final String SRQ_NAME = "demo";
    /** Bytes per receive buffer: the largest message the demo sends. */
    public static final int BUFFER_SIZE = 4096;

    @Inject
    DemoCounters counters;

    @Override
    public void onReceive(List<ReceiveCompletion> batch) {
        for (ReceiveCompletion completion : batch) {
            counters.delivered(completion.length());
        }
    }
}
