package io.rdma.srq.ra;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertNull;

/** Outside WildFly there is no suspend controller: the adapter runs without one (deactivations drain one by one). */
class ServerSuspendDrainTest {
    @Test
    void withoutWildFlyThereIsNothingToRegisterWith() {
        assertNull(ServerSuspendDrain.register(List::of));
    }
}
