package io.rdma.srq.bench;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqBatchListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

import java.util.List;

/**
 * (b) a no-op batch listener MDB on this adapter under REQUIRED (a JTA transaction per batch); up to maxBatchSize 32
 * messages per call. Otherwise configured as {@link SrqSinkRequired}.
 */
@MessageDriven(messageListenerInterface = SrqBatchListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = ThroughputCase.SRQ_ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "7495"),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "bench-batch-required"),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "1024"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "initialFill", propertyValue = "1024"),
        @ActivationConfigProperty(propertyName = "replenishPolicy", propertyValue = "fixed"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "maxBatchSize", propertyValue = "32"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "8")})
@TransactionAttribute(TransactionAttributeType.REQUIRED)
public class SrqBatchSinkRequired implements SrqBatchListener {
    @Override
    public void onReceive(List<ReceiveCompletion> batch) {
        ThroughputCase.SRQ_BATCH_REQUIRED.deliveries().delivered(batch.size());
    }
}
