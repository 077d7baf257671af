package io.rdma.srq.ra.management;

import io.rdma.srq.api.ActivationState;
import io.rdma.srq.api.ActivationStatistics;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Readiness (MicroProfile Health): DOWN while any activation is not ACTIVE. */
class ActivationReadinessTest {

    private static ActivationView view(String name, ActivationState state) {
        return new ActivationView(ActivationStatistics.builder().srqName(name).device("soft_rxe0").build(), DeviceState.unavailable("soft", "soft_rxe0", state.name()),
                new ActivationLifecycle(state, 0, 0), null);
    }

    @Test
    void readyOnlyWhileEveryActivationIsActive() {
        assertTrue(ActivationReadiness.of(List.of()).ready(), "no activation: nothing to wait for");
        assertTrue(ActivationReadiness.of(List.of(view("a", ActivationState.ACTIVE), view("b", ActivationState.ACTIVE)))
                .ready());
        for (ActivationState notActive : List.of(ActivationState.STARTING, ActivationState.RECOVERING,
                ActivationState.FAILED, ActivationState.DRAINED)) {
            ActivationReadiness r = ActivationReadiness.of(List.of(view("a", ActivationState.ACTIVE),
                    view("b", notActive)));
            assertFalse(r.ready(), notActive + " makes readiness DOWN");
            assertEquals(Map.of("a", ActivationState.ACTIVE, "b", notActive), r.states());
        }
    }

    @Test
    void twoActivationsOfOneNameReportTheOneThatIsNotActive() {
        ActivationReadiness r = ActivationReadiness.of(List.of(view("a", ActivationState.ACTIVE),
                view("a", ActivationState.RECOVERING)));
        assertFalse(r.ready());
        assertEquals(Map.of("a", ActivationState.RECOVERING), r.states());
    }
}
