package io.rdma.srq.subsystem;

import io.rdma.srq.ra.management.SrqReadinessCheck;
import org.eclipse.microprofile.health.HealthCheck;
import org.jboss.as.controller.OperationContext;
import org.jboss.as.controller.capability.CapabilityServiceSupport;
import org.jboss.msc.Service;
import org.jboss.msc.service.ServiceBuilder;
import org.jboss.msc.service.ServiceName;
import org.jboss.msc.service.StartContext;
import org.jboss.msc.service.StartException;
import org.jboss.msc.service.StopContext;

import java.lang.reflect.Method;
import java.util.function.Supplier;

/**
 * The adapter's readiness check ({@link SrqReadinessCheck}, {@code srq-activations}: DOWN while an
 * activation is not ACTIVE) as a server readiness check of WildFly's {@code microprofile-health-smallrye}
 * subsystem, where the server has it: on a server with the Galleon layer the adapter is a module with no
 * deployment of its own, so no CDI deployment would register the check. An MSC service requiring the
 * subsystem's reporter (capability {@value #REPORTER}) adds the check when it starts and removes it when
 * it stops. The reporter's class is the subsystem's private API, reached by reflection: its public
 * {@code addServerReadinessCheck(HealthCheck, ClassLoader)} and {@code removeReadinessCheck(HealthCheck)}.
 */
final class ReadinessRegistration implements Service {
    /** WildFly's MicroProfile Health reporter. */
    static final String REPORTER = "org.wildfly.extension.microprofile.health.reporter";
    private static final ServiceName NAME = ServiceName.of("io", "rdma", "srq", "readiness-check");

    private final Supplier<Object> reporter;
    private final HealthCheck check = new SrqReadinessCheck();

    private ReadinessRegistration(Supplier<Object> reporter) {
        this.reporter = reporter;
    }

    /**
     * Installs the registration. Only where the server has the reporter's capability — checked by the caller
     * before this class is loaded, since elsewhere the MicroProfile Health API it links against may be absent.
     *
     * @param context the subsystem's add, at boot, in Stage.RUNTIME
     */
    static void install(OperationContext context) {
        CapabilityServiceSupport support = context.getCapabilityServiceSupport();
        ServiceBuilder<?> builder = context.getServiceTarget().addService();
        builder.provides(NAME);
        Supplier<Object> reporter = builder.requires(support.getCapabilityServiceName(REPORTER));
        builder.setInstance(new ReadinessRegistration(reporter)).install();
    }

    @Override
    public void start(StartContext context) throws StartException {
        Object r = reporter.get();
        try {
            Method add = r.getClass().getMethod("addServerReadinessCheck", HealthCheck.class, ClassLoader.class);
            add.invoke(r, check, SrqReadinessCheck.class.getClassLoader());
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            throw new StartException("adding the readiness check " + SrqReadinessCheck.NAME + " to " + REPORTER, e);
        }
    }

    @Override
    public void stop(StopContext context) {
        Object r = reporter.get();
        try {
            r.getClass().getMethod("removeReadinessCheck", HealthCheck.class).invoke(r, check);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // the reporter is stopping too: nothing to leave behind
        }
    }
}
