package io.rdma.srq.it;

import org.jboss.as.arquillian.container.ManagementClient;
import org.jboss.as.controller.client.helpers.Operations;
import org.jboss.dmr.ModelNode;

import java.io.IOException;
import java.util.List;

/** Management operations of the client-side ITs, with failures that show the server's answer. */
final class Management {
    /** The second connection definition's pool statistics (configure.cli, srq.properties). */
    static final ModelNode ORDERS_POOL = Operations.createAddress("subsystem", "resource-adapters",
            "resource-adapter", "srq-orders", "connection-definitions", "SrqOrders", "statistics", "pool");

    private Management() {
    }

    /** @return the result of a successful operation @throws AssertionError with the outcome otherwise */
    static ModelNode ok(ManagementClient client, ModelNode op) throws IOException {
        ModelNode response = client.getControllerClient().execute(op);
        if (!Operations.isSuccessfulOutcome(response)) {
            throw new AssertionError("operation failed: " + op + "\n-> " + response);
        }
        return Operations.readResult(response);
    }

    /** @return the whole response (outcome, failure-description) */
    static ModelNode execute(ManagementClient client, ModelNode op) throws IOException {
        return client.getControllerClient().execute(op);
    }

    /** @return the named attribute, runtime values included */
    static ModelNode attribute(ManagementClient client, ModelNode address, String name) throws IOException {
        ModelNode op = Operations.createReadAttributeOperation(address, name);
        op.get("include-defaults").set(true);
        return ok(client, op);
    }

    /**
     * The last lines of the server's log that contain {@code text}, as an operator reads them
     * ({@code /subsystem=logging/log-file=server.log:read-log-file}).
     *
     * @param text what the lines contain, e.g. a message id
     * @return those of the last 5000 lines, oldest first
     */
    static List<String> logLines(ManagementClient client, String text) throws IOException {
        ModelNode op = Operations.createOperation("read-log-file",
                Operations.createAddress("subsystem", "logging", "log-file", "server.log"));
        op.get("lines").set(5000);
        op.get("tail").set(true);
        return ok(client, op).asList().stream().map(ModelNode::asString).filter(l -> l.contains(text)).toList();
    }

    /**
     * An operation on an MDB of a deployment, e.g. {@code stop-delivery}, {@code start-delivery}: what
     * {@code /deployment=D/subsystem=ejb3/message-driven-bean=M:OP} does in jboss-cli.
     */
    static ModelNode mdbOperation(String deployment, String mdb, String operation) {
        return Operations.createOperation(operation, Operations.createAddress("deployment", deployment,
                "subsystem", "ejb3", "message-driven-bean", mdb));
    }
}
