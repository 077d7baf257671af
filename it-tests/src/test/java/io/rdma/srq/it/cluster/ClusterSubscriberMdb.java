package io.rdma.srq.it.cluster;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

/**
 * A subscription by name: no listener ({@code listen=false}), {@value #CONNECTIONS} connections kept to
 * the providers of {@value ClusterEchoMdb#SERVICE} ({@code connectTo=service:cluster-echo}), spread
 * over every node that serves it and moved as nodes join and leave (each move logged SRQRA0507).
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "fabric"),
        @ActivationConfigProperty(propertyName = "device", propertyValue = "tcp"),
        @ActivationConfigProperty(propertyName = "listen", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "connectTo", propertyValue = "service:" + ClusterEchoMdb.SERVICE),
        @ActivationConfigProperty(propertyName = "connectCount", propertyValue = "" + ClusterSubscriberMdb.CONNECTIONS),
        @ActivationConfigProperty(propertyName = "reconnectInterval", propertyValue = "200"),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = ClusterSubscriberMdb.NAME),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "0"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "256")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ClusterSubscriberMdb implements SrqReceiveListener {
    /** The activation's name (srqName), as its log lines say it. */
    public static final String NAME = "cluster-subscriber";
    /** connectCount. */
    public static final int CONNECTIONS = 2;

    @Override
    public void onReceive(ReceiveCompletion completion) {
        // the providers never send unsolicited: the subscription's connections are what is shown
    }
}
