package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.Verbs;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** librpma drives libibverbs devices only: on the soft device the API says so, with ENOSYS. */
class SoftRpmaTest {

    @Test
    void librpmaIsNotAvailableOnTheSoftDeviceAndSaysWhy() throws VerbsException {
        try (Context ctx = Verbs.provider(Verbs.SOFT).open("soft_rxe0")) {
            VerbsException e = assertThrows(VerbsException.class, ctx::openRpmaPeer);
            assertEquals(Errno.ENOSYS.value(), e.errno());
            assertEquals("rpma_peer_new", e.operation());
            assertTrue(e.getMessage().contains("librpma") && e.getMessage().contains("soft_rxe0"), e.getMessage());
        }
    }
}
