package io.rdma.srq.it;

import io.rdma.srq.it.mdb.AdmissionServlet;
import io.rdma.srq.it.mdb.HardenedMdb;
import io.rdma.srq.it.mdb.Messages;
import io.rdma.srq.it.mdb.Tally;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.as.arquillian.container.ManagementClient;
import org.jboss.as.controller.client.helpers.Operations;
import org.jboss.dmr.ModelNode;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hardened configuration of the README, done as an administrator does it: the admission key is
 * encrypted with a key held in an Elytron secret-key credential store, and the resource adapter's
 * authKeys is set to the {@code ${ENC::...}} expression, so standalone.xml holds ciphertext only. An
 * MDB naming the key's alias admits the pool whose connection definition names it too, and rejects
 * (NO_TOKEN, in the reject's private data) the pool that presents no token.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class HardenedAdmissionIT {
    private static final String APP = "hardened-app";
    private static final String RA_NAME = "srq-hardened";
    private static final ModelNode STORE = Operations.createAddress("subsystem", "elytron",
            "secret-key-credential-store", "srq-it-keys");
    private static final ModelNode RESOLVER = Operations.createAddress("subsystem", "elytron", "expression", "encryption");
    private static final ModelNode RA = Operations.createAddress("subsystem", "resource-adapters", "resource-adapter", RA_NAME);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Deployment(name = APP, managed = false, testable = false)
    public static WebArchive app() {
        return Apps.war(APP + ".war", false)
                .addClasses(HardenedMdb.class, AdmissionServlet.class, Tally.class, Tally.Summary.class, Messages.class)
                .addAsWebInfResource(new StringAsset("""
                        <?xml version="1.0" encoding="UTF-8"?>
                        <jboss:ejb-jar xmlns:jboss="urn:jboss:jakartaee:1.0" xmlns="https://jakarta.ee/xml/ns/jakartaee"
                                       xmlns:r="urn:resource-adapter-binding:2.0" version="4.0" impl-version="2.0">
                          <assembly-descriptor>
                            <r:resource-adapter-binding>
                              <ejb-name>HardenedMdb</ejb-name>
                              <r:resource-adapter-name>%s</r:resource-adapter-name>
                            </r:resource-adapter-binding>
                          </assembly-descriptor>
                        </jboss:ejb-jar>
                        """.formatted(RA_NAME)), "jboss-ejb3.xml");
    }

    @ArquillianResource
    private Deployer deployer;

    @ArquillianResource
    private ManagementClient management;

    @Test
    public void theKeyComesFromTheCredentialStoreAndOnlyThePoolThatPresentsItsTokenGetsIn() throws Exception {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        String base64 = Base64.getEncoder().encodeToString(key);
        try {
            // the README's hardened configuration, step by step
            ModelNode store = Operations.createAddOperation(STORE);
            store.get("path").set("srq-it-keys.cs");
            store.get("relative-to").set("jboss.server.data.dir");
            store.get("create").set(true);
            store.get("populate").set(true);
            Management.ok(management, store);
            ModelNode resolver = Operations.createAddOperation(RESOLVER);
            ModelNode r = resolver.get("resolvers").add();
            r.get("name").set("srq-it");
            r.get("credential-store").set("srq-it-keys");
            r.get("secret-key").set("key");
            Management.ok(management, resolver);
            ModelNode create = Operations.createOperation("create-expression", RESOLVER);
            create.get("resolver").set("srq-it");
            create.get("clear-text").set("k1=" + base64);
            String expression = Management.ok(management, create).get("expression").asString();
            assertTrue(expression.startsWith("${ENC::srq-it:"), expression);
            assertFalse(expression.contains(base64), "the expression is ciphertext");

            Operations.CompositeOperationBuilder ra = Operations.CompositeOperationBuilder.create();
            ModelNode add = Operations.createAddOperation(RA);
            add.get("archive").set(Apps.RAR);
            add.get("transaction-support").set("NoTransaction");
            ra.addStep(add);
            ModelNode keys = Operations.createAddOperation(RA.clone().add("config-properties", "authKeys"));
            keys.get("value").set(expression);
            ra.addStep(keys);
            definition(ra, "Hardened", "java:/eis/SrqHardened", "k1");
            definition(ra, "Open", "java:/eis/SrqOpen", null);
            Management.ok(management, ra.build().getOperation());
            Management.ok(management, Operations.createOperation("activate", RA));

            String config = Files.readString(Path.of(Management.attribute(management,
                    Operations.createAddress("core-service", "server-environment"), "config-file").asString()));
            assertTrue(config.contains(expression), "standalone.xml holds the expression");
            assertFalse(config.contains(base64), "standalone.xml never holds the key");

            deployer.deploy(APP);
            try {
                HttpResponse<String> in = get("java:/eis/SrqHardened", 50);
                assertEquals(200, in.statusCode(), in.body());
                assertEquals("delivered=50", in.body().trim(), "the pool presenting k1's token gets in");
                HttpResponse<String> out = get("java:/eis/SrqOpen", 1);
                assertEquals(200, out.statusCode(), out.body());
                // "SRQR", version 1, code 5 = NO_TOKEN
                assertTrue(out.body().startsWith("refused errno=ECONNREFUSED privateData=535251520105"), out.body());
            } finally {
                deployer.undeploy(APP);
            }
        } finally {
            Management.execute(management, Operations.createRemoveOperation(RA));
            Management.execute(management, Operations.createRemoveOperation(RESOLVER));
            Management.execute(management, Operations.createRemoveOperation(STORE));
        }
    }

    private static void definition(Operations.CompositeOperationBuilder ra, String name, String jndi, String authKey) {
        ModelNode cd = RA.clone().add("connection-definitions", name);
        ModelNode def = Operations.createAddOperation(cd);
        def.get("class-name").set("io.rdma.srq.ra.outbound.SrqManagedConnectionFactory");
        def.get("jndi-name").set(jndi);
        ra.addStep(def);
        ModelNode provider = Operations.createAddOperation(cd.clone().add("config-properties", "provider"));
        provider.get("value").set("soft");
        ra.addStep(provider);
        if (authKey != null) {
            ModelNode k = Operations.createAddOperation(cd.clone().add("config-properties", "authKey"));
            k.get("value").set(authKey);
            ra.addStep(k);
        }
    }

    private HttpResponse<String> get(String jndi, int n) throws Exception {
        URI uri = URI.create(management.getWebUri() + "/" + APP + "/admission?n=" + n + "&jndi="
                + URLEncoder.encode(jndi, StandardCharsets.UTF_8));
        return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
