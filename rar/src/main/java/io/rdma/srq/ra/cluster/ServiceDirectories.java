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
     * The adapter's directory and election, and what to close at adapter stop.
     *
     * @param directory the directory
     * @param election  the singleton election
     * @param release   lets go of the registrar and the singleton policy (the MSC services are removed);
     *                  nothing for local ones
     */
    public record Opened(ServiceDirectory directory, SingletonElection election, Runnable release) implements AutoCloseable {
        @Override
        public void close() {
            release.run();
        }
    }

    /**
     * @param cl the adapter's class loader
     * @return WildFly's registrar directory where the server has one, else a {@link LocalServiceDirectory};
     *         WildFly's singleton policy where the server has one, else a {@link LocalSingletonElection}
     */
    public static Opened open(ClassLoader cl) {
        Elections e = election(cl);
        Directory d = directory(cl);
        return new Opened(d.directory(), e.election(), () -> {
            e.release().run();
            d.release().run();
        });
    }

    private record Directory(ServiceDirectory directory, Runnable release) {
    }

    private record Elections(SingletonElection election, Runnable release) {
    }

    private static Elections election(ClassLoader cl) {
        try {
            if (MscRequirement.exists(WildFlySingletonElection.DEFAULT_FACTORY, cl)) {
                Class.forName("org.wildfly.clustering.singleton.service.ServiceTargetFactory", false, cl);
                WildFlySingletonElection e = new WildFlySingletonElection(cl);
                return new Elections(e, e::close);
            }
            RaLogger.LOG.noSingletonPolicy("the server has no " + WildFlySingletonElection.DEFAULT_FACTORY);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException ex) {
            RaLogger.LOG.noSingletonPolicy(MscRequirement.describe(ex));
        }
        return new Elections(new LocalSingletonElection(), () -> { });
    }

    private static void release(MscRequirement service, String what) {
        try {
            service.close();
        } catch (ReflectiveOperationException | RuntimeException e) {
            RaLogger.LOG.debugf(e, "removing the %s's MSC service", what);
        }
    }

    private static Directory directory(ClassLoader cl) {
        String node = nodeName();
        try {
            if (MscRequirement.exists(REGISTRAR, cl)) {
                Class.forName("org.wildfly.clustering.server.provider.ServiceProviderRegistrar", false, cl);
                WildFlyServiceDirectory d = new WildFlyServiceDirectory(node);
                MscRequirement service = MscRequirement.install(REGISTRAR, "rdma-srq service directory", d::started,
                        d::stopped, cl);
                return new Directory(d, () -> release(service, "service directory"));
            }
            RaLogger.LOG.noClusterDirectory("the server has no " + REGISTRAR + " (no cache container '" + CONTAINER + "')");
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            RaLogger.LOG.noClusterDirectory(MscRequirement.describe(e));
        }
        return new Directory(new LocalServiceDirectory(node), () -> { });
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
