package io.rdma.srq.ra.inbound;

import io.rdma.srq.api.ActivationState;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.management.ActivationControl;
import io.rdma.srq.ra.testing.SoftActivationTest;
import io.rdma.srq.ra.testing.SoftSender;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the rdma-srq subsystem's operations do to an activation ({@link ActivationControl}): a pause holds
 * delivery — the messages wait in the CQ, acknowledged, none lost — until resumed; a drain delivers what
 * was accepted within its timeout even while paused, reports it, and leaves the activation DRAINED:
 * accepting and delivering nothing more, refusing pause and resume.
 */
class ManagementControlTest extends SoftActivationTest {
    private SoftSender sender;

    private SrqActivation activateWithSender(String... properties) throws Exception {
        SrqActivation a = activate(set(spec("srqMaxWr", "256", "srqLimit", "0", "bufferSize", "64"), properties));
        sender = sender(a, 64);
        return a;
    }

    @Test
    void aPauseHoldsDeliveryUntilResumedAndLosesNothing() throws Exception {
        SrqActivation a = activateWithSender();
        a.pauseDelivery();
        for (int i = 0; i < 20; i++) {
            sender.send(i, 64, i);
        }
        sender.drain(Duration.ofSeconds(10));
        assertEquals(20, sender.acknowledged, "acknowledged: waiting in the CQ");
        Thread.sleep(200);
        assertEquals(0, a.statistics().delivered(), "nothing delivered while paused");
        assertTrue(a.statistics().paused(), "the gauge paused reads 1");
        assertEquals(0, a.statistics().pauses(), "not a pause after failures");
        a.resumeDelivery();
        await(() -> a.statistics().delivered() == 20, "all 20 delivered after resume");
        assertFalse(a.statistics().paused());
    }

    @Test
    void aDrainDeliversWhatWasAcceptedEvenWhilePausedAndThenAcceptsNothing() throws Exception {
        SrqActivation a = activateWithSender();
        a.pauseDelivery();
        for (int i = 0; i < 10; i++) {
            sender.send(i, 64, i);
        }
        sender.drain(Duration.ofSeconds(10));
        assertEquals(10, sender.acknowledged);
        ActivationControl.Drained d = a.drain(Duration.ofSeconds(5));
        assertEquals(new ActivationControl.Drained(10, 0), d, "the 10 accepted delivered, none left");
        assertEquals(10, a.statistics().delivered());
        assertTrue(a.quiesced(), "drained for good");
        assertEquals(ActivationState.DRAINED, a.state(), "shown as drained, not ready");
        IllegalStateException e = assertThrows(IllegalStateException.class, a::resumeDelivery);
        assertTrue(e.getMessage().contains("DRAINED") && e.getMessage().contains("start-delivery"), e.getMessage());
        assertThrows(IllegalStateException.class, a::pauseDelivery);
        assertEquals(new ActivationControl.Drained(0, 0), a.drain(Duration.ofSeconds(1)), "a second drain has nothing to do");
        assertEquals(ActivationState.DRAINED, a.state());
    }

    @Test
    void aDrainTimeoutMustBePositive() throws Exception {
        SrqActivation a = activateWithSender();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.drain(Duration.ZERO));
        assertTrue(e.getMessage().contains("drain timeout must be > 0"), e.getMessage());
        assertFalse(a.quiesced(), "a refused drain leaves the activation running");
    }

    @Test
    void theControlNamesTheEndpointClass() throws Exception {
        SrqActivation a = activateWithSender();
        assertEquals(TestEndpointFactory.Endpoint.class, a.endpointClass());
    }
}
