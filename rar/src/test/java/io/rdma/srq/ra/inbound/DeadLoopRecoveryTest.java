package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;

import io.rdma.srq.api.ActivationState;
import io.rdma.srq.api.SrqDeviceStateChanged;
import io.rdma.srq.ra.management.ActivationView;
import io.rdma.srq.ra.management.Figure;
import io.rdma.srq.ra.management.StatisticsTable;
import io.rdma.srq.ra.testing.SoftActivationTest;
import io.rdma.srq.ra.testing.SoftSender;
import io.rdma.srq.verbs.soft.SoftProvider;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An activation whose poller dies — an OutOfMemoryError out of ibv_poll_cq, injected by the soft
 * device once — does not stay ACTIVE with nobody polling: it goes RECOVERING (health DOWN), counts
 * the failure in {@code loop-failures}, ends the run and opens a new one with its backoff, ACTIVE
 * again, and delivers again. The activation runs on soft_mlx5_0 (the device whose poll fails), the
 * senders on soft_rxe0.
 */
class DeadLoopRecoveryTest extends SoftActivationTest {
    private static final String DEVICE = "soft_mlx5_0";

    @Test
    void anErrorThatKillsThePollerMakesTheActivationRecoverAndDeliverAgain() throws Exception {
        SrqActivation a = activate("softProfile", "mlx5", "listenAddress", "10.77.1.2", "recoveryInitialDelay", "10",
                "recoveryMaxDelay", "200");
        send(sender(a, 64), 0, 50);
        await(() -> endpoints.received.size() == 50, "50 deliveries before the failure");

        SoftProvider.failNextPoll(DEVICE, new OutOfMemoryError("injected into ibv_poll_cq"));

        await(() -> figure("loop-failures") == 1, "the dead poller counted in loop-failures");
        await(() -> a.recoveries() == 1, "a new run opened");
        assertTrue(a.awaitState(ActivationState.ACTIVE, PATIENCE), "ACTIVE again: " + a.state());
        await(() -> transitions().equals(List.of("ACTIVE->RECOVERING", "RECOVERING->ACTIVE")),
                "left ACTIVE (health DOWN meanwhile), then came back: " + transitions());
        SrqDeviceStateChanged down = events.stream().filter(SrqDeviceStateChanged.class::isInstance)
                .map(SrqDeviceStateChanged.class::cast).filter(c -> c.to() == ActivationState.RECOVERING)
                .findFirst().orElseThrow();
        assertTrue(down.cause().contains("srq-poller-") && down.cause().contains("OutOfMemoryError"), down.cause());

        send(sender(a, 64), 1_000, 50); // the new run listens again
        await(() -> endpoints.received.size() == 100, "deliveries after the recovery");
        await(() -> a.statistics().delivered() == 100, "counters span both runs");
        assertEquals(0, a.statistics().undelivered(), "nothing was left in the CQ of the dead poller");
        assertEquals(0, a.lostAtDeviceLoss(), "a dead loop loses no device");
        assertEquals(1, figure("loop-failures"));
    }

    private static void send(SoftSender s, long first, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            s.send(first + i, 64, null);
        }
        s.drain(Duration.ofSeconds(10));
    }

    private List<String> transitions() {
        return events.stream().filter(SrqDeviceStateChanged.class::isInstance).map(SrqDeviceStateChanged.class::cast)
                .map(c -> c.from() + "->" + c.to()).filter(t -> !t.startsWith("STARTING")).toList();
    }

    private long figure(String name) {
        ActivationView view = ra.activationViews().getFirst();
        Figure<ActivationView> f = StatisticsTable.ACTIVATION.stream().filter(x -> x.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no figure " + name));
        return f.number().applyAsLong(view);
    }
}
