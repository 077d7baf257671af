package io.rdma.srq.ra.cluster;

import io.rdma.srq.ra.support.MscRequirement;
import io.rdma.srq.ra.support.RaLogger;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * WildFly's singleton policies as the election: each candidate is a singleton MSC service named
 * {@code io.rdma.srq.singleton.<name>}, installed through a policy's {@code ServiceTargetFactory}
 * (wildfly-clustering-singleton-api 39): the singleton subsystem's default policy (capability
 * {@value #DEFAULT_FACTORY}: {@code default} on the {@code server} cache container in
 * standalone-ha.xml, election {@code simple}: the member that joined first), or the policy the
 * activation names ({@code singletonPolicy}: capability {@value #NAMED_FACTORY}.&lt;name&gt;, with its
 * own election policy, preferences and quorum). The policy starts the service on the elected node only
 * ({@link Candidate#elected()}) and stops it when another is elected ({@link Candidate#deposed()});
 * leaving is removing the service.
 *
 * <p>A policy's factory arrives when MSC starts the adapter's requirement on it (the default one's
 * at adapter start, a named one's at its first candidate); candidates that join before are installed
 * then.
 */
final class WildFlySingletonElection implements SingletonElection {
    /** The default singleton policy's service target factory. */
    static final String DEFAULT_FACTORY = "org.wildfly.clustering.singleton.default-service-target-factory";
    /** A named singleton policy's service target factory, followed by ".&lt;policy&gt;". */
    static final String NAMED_FACTORY = "org.wildfly.clustering.singleton.service-target-factory";
    private static final String PREFIX = "io.rdma.srq.singleton";
    /** The longest a leaving candidate waits for MSC to remove its service. */
    private static final java.time.Duration REMOVAL_WAIT = java.time.Duration.ofSeconds(10);

    private final ClassLoader cl;
    private final SingletonNames names = new SingletonNames();
    /** The policies candidates joined, by name ("" the default). */
    private final Map<String, Policy> policies = new ConcurrentHashMap<>();

    /**
     * @param cl the adapter's class loader
     * @throws ReflectiveOperationException when MSC refuses the requirement on the default policy
     */
    WildFlySingletonElection(ClassLoader cl) throws ReflectiveOperationException {
        this.cl = cl;
        policies.put("", new Policy("", DEFAULT_FACTORY));
    }

    /** Lets go of every policy's factory (adapter stop). */
    void close() {
        policies.values().forEach(Policy::close);
    }

    @Override
    public Candidacy join(String name, String policy, Candidate candidate) {
        Policy p;
        try {
            p = policies.computeIfAbsent(policy, this::named);
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        names.take(name);
        return p.join(name, candidate);
    }

    /** A named policy's requirement, installed at its first candidate. */
    private Policy named(String policy) {
        String capability = NAMED_FACTORY + "." + policy;
        try {
            if (!MscRequirement.exists(capability, cl)) {
                throw new IllegalStateException("singletonPolicy: the server has no singleton policy '" + policy + "' ("
                        + capability + "); add it with /subsystem=singleton/singleton-policy=" + policy
                        + ":add(cache-container=server), or leave singletonPolicy empty for the default policy");
            }
            return new Policy(policy, capability);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("singletonPolicy: the singleton policy '" + policy + "' cannot be reached: "
                    + MscRequirement.describe(e), e);
        }
    }

    @Override
    public String describe() {
        return "WildFly's singleton policies";
    }

    /** One policy: its factory while MSC holds it up, and the candidates waiting for it. */
    private final class Policy {
        private final String policy;
        private final MscRequirement requirement;
        private final Object lock = new Object();
        /** Guarded by lock. */
        private Object factory;
        /** Guarded by lock. */
        private final List<Entry> waiting = new ArrayList<>();

        Policy(String policy, String capability) throws ReflectiveOperationException {
            this.policy = policy;
            this.requirement = MscRequirement.install(capability, "rdma-srq singleton election ("
                    + (policy.isEmpty() ? "default policy" : "policy " + policy) + ")", this::started, this::stopped, cl);
        }

        private void started(Object serviceTargetFactory) {
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

        private void stopped() {
            synchronized (lock) {
                factory = null;
            }
        }

        Candidacy join(String name, Candidate candidate) {
            Entry e = new Entry(this, name, candidate);
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

        void forget(Entry e) {
            synchronized (lock) {
                waiting.remove(e);
            }
        }

        String describe() {
            return policy.isEmpty() ? "WildFly's default singleton policy" : "WildFly's singleton policy " + policy;
        }

        void close() {
            try {
                requirement.close();
            } catch (ReflectiveOperationException | RuntimeException e) {
                RaLogger.LOG.debugf(e, "removing the requirement on singleton policy '%s'", policy);
            }
        }
    }

    /** One candidate: its singleton service once installed. */
    private final class Entry implements Candidacy {
        private final Policy policy;
        private final String name;
        private final Candidate candidate;
        /** Guarded by this: the service's controller once installed; whether it left. */
        private Object controller;
        private boolean left;

        Entry(Policy policy, String name, Candidate candidate) {
            this.policy = policy;
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
                    RaLogger.LOG.singletonCandidate(name, String.valueOf(sn), policy.describe());
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
            policy.forget(this);
            if (c != null) {
                try {
                    MscRequirement.remove(c, cl);
                    // a redeployment installs a candidate of the same name: MSC refuses it until this one is gone
                    if (!MscRequirement.awaitRemoved(c, REMOVAL_WAIT, cl)) {
                        RaLogger.LOG.debugf("the singleton service of %s is not removed after %s", name, REMOVAL_WAIT);
                    }
                } catch (ReflectiveOperationException | RuntimeException ex) {
                    RaLogger.LOG.debugf(ex, "removing the singleton service of %s", name);
                }
            }
            names.release(name);
        }
    }
}
