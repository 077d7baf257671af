package io.rdma.srq.it;

import io.rdma.srq.api.SrqDeadLetter;
import io.rdma.srq.it.mdb.DeadLetterObserver;
import io.rdma.srq.it.mdb.FailingMdb;
import io.rdma.srq.it.mdb.Messages;
import io.rdma.srq.it.mdb.Sender;
import io.rdma.srq.it.mdb.Tally;
import jakarta.ejb.EJB;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Redelivery in WildFly under container-managed transactions (maxDeliveryAttempts 3, ordering=connection):
 * a system exception and a setRollbackOnly each make the adapter deliver the message again (the
 * rollback is learned through the interposed Synchronization), in order before the next message; a
 * message failing every attempt reaches the application's {@code @Observes SrqDeadLetter}.
 */
@ExtendWith(ArquillianExtension.class)
public class RedeliveryIT {
    private static final int MESSAGES = 100;

    @Deployment
    public static WebArchive app() {
        return Apps.war("redelivery.war", true)
                .addClasses(FailingMdb.class, DeadLetterObserver.class, Sender.class, Tally.class, Tally.Summary.class,
                        Messages.class);
    }

    @EJB
    private Sender sender;

    @Test
    public void rollbacksRedeliverAndTheLastFailureIsDeadLettered() throws Exception {
        Tally.reset();
        FailingMdb.reset();
        DeadLetterObserver.LETTERS.clear();
        assertEquals(MESSAGES, sender.send(FailingMdb.PORT, 1, MESSAGES, FailingMdb.MARKER));
        Tally.Summary s = Tally.of(FailingMdb.NAME).await(MESSAGES - 1, Duration.ofSeconds(30));
        assertEquals(MESSAGES - 1, s.total(), "every message committed once but the dead-lettered one: " + s);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (DeadLetterObserver.LETTERS.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }

        assertEquals(List.of(1, 2), FailingMdb.ATTEMPTS_SEEN.get(FailingMdb.FAILS_ONCE), "a system exception redelivers");
        assertEquals(List.of(1, 2), FailingMdb.ATTEMPTS_SEEN.get(FailingMdb.ROLLS_BACK_ONCE),
                "setRollbackOnly under CMT redelivers");
        assertEquals(List.of(1, 2, 3), FailingMdb.ATTEMPTS_SEEN.get(FailingMdb.ALWAYS_FAILS));
        assertEquals(IntStream.range(0, MESSAGES).boxed().toList(), new ArrayList<>(FailingMdb.ORDER),
                "one connection, ordering=connection: in order, a redelivery before the next message");

        assertEquals(1, DeadLetterObserver.LETTERS.size(), DeadLetterObserver.LETTERS.toString());
        SrqDeadLetter letter = DeadLetterObserver.LETTERS.getFirst();
        assertEquals(FailingMdb.NAME, letter.srqName());
        assertEquals(FailingMdb.ALWAYS_FAILS, letter.immData());
        assertEquals(FailingMdb.ATTEMPTS, letter.attempts());
        assertTrue(letter.connectionId() > 0, letter.toString());
        ByteBuffer expected = Messages.encode(ByteBuffer.allocate(Messages.SIZE), FailingMdb.ALWAYS_FAILS,
                FailingMdb.MARKER);
        byte[] bytes = new byte[Messages.SIZE];
        expected.get(bytes);
        assertArrayEquals(bytes, letter.copyPayload(), "the dead letter carries a copy of the payload");
        assertTrue(String.valueOf(letter.lastFailure()).contains("failed attempt 3")
                || String.valueOf(rootCause(letter.lastFailure())).contains("failed attempt 3"), letter.toString());
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }
}
