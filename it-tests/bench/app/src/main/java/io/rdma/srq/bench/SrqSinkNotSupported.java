package io.rdma.srq.bench;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

/** (a) a no-op MDB on this adapter under NOT_SUPPORTED (no transaction). */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = ThroughputCase.SRQ_ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "7492"),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "bench-not-supported"),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "1024"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "initialFill", propertyValue = "1024"),
        @ActivationConfigProperty(propertyName = "replenishPolicy", propertyValue = "fixed"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "8")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class SrqSinkNotSupported implements SrqReceiveListener {
    @Override
    public void onReceive(ReceiveCompletion completion) {
        ThroughputCase.SRQ_NOT_SUPPORTED.deliveries().delivered();
    }
}
