package io.rdma.srq.bench;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqBatchListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

import java.util.List;

/**
 * Server B's sink of the two-server throughput case {@code r-srq-batch-not-supported}: as
 * {@link SrqBatchSinkNotSupported}, on libfabric tcp (provider fabric) at
 * {@value ServerB#ADDRESS}:{@value #PORT}. Delivery starts inactive (jboss-ejb3.xml), as for
 * {@link FabricResponderRequired}.
 */
@MessageDriven(messageListenerInterface = SrqBatchListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "fabric"),
        @ActivationConfigProperty(propertyName = "device", propertyValue = "tcp"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = ServerB.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + FabricBatchSinkNotSupported.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "bench-fabric-batch-not-supported"),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "1024"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "initialFill", propertyValue = "1024"),
        @ActivationConfigProperty(propertyName = "replenishPolicy", propertyValue = "fixed"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "maxBatchSize", propertyValue = "32"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "8")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class FabricBatchSinkNotSupported implements SrqBatchListener {
    /** The activation's listenPort. */
    public static final int PORT = 7599;

    @Override
    public void onReceive(List<ReceiveCompletion> batch) {
        ThroughputCase.R_SRQ_BATCH_NOT_SUPPORTED.deliveries().delivered(batch.size());
    }
}
