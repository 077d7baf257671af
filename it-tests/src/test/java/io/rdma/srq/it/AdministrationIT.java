package io.rdma.srq.it;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.as.arquillian.container.ManagementClient;
import org.jboss.as.controller.client.OperationBuilder;
import org.jboss.as.controller.client.helpers.Operations;
import org.jboss.dmr.ModelNode;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.File;
import java.io.InputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an administrator sees through the management API: the configuration configure.cli left,
 * and a connection definition with a bad property failing with a message that names the property
 * (both ways an administrator configures one: a rar with its own ironjacamar.xml, and the CLI).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class AdministrationIT {
    private static final ModelNode BAD_RA = Operations.createAddress("subsystem", "resource-adapters",
            "resource-adapter", "srq-bad");

    @ArquillianResource
    private ManagementClient management;

    /** Nothing to test inside; Arquillian provides the ManagementClient only around a deployment. */
    @Deployment(testable = false)
    public static WebArchive none() {
        return Apps.war("administration.war", false);
    }

    @Test
    public void configureCliResult() throws Exception {
        assertEquals("OK", Management.attribute(management, Operations.createAddress("deployment", Apps.RAR),
                "status").asString());
        assertEquals(Apps.RAR, Management.attribute(management, Operations.createAddress("subsystem", "ejb3"),
                "default-resource-adapter-name").asString(), "MDBs without @ResourceAdapter use the adapter");
        ModelNode orders = Management.ok(management, Operations.createReadResourceOperation(
                Operations.createAddress("subsystem", "resource-adapters", "resource-adapter", "srq-orders"), true));
        assertEquals(Apps.RAR, orders.get("archive").asString());
        ModelNode cd = orders.get("connection-definitions", "SrqOrders");
        assertEquals("java:/eis/SrqOrders", cd.get("jndi-name").asString());
        assertEquals("soft", cd.get("config-properties", "provider", "value").asString());
        assertTrue(cd.get("max-pool-size").asInt() >= 1, cd.toString());
    }

    /** A second copy of the adapter whose own ironjacamar.xml says srqMaxWr=abc: the deploy fails, naming it. */
    @Test
    public void rarWithNonNumericSrqMaxWrFailsToDeployNamingTheProperty() throws Exception {
        ResourceAdapterArchive bad = ShrinkWrap.create(ZipImporter.class, "srq-bad.rar")
                .importFrom(new File(System.getProperty("srq.rar.file")))
                .as(ResourceAdapterArchive.class);
        bad.delete("META-INF/ironjacamar.xml");
        bad.add(new StringAsset(ironjacamar("java:/eis/SrqBad", "abc")), "META-INF/ironjacamar.xml");

        ModelNode add = Operations.createAddOperation(Operations.createAddress("deployment", bad.getName()));
        add.get("enabled").set(true);
        add.get("content").add().get("input-stream-index").set(0);
        ModelNode response;
        try (InputStream in = bad.as(ZipExporter.class).exportAsInputStream()) {
            response = management.getControllerClient().execute(OperationBuilder.create(add).addInputStream(in).build());
        }
        try {
            assertFalse(Operations.isSuccessfulOutcome(response), "deploy must fail: " + response);
            String failure = Operations.getFailureDescription(response).asString();
            assertTrue(failure.contains("srqMaxWr must be an integer") && failure.contains("'abc'"),
                    "the failure names the property and the value: " + failure);
        } finally {
            // a failed deploy is rolled back; make sure nothing is left if it was not
            Management.execute(management, Operations.createRemoveOperation(
                    Operations.createAddress("deployment", bad.getName())));
        }
        assertEquals("OK", Management.attribute(management, Operations.createAddress("deployment", Apps.RAR),
                "status").asString(), "the adapter itself is untouched");
    }

    /**
     * The CLI way: a connection definition with srqMaxWr=0 on the deployed archive, then :activate.
     * WildFly's answer to the operation is only "WFLYJCA0046: Failed to start RA deployment"; the
     * adapter's message naming the property is in server.log.
     */
    @Test
    public void cliDefinitionWithZeroSrqMaxWrFailsToActivateNamingThePropertyInTheLog() throws Exception {
        ModelNode cd = BAD_RA.clone().add("connection-definitions", "SrqBad");
        Operations.CompositeOperationBuilder setup = Operations.CompositeOperationBuilder.create();
        ModelNode ra = Operations.createAddOperation(BAD_RA);
        ra.get("archive").set(Apps.RAR);
        ra.get("transaction-support").set("NoTransaction");
        setup.addStep(ra);
        ModelNode def = Operations.createAddOperation(cd);
        def.get("class-name").set("io.rdma.srq.ra.outbound.SrqManagedConnectionFactory");
        def.get("jndi-name").set("java:/eis/SrqBad");
        setup.addStep(def);
        ModelNode prop = Operations.createAddOperation(cd.clone().add("config-properties", "srqMaxWr"));
        prop.get("value").set("0");
        setup.addStep(prop);
        Management.ok(management, setup.build().getOperation());
        try {
            ModelNode response = Management.execute(management, Operations.createOperation("activate", BAD_RA));
            assertFalse(Operations.isSuccessfulOutcome(response), "activation must fail: " + response);
            assertTrue(Operations.getFailureDescription(response).asString().contains("WFLYJCA0046"), response.toString());

            ModelNode read = Operations.createOperation("read-log-file",
                    Operations.createAddress("subsystem", "logging", "log-file", "server.log"));
            read.get("lines").set(200);
            read.get("tail").set(true);
            String log = String.join("\n", Management.ok(management, read).asList().stream().map(ModelNode::asString).toList());
            assertTrue(log.contains("InvalidPropertyException: srqMaxWr must be in 1.."),
                    "server.log names the property:\n" + log);
        } finally {
            Management.ok(management, Operations.createRemoveOperation(BAD_RA));
        }
        assertEquals("OK", Management.attribute(management, Operations.createAddress("deployment", Apps.RAR),
                "status").asString(), "the adapter itself is untouched");
    }

    private static String ironjacamar(String jndiName, String srqMaxWr) {
        return """
                <ironjacamar xmlns="urn:jboss:ironjacamar:1.3">
                  <transaction-support>NoTransaction</transaction-support>
                  <connection-definitions>
                    <connection-definition class-name="io.rdma.srq.ra.outbound.SrqManagedConnectionFactory"
                                           jndi-name="%s" pool-name="SrqBad">
                      <config-property name="srqMaxWr">%s</config-property>
                    </connection-definition>
                  </connection-definitions>
                </ironjacamar>
                """.formatted(jndiName, srqMaxWr);
    }
}
