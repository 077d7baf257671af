package io.rdma.srq.it.galleon;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import org.jboss.ejb3.annotation.ResourceAdapter;

/**
 * A message-driven bean on the layer's adapter, named as the layer activates it ({@code rdma-srq}): it sends
 * every request back as it came. It listens on the soft fabric, which lives inside the server's JVM.
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = EchoMdb.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + EchoMdb.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = "echo")})
@ResourceAdapter("rdma-srq")
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class EchoMdb implements SrqReceiveListener {
    /** listenAddress. */
    static final String ADDRESS = "10.0.0.1";
    /** listenPort. */
    static final int PORT = 7501;

    @Override
    public void onReceive(ReceiveCompletion completion) {
        Echo.reply(completion);
    }
}
