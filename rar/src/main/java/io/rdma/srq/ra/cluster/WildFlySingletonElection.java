package io.rdma.srq.ra.cluster;

import io.rdma.srq.ra.support.MscRequirement;
import io.rdma.srq.ra.support.RaLogger;

import java.util.ArrayList;
import java.util.List;

/**
 * WildFly's singleton policy as the election: each candidate is a singleton MSC service named
 * {@code io.rdma.srq.singleton.<name>}, installed through the server's default
 * {@code ServiceTargetFactory} (wildfly-clustering-singleton-api 39, capability
 * {@value #FACTORY}: the singleton subsystem's default policy, {@code default} on the {@code server}
 * cache container in standalone-ha.xml, with its election policy — {@code simple}: the member that
 * joined first). The policy starts the service on the elected node only ({@link Candidate#elected()})
 * and stops it when another is elected ({@link Candidate#deposed()}); leaving is removing the service.
 *
 * <p>The factory arrives when MSC starts the adapter's requirement on it (after adapter start);
 * candidates that join before are installed then.
 */
final class WildFlySingletonElection implements SingletonElection {
    /** The default singleton policy's service target factory: org.wildfly.clustering.singleton.default-service-target-factory. */
    static final String FACTORY = "org.wildfly.clustering.singleton.default-service-target-factory";
    private static final String PREFIX = "io.rdma.srq.singleton";

    private final ClassLoader cl;
    private final SingletonNames names = new SingletonNames();
    private final Object lock = new Object();
    /** Guarded by lock: the factory while MSC holds it up. */
    private Object factory;
    /** Guarded by lock: candidacies waiting for the factory. */
    private final List<Entry> waiting = new ArrayList<>();

    WildFlySingletonElection(ClassLoader cl) {
        this.cl = cl;
    }

    /** The factory is up (MSC's thread): installs the candidates that joined before. */
    void started(Object serviceTargetFactory) {
        List<Entry> pending;
        synchronized (lock) {
            factory = serviceTargetFactory;
            pending = List.copyOf(waiting);
            waiting.clear();
        }
        for (Entry e : pending) {
            e.install(serviceTargetFactory);
        }
    }

    /** The factory went away (adapter stop or the subsystem removed). */
    void stopped() {
        synchronized (lock) {
            factory = null;
        }
    }

    @Override
    public Candidacy join(String name, Candidate candidate) {
        names.take(name);
        Entry e = new Entry(name, candidate);
        Object f;
        synchronized (lock) {
            f = factory;
            if (f == null) {
                waiting.add(e);
            }
        }
        if (f != null) {
            e.install(f);
        }
        return e;
    }

    @Override
    public String describe() {
        return "WildFly's default singleton policy";
    }

    /** One candidate: its singleton service once installed. */
    private final class Entry implements Candidacy {
        private final String name;
        private final Candidate candidate;
        /** Guarded by this: the service's controller once installed; whether it left. */
        private Object controller;
        private boolean left;

        Entry(String name, Candidate candidate) {
            this.name = name;
            this.candidate = candidate;
        }

        @Override
        public boolean electedAtOnce() {
            return false;
        }

        void install(Object serviceTargetFactory) {
            synchronized (this) {
                if (left) {
                    return;
                }
                try {
                    Class<?> serviceName = Class.forName("org.jboss.msc.service.ServiceName", false, cl);
                    Object sn = serviceName.getMethod("append", String[].class).invoke(
                            serviceName.getMethod("parse", String.class).invoke(null, PREFIX), (Object) new String[]{name});
                    Class<?> target = Class.forName("org.jboss.msc.service.ServiceTarget", false, cl);
                    Object singletonTarget = Class.forName("org.wildfly.clustering.singleton.service.ServiceTargetFactory",
                            false, cl).getMethod("createSingletonServiceTarget", target)
                            .invoke(serviceTargetFactory, MscRequirement.container(cl));
                    Object builder = Class.forName("org.wildfly.clustering.singleton.service.SingletonServiceTarget",
                            false, cl).getMethod("addService", serviceName).invoke(singletonTarget, sn);
                    Class<?> builderType = Class.forName("org.wildfly.clustering.singleton.service.SingletonServiceBuilder",
                            false, cl);
                    builderType.getMethod("setInstance", Class.forName("org.jboss.msc.Service", false, cl)).invoke(builder,
                            MscRequirement.service("rdma-srq singleton " + name, candidate::elected, candidate::deposed, cl));
                    controller = builderType.getMethod("install").invoke(builder);
                    RaLogger.LOG.singletonCandidate(name, String.valueOf(sn), describe());
                } catch (ReflectiveOperationException | LinkageError | RuntimeException ex) {
                    RaLogger.LOG.singletonNotInstalled(name, MscRequirement.describe(ex)); // stays in standby: never two primaries
                }
            }
        }

        @Override
        public void close() {
            Object c;
            synchronized (this) {
                if (left) {
                    return;
                }
                left = true;
                c = controller;
                controller = null;
            }
            synchronized (lock) {
                waiting.remove(this);
            }
            names.release(name);
            if (c != null) {
                try {
                    MscRequirement.remove(c, cl);
                } catch (ReflectiveOperationException | RuntimeException ex) {
                    RaLogger.LOG.debugf(ex, "removing the singleton service of %s", name);
                }
            }
        }
    }
}
