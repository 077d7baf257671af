package io.rdma.srq.it.mdb;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * ordering=connection with maxConcurrency 8 (port {@value #PORT}), fed by {@link Sender} round-robin
 * over {@value #CONNECTIONS} connections (message i on connection i % {@value #CONNECTIONS}): the
 * messages of connection 0 take {@value #SLOW_MICROS} µs each, the others' {@value #FAST_MICROS} µs,
 * 100 times less. Both sleep (park), so the ratio holds on a loaded machine whose CPUs a spin would
 * share. Counts each side's deliveries.
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = Messages.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + SlowConnectionMdb.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = SlowConnectionMdb.NAME),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "1024"),
        @ActivationConfigProperty(propertyName = "initialFill", propertyValue = "1024"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "ordering", propertyValue = "connection"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "8")})
public class SlowConnectionMdb implements SrqReceiveListener {
    /** listenPort. */
    public static final int PORT = 7504;
    /** srqName and tally name. */
    public static final String NAME = "slow-connection";
    /** The payload marker. */
    public static final byte MARKER = 'W';
    /** Connections the test sends over; the first is the slow one. */
    public static final int CONNECTIONS = 8;
    /** Work per message of the slow connection, µs. */
    public static final int SLOW_MICROS = 25_000;
    /** Work per message of the others, µs. */
    public static final int FAST_MICROS = SLOW_MICROS / 100;
    /** Messages of the slow connection delivered. */
    public static final AtomicLong SLOW = new AtomicLong();
    /** Messages of the other connections delivered. */
    public static final AtomicLong FAST = new AtomicLong();

    /** Forgets earlier runs. */
    public static void reset() {
        SLOW.set(0);
        FAST.set(0);
    }

    @Override
    public void onReceive(ReceiveCompletion c) {
        Tally.of(NAME).record(c, MARKER);
        if (c.immData() % CONNECTIONS == 0) {
            try {
                Thread.sleep(SLOW_MICROS / 1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            SLOW.incrementAndGet();
        } else {
            LockSupport.parkNanos(FAST_MICROS * 1000L);
            FAST.incrementAndGet();
        }
    }
}
