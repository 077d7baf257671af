package io.rdma.srq.it.galleon;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import org.jboss.ejb3.annotation.ResourceAdapter;

/**
 * The MDB of {@link RdmaSrqSubsystemIT}'s application, deployed after the server booted: it echoes every
 * request, on the layer's adapter, as the activation {@value #SRQ_NAME}.
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = SubsystemEchoMdb.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + SubsystemEchoMdb.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = SubsystemEchoMdb.SRQ_NAME)})
@ResourceAdapter("rdma-srq")
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class SubsystemEchoMdb implements SrqReceiveListener {
    /** srqName: the activation's resource name under /subsystem=rdma-srq. */
    static final String SRQ_NAME = "subsystem-echo";
    /** listenAddress. */
    static final String ADDRESS = "10.0.0.1";
    /** listenPort. */
    static final int PORT = 7502;

    @Override
    public void onReceive(ReceiveCompletion completion) {
        Echo.reply(completion);
    }
}
