package io.rdma.srq.ra.cluster;

import io.rdma.srq.ra.support.MscRequirement;
import io.rdma.srq.ra.support.RaLogger;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Chooses the adapter's {@link ServiceDirectory} at start: WildFly's clustering registrar where the
 * server has one, else this JVM's.
 *
 * <p>The registrar: the default cache of the cache container {@value #CONTAINER} —
 * {@code standalone-ha.xml} and {@code standalone-full-ha.xml} have it (a replicated cache over the
 * {@code ee} JGroups channel); {@code standalone.xml} has no such container, and the adapter then
 * uses {@link LocalServiceDirectory}. The capability service is
 * {@value #REGISTRAR}; it starts on demand, for the MSC service installed here
 * ({@link MscRequirement}).
 */
public final class ServiceDirectories {
    /** The cache container whose default cache holds the registrations. */
    public static final String CONTAINER = "server";
    /** The registrar's capability service: org.wildfly.clustering.server.default-service-provider-registrar.&lt;container&gt;. */
    public static final String REGISTRAR = "org.wildfly.clustering.server.default-service-provider-registrar." + CONTAINER;

    private ServiceDirectories() {
    }

    /**
     * The adapter's directory and what to close at adapter stop.
     *
     * @param directory the directory
     * @param release   lets go of the registrar (the MSC service is removed); nothing for a local directory
     */
    public record Opened(ServiceDirectory directory, Runnable release) implements AutoCloseable {
        @Override
        public void close() {
            release.run();
        }
    }

    /**
     * @param cl the adapter's class loader
     * @return WildFly's registrar directory where the server has one, else a {@link LocalServiceDirectory}
     */
    public static Opened open(ClassLoader cl) {
        String node = nodeName();
        try {
            if (MscRequirement.exists(REGISTRAR, cl)) {
                Class.forName("org.wildfly.clustering.server.provider.ServiceProviderRegistrar", false, cl);
                WildFlyServiceDirectory d = new WildFlyServiceDirectory(node);
                MscRequirement service = MscRequirement.install(REGISTRAR, "rdma-srq service directory", d::started,
                        d::stopped, cl);
                return new Opened(d, () -> {
                    try {
                        service.close();
                    } catch (ReflectiveOperationException | RuntimeException e) {
                        RaLogger.LOG.debugf(e, "removing the service directory's MSC service");
                    }
                });
            }
            RaLogger.LOG.noClusterDirectory("the server has no " + REGISTRAR + " (no cache container '" + CONTAINER + "')");
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            RaLogger.LOG.noClusterDirectory(MscRequirement.describe(e));
        }
        return new Opened(new LocalServiceDirectory(node), () -> { });
    }

    /** {@return jboss.node.name, else the host name, else "localhost"} */
    static String nodeName() {
        String n = System.getProperty("jboss.node.name");
        if (n != null && !n.isBlank()) {
            return n;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
