package io.rdma.srq.ra.support.admission;

import io.rdma.srq.verbs.testing.LogLines;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Connect requests whose accept fails (the peer can cause it: QPs or memory used up) are counted one
 * by one as ACCEPT_FAILED and logged as SRQRA0312 at most once per 10 s, the next line saying how
 * many were not logged.
 */
class AcceptFailureFloodLogTest {
    @Test
    void aFloodOfAcceptFailuresLogsOneLinePerIntervalAndCountsEveryOne() {
        AtomicLong nanos = new AtomicLong();
        Admission adm = new Admission("orders", new Admission.Policy(PeerFilter.parse(""), 10, 10, 1_000_000, List.of(),
                Duration.ofSeconds(30), 16), nanos::get, System::currentTimeMillis);
        InetSocketAddress peer = new InetSocketAddress(InetAddress.ofLiteral("10.77.1.2"), 40000);
        try (LogLines log = LogLines.capture("io.rdma.srq.ra")) {
            for (int i = 0; i < 1000; i++) {
                assertNull(adm.admit(peer, peer, new byte[0]));
                adm.acceptFailed(peer, "ENOMEM");
                nanos.addAndGet(1_000_000);
            }
            assertEquals(1, log.containing("SRQRA0312").size(), log.lines().toString());
            assertEquals(0, log.containing("SRQRA0200").size(), "one line per failure, not two");
            nanos.addAndGet(10_000_000_000L);
            assertNull(adm.admit(peer, peer, new byte[0]));
            adm.acceptFailed(peer, "ENOMEM");
            List<String> lines = log.containing("SRQRA0312");
            assertEquals(2, lines.size());
            assertTrue(lines.get(1).contains("999 more like it not logged"), lines.get(1));
        }
        assertEquals(1001, adm.counters().count(RejectReason.ACCEPT_FAILED));
        assertEquals(0, adm.connections(), "every slot given back");
    }
}
