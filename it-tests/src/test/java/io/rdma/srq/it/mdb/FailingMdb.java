package io.rdma.srq.it.mdb;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.MessageDrivenContext;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An MDB under container-managed transactions (REQUIRED, the default) with maxDeliveryAttempts
 * {@value #ATTEMPTS} (port {@value #PORT}): message {@value #ALWAYS_FAILS} throws every time (a system
 * exception: the container rolls back and discards the instance) and is dead-lettered; message
 * {@value #FAILS_ONCE} throws on its first attempt only; message {@value #ROLLS_BACK_ONCE} returns
 * normally after setRollbackOnly on its first attempt. Every attempt is recorded; the tally counts the
 * attempts that committed.
 */
@MessageDriven(messageListenerInterface = SrqReceiveListener.class, activationConfig = {
        @ActivationConfigProperty(propertyName = "provider", propertyValue = "soft"),
        @ActivationConfigProperty(propertyName = "listenAddress", propertyValue = Messages.ADDRESS),
        @ActivationConfigProperty(propertyName = "listenPort", propertyValue = "" + FailingMdb.PORT),
        @ActivationConfigProperty(propertyName = "srqName", propertyValue = FailingMdb.NAME),
        @ActivationConfigProperty(propertyName = "srqMaxWr", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "srqLimit", propertyValue = "16"),
        @ActivationConfigProperty(propertyName = "bufferSize", propertyValue = "64"),
        @ActivationConfigProperty(propertyName = "maxDeliveryAttempts", propertyValue = "" + FailingMdb.ATTEMPTS),
        @ActivationConfigProperty(propertyName = "ordering", propertyValue = "connection"),
        // the whole stream may wait behind a message being redelivered: this test is about redelivery,
        // not the bound on what a stalled connection may hold (OrderedDeliveryTest covers that)
        @ActivationConfigProperty(propertyName = "maxHeldPerConnection", propertyValue = "256"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "2")})
public class FailingMdb implements SrqReceiveListener {
    /** listenPort. */
    public static final int PORT = 7493;
    /** srqName and tally name. */
    public static final String NAME = "failing";
    /** The payload marker. */
    public static final byte MARKER = 'F';
    /** maxDeliveryAttempts. */
    public static final int ATTEMPTS = 3;
    /** The message that fails every attempt. */
    public static final int ALWAYS_FAILS = 7;
    /** The message that fails its first attempt. */
    public static final int FAILS_ONCE = 11;
    /** The message whose first attempt's transaction is marked rollback-only. */
    public static final int ROLLS_BACK_ONCE = 13;
    /** Attempt numbers seen per message (imm_data), in order. */
    public static final Map<Integer, List<Integer>> ATTEMPTS_SEEN = new ConcurrentHashMap<>();
    /** imm_data in the order messages were first seen. */
    public static final List<Integer> ORDER = new CopyOnWriteArrayList<>();

    @Resource
    private MessageDrivenContext context;

    /** Forgets what earlier runs saw. */
    public static void reset() {
        ATTEMPTS_SEEN.clear();
        ORDER.clear();
    }

    @Override
    public void onReceive(ReceiveCompletion c) {
        int seq = c.immData();
        ATTEMPTS_SEEN.computeIfAbsent(seq, k -> new CopyOnWriteArrayList<>()).add(c.deliveryAttempt());
        if (c.deliveryAttempt() == 1) {
            ORDER.add(seq);
        }
        if (seq == ALWAYS_FAILS || (seq == FAILS_ONCE && c.deliveryAttempt() == 1)) {
            throw new IllegalStateException("message " + seq + " failed attempt " + c.deliveryAttempt());
        }
        if (seq == ROLLS_BACK_ONCE && c.deliveryAttempt() == 1) {
            context.setRollbackOnly();
            return;
        }
        Tally.of(NAME).record(c, MARKER);
    }
}
