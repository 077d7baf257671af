package io.rdma.srq.bench;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

/** (a) a no-op MDB on this adapter under CMT REQUIRED (a JTA transaction per message). */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = ThroughputCase.SRQ_ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "7491"),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "bench-required"),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "1024"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "initialFill", propertyValue = "1024"),
        @ActivationConfigProperty(propertyName = "replenishPolicy", propertyValue = "fixed"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "8")})
@TransactionAttribute(TransactionAttributeType.REQUIRED)
public class SrqSinkRequired implements SrqReceiveListener {
    @Override
    public void onReceive(ReceiveCompletion completion) {
        ThroughputCase.SRQ_REQUIRED.deliveries().delivered();
    }
}
