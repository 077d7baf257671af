package io.rdma.srq.it.galleon;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import jakarta.inject.Inject;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server provisioned with the layer rdma-srq (and ee-core-profile-server) runs an application that uses the
 * adapter, with no other setup: no CLI script, no .rar deployed, no file copied into the server. The layer
 * brings the module io.rdma.srq and the resource adapter rdma-srq activated from it, whose default connection
 * definition java:/eis/SrqConnectionFactory (on the soft provider, the layer's default) serves both
 * {@code @Inject SrqConnectionFactory} and {@code @Resource(lookup = ...)}; a message-driven bean that names the
 * adapter {@code rdma-srq} receives on it.
 */
@ExtendWith(ArquillianExtension.class)
public class GalleonLayerProvisioningIT {

    /**
     * The application as a user packages it for the provisioned server: its manifest names the module
     * (meta-inf: the adapter jar's beans.xml, so the adapter's producer serves {@code @Inject}).
     */
    @Deployment
    public static WebArchive app() {
        return ShrinkWrap.create(WebArchive.class, "galleon-layer.war")
                .setManifest(new StringAsset("Manifest-Version: 1.0\nDependencies: io.rdma.srq meta-inf\n"))
                .addClasses(FactoryUser.class, EchoMdb.class, Echo.class);
    }

    @Inject
    private FactoryUser app;

    @Test
    public void injectedFactoryOpensAnSrqOnTheSoftDevice() throws Exception {
        FactoryUser.Seen seen = app.useInjected();
        assertEquals("soft", seen.provider(), seen.toString());
        assertTrue(seen.device().startsWith("soft"), "a soft device expected: " + seen);
        assertTrue(seen.srqMaxWr() >= FactoryUser.MAX_WR, "SRQ max_wr ≥ requested: " + seen);
    }

    @Test
    public void resourceLookupGetsTheSameDefinition() throws Exception {
        FactoryUser.Seen lookedUp = app.useLookedUp();
        FactoryUser.Seen injected = app.useInjected();
        assertEquals(injected.device(), lookedUp.device(), "one connection definition: " + injected + " / " + lookedUp);
        assertTrue(lookedUp.srqMaxWr() >= FactoryUser.MAX_WR, "SRQ max_wr ≥ requested: " + lookedUp);
    }

    @Test
    public void messageDrivenBeanOnTheLayersAdapterAnswersACall() throws Exception {
        byte[] reply = app.callEcho("ping".getBytes(StandardCharsets.US_ASCII));
        assertEquals("ping", new String(reply, StandardCharsets.US_ASCII));
    }
}
