package io.rdma.srq.bench;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqBatchListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

import java.util.List;

/**
 * (b) a no-op batch listener MDB on this adapter under NOT_SUPPORTED (no transaction); up to maxBatchSize 32
 * messages per call. Otherwise configured as {@link SrqSinkNotSupported}.
 */
@MessageDriven(messageListenerInterface = SrqBatchListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = ThroughputCase.SRQ_ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "7496"),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "bench-batch-not-supported"),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "1024"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "initialFill", propertyValue = "1024"),
        @ActivationConfigProperty(propertyName = "replenishPolicy", propertyValue = "fixed"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "maxBatchSize", propertyValue = "32"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "8")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class SrqBatchSinkNotSupported implements SrqBatchListener {
    @Override
    public void onReceive(List<ReceiveCompletion> batch) {
        ThroughputCase.SRQ_BATCH_NOT_SUPPORTED.deliveries().delivered(batch.size());
    }
}
