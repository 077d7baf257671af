package io.rdma.srq.ra.management;

import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.testing.SoftActivationTest;
import io.rdma.srq.ra.testing.SoftSender;
import org.jboss.jca.core.spi.statistics.StatisticsPlugin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The statistics plugins as WildFly uses them: names read once, before the activation exists (as
 * the resource-adapters subsystem registers them when the adapter is deployed), values read later.
 */
class StatisticsExposureTest extends SoftActivationTest {

    private SrqActivation activate(String srqName) throws Exception {
        return activate(spec("srqName", srqName, "srqMaxWr", "256", "srqLimit", "16", "bufferSize", "256"));
    }

    private void send(SrqActivation a, int count) throws Exception {
        SoftSender s = senders.isEmpty() ? sender(a, 64) : senders.getFirst();
        int before = endpoints.received.size();
        long deliveredBefore = a.statistics().delivered();
        for (int i = 0; i < count; i++) {
            s.send(i, 64, null);
        }
        s.drain(Duration.ofSeconds(20));
        await(() -> endpoints.received.size() == before + count, count + " deliveries");
        // a delivery is counted when its batch is done (after afterDelivery), a moment after onReceive
        await(() -> a.statistics().delivered() == deliveredBefore + count, count + " deliveries counted");
    }

    private static long number(StatisticsPlugin p, String name) {
        assertEquals(long.class, p.getType(name), name);
        return (Long) p.getValue(name);
    }

    @Test
    void anActivationStartedAfterTheNamesWereReadShowsInTheMonitorAndTheAdapterTotals() throws Exception {
        SrqActivationMonitor monitor = new SrqActivationMonitor();
        monitor.setSrqName("late");
        StatisticsPlugin perActivation = monitor.getStatistics();
        StatisticsPlugin adapter = ra.getStatistics();
        Set<String> names = Set.copyOf(perActivation.getNames());
        Set<String> adapterNames = Set.copyOf(adapter.getNames());
        assertEquals(0, number(perActivation, "active"));
        assertEquals(0, number(adapter, "activations"));
        assertEquals("", perActivation.getValue("device"));

        SrqActivation a = activate("late");
        send(a, 25);

        assertEquals(names, perActivation.getNames(), "the names never change");
        assertEquals(adapterNames, adapter.getNames());
        assertEquals(1, number(perActivation, "active"));
        assertEquals(1, number(perActivation, "healthy"));
        assertEquals("late", perActivation.getValue("srq-name"));
        assertEquals("soft", perActivation.getValue("provider"));
        assertEquals(a.deviceName(), perActivation.getValue("device"));
        assertEquals("1:ACTIVE", perActivation.getValue("port-state"));
        assertEquals(25, number(perActivation, "delivered"));
        assertEquals(25, number(perActivation, "completions"));
        assertEquals(1, number(perActivation, "connections"));
        assertEquals(a.statistics().posted(), number(perActivation, "receives-posted"));
        assertEquals(a.statistics().outstanding(), number(perActivation, "outstanding-receives"));
        assertEquals(1, number(adapter, "activations"));
        assertEquals(1, number(adapter, "healthy"));
        assertEquals(25, number(adapter, "delivered"));
        assertEquals(a.statistics(), monitor.activationStatistics().orElseThrow());

        SrqActivationMonitor other = new SrqActivationMonitor();
        other.setSrqName("not-running");
        assertEquals(0, number(other.getStatistics(), "active"));
        assertEquals(0, number(other.getStatistics(), "delivered"));
    }

    @Test
    void disabledStatisticsCollectNothingAndEnablingStartsTheCountersFromZero() throws Exception {
        SrqActivationMonitor monitor = new SrqActivationMonitor();
        monitor.setSrqName("switched");
        StatisticsPlugin p = monitor.getStatistics();
        SrqActivation a = activate("switched");
        send(a, 10);
        assertEquals(10, number(p, "delivered"));

        p.setEnabled(false);
        assertEquals(false, p.isEnabled());
        send(a, 7);
        assertEquals(0, number(p, "delivered"), "nothing collected while disabled");
        assertEquals(0, number(p, "outstanding-receives"), "gauges are not sampled either");
        assertEquals("soft", p.getValue("provider"), "what the device is still shows");

        p.setEnabled(true);
        assertEquals(0, number(p, "delivered"), "enabled again: counts from now");
        send(a, 4);
        assertEquals(4, number(p, "delivered"));
        assertEquals(21, a.statistics().delivered(), "the activation itself kept counting for its API");

        p.clear();
        assertEquals(0, number(p, "delivered"));
        send(a, 3);
        assertEquals(3, number(p, "delivered"));
    }

    @Test
    void theDefinitionShowsItsDeviceAndItsOpenPooledConnections() throws Exception {
        StatisticsPlugin p = mcf.getStatistics();
        assertEquals(1, number(p, "healthy"));
        assertEquals("soft", p.getValue("provider"));
        assertEquals("1:ACTIVE", p.getValue("port-state"));
        assertEquals(0, number(p, "open-connections"));
        try (SrqConnection c = factory.getConnection()) {
            c.openSrq("stats-a", new io.rdma.srq.api.SrqAttributes(64, 1, 0));
            assertEquals(1, number(p, "open-connections"));
            assertEquals(1, number(p, "srqs"));
            assertEquals(c.deviceName(), p.getValue("device"));
        }
        mcf.setPort("2");
        assertEquals(0, number(p, "healthy"), "port 2 of a one-port device");
        assertTrue(((String) p.getValue("port-state")).startsWith("unavailable: "), (String) p.getValue("port-state"));
        mcf.setSrqMaxWr("abc");
        assertTrue(((String) p.getValue("port-state")).contains("srqMaxWr"), "a bad property is named");
    }

    @Test
    void figureNamesAreWildFlyAttributeNamesAndUniquePerTable() {
        assertThrows(IllegalArgumentException.class, () -> Figure.counter("Delivered", "x", (Object o) -> 0));
        assertThrows(IllegalArgumentException.class,
                () -> new FigureStatistics<>(List.of(Figure.gauge("a", "x", (Object o) -> 0), Figure.gauge("a", "y", (Object o) -> 1)),
                        java.util.Optional::empty));
        for (List<? extends Figure<?>> table : List.of(StatisticsTable.ACTIVATION, StatisticsTable.ADAPTER, StatisticsTable.DEFINITION)) {
            assertEquals(table.size(), table.stream().map(Figure::name).distinct().count());
        }
        assertTrue(StatisticsTable.ADAPTER.stream().anyMatch(f -> f.name().equals("delivered") && f.kind() == Figure.Kind.COUNTER),
                "every activation counter is summed for the adapter");
    }
}
