package io.rdma.srq.it.mdb;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/** The MDB whose figures StatisticsIT reads: srqName demo, the srq.monitor.srqName of srq.properties. */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = Messages.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + StatsMdb.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = StatsMdb.NAME),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "16"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4")})
public class StatsMdb implements SrqReceiveListener {
    /** listenPort. */
    public static final int PORT = 7486;
    /** srqName and tally name. */
    public static final String NAME = "demo";
    /** The payload marker. */
    public static final byte MARKER = 'S';

    @Override
    public void onReceive(ReceiveCompletion completion) {
        Tally.of(NAME).record(completion, MARKER);
    }
}
