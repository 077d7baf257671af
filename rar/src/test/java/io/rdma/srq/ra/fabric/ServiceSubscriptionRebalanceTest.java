package io.rdma.srq.ra.fabric;

import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import jakarta.resource.ResourceException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Subscriptions by name ({@code connectTo=service:NAME}) over the fabric provider, container-less: an
 * activation keeps {@code connectCount} connections spread over every provider of the service, moves
 * them when a provider leaves, and spreads them again when it comes back (a rebalance); a bad name is
 * refused naming connectTo.
 */
class ServiceSubscriptionRebalanceTest extends LibfabricAdapterTest {
    private final TestEndpointFactory second = new TestEndpointFactory();
    private final TestEndpointFactory subscriber = new TestEndpointFactory();

    private SrqActivation provide(TestEndpointFactory f, String srqName) throws Exception {
        SrqActivationSpec spec = base(srqName);
        spec.setListenAddress("127.0.0.1");
        spec.setListenPort("0");
        spec.setServiceName("feed");
        ra.endpointActivation(f, spec);
        return byName(srqName);
    }

    private SrqActivationSpec base(String srqName) throws ResourceException {
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider("fabric");
        spec.setDevice("tcp");
        spec.setSrqMaxWr("256");
        spec.setSrqLimit("0");
        spec.setSrqName(srqName);
        spec.setReconnectInterval("200");
        spec.setResourceAdapter(ra);
        return spec;
    }

    private SrqActivation byName(String srqName) {
        return ra.activations().stream().filter(a -> a.name().equals(srqName)).findFirst().orElseThrow();
    }

    private void subscribe(String connectTo, int count) throws Exception {
        SrqActivationSpec spec = base("subscriber");
        spec.setListen("false");
        spec.setConnectTo(connectTo);
        spec.setConnectCount(String.valueOf(count));
        ra.endpointActivation(subscriber, spec);
    }

    @Test
    void connectionsSpreadOverTheProvidersMoveWhenOneLeavesAndSpreadAgainWhenItReturns() throws Exception {
        SrqActivation a = provide(endpoints, "feed-a");
        SrqActivation b = provide(second, "feed-b");
        subscribe("service:feed", 4);
        waitUntil(() -> a.statistics().connections() == 2 && b.statistics().connections() == 2,
                "4 connections spread 2 + 2 over the two providers");

        ra.endpointDeactivation(second, null); // b withdraws and closes: its 2 connections move to a
        waitUntil(() -> a.statistics().connections() == 4, "all 4 connections on a once b left");

        SrqActivation b2 = provide(second, "feed-b"); // b again: the subscriber rebalances
        waitUntil(() -> a.statistics().connections() == 2 && b2.statistics().connections() == 2,
                "spread 2 + 2 again once b is back (a: " + a.statistics().connections() + ")");
        Thread.sleep(3 * 250);
        assertEquals(2, a.statistics().connections(), "stable: no further moves");
        assertEquals(2, b2.statistics().connections());
        SrqActivation sub = byName("subscriber");
        assertTrue(sub.statistics().rebalances() >= 2, "the moves back to b counted: " + sub.statistics());
        assertEquals(2, a.statistics().serviceProviders(), "a sees both providers of feed");
        assertEquals(0, sub.statistics().serviceProviders(), "the subscriber publishes nothing (listen=false)");
    }

    @Test
    void aServiceNameThatIsNotOneIsRefusedNamingConnectTo() throws Exception {
        ResourceException e = assertThrows(ResourceException.class, () -> subscribe("service:no spaces", 1));
        assertTrue(e.getMessage().contains("connectTo") && e.getMessage().contains("'service:no spaces'"), e.getMessage());
    }
}
