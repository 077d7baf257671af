package io.rdma.srq.it.mdb;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * An MDB on soft_mlx5_0, which {@code LateDeviceIT} removes before deploying it: its activation is
 * STARTING until the device is added, then ACTIVE and delivering.
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "softProfile", propertyValue = "mlx5"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = Messages.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + LateMdb.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = LateMdb.NAME),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "16"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "recoveryInitialDelay", propertyValue = "50"),
        @ActivationConfigProperty(propertyName = "recoveryMaxDelay", propertyValue = "500")})
public class LateMdb implements SrqReceiveListener {
    /** listenPort. */
    public static final int PORT = 7493;
    /** srqName and tally name. */
    public static final String NAME = "late";
    /** The soft device it uses. */
    public static final String DEVICE = "soft_mlx5_0";
    /** The payload marker. */
    public static final byte MARKER = 'L';

    @Override
    public void onReceive(ReceiveCompletion completion) {
        Tally.of(NAME).record(completion, MARKER);
    }
}
