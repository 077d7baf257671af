package io.rdma.srq.it;

import io.rdma.srq.it.mdb.AlphaMdb;
import io.rdma.srq.it.mdb.BetaMdb;
import io.rdma.srq.it.mdb.Messages;
import io.rdma.srq.it.mdb.Sender;
import io.rdma.srq.it.mdb.Tally;
import jakarta.ejb.EJB;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Two MDBs, two activations on the same device (soft_rxe0) listening on different ports, each with
 * its own SRQ: sent at the same time, each stream arrives complete at its own MDB and nowhere else.
 */
@ExtendWith(ArquillianExtension.class)
public class TwoActivationsIT {
    private static final int TO_ALPHA = 3_000;
    private static final int TO_BETA = 4_500;

    @Deployment
    public static WebArchive app() {
        return Apps.war("two-activations.war", true)
                .addClasses(AlphaMdb.class, BetaMdb.class, Sender.class, Tally.class, Tally.Summary.class,
                        Messages.class);
    }

    @EJB
    private Sender sender;

    @Test
    public void eachActivationGetsItsOwnMessages() throws Exception {
        Tally.reset();
        CompletableFuture<Long> beta = CompletableFuture.supplyAsync(() -> {
            try {
                return sender.send(BetaMdb.PORT, 2, TO_BETA, BetaMdb.MARKER);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertEquals(TO_ALPHA, sender.send(AlphaMdb.PORT, 2, TO_ALPHA, AlphaMdb.MARKER));
        assertEquals(TO_BETA, beta.get());

        Tally.Summary a = Tally.of(AlphaMdb.NAME).await(TO_ALPHA, Duration.ofSeconds(30));
        Tally.Summary b = Tally.of(BetaMdb.NAME).await(TO_BETA, Duration.ofSeconds(30));
        // a message of the other stream would show as a problem (wrong marker) and a duplicate or excess
        assertEquals(TO_ALPHA, a.total(), "alpha: " + a);
        assertEquals(0, a.missing() + a.duplicated() + a.problems(), "alpha: " + a);
        assertEquals(TO_BETA, b.total(), "beta: " + b);
        assertEquals(0, b.missing() + b.duplicated() + b.problems(), "beta: " + b);
    }
}
