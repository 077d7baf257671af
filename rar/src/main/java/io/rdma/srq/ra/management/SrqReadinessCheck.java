package io.rdma.srq.ra.management;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * The adapter's MicroProfile Health readiness check ({@code GET /health/ready} on the management
 * interface, port 9990): DOWN while any activation of the archive's adapters is not ACTIVE —
 * STARTING (its device or listen address is not there yet), RECOVERING (its device was lost) or
 * FAILED — with each activation's state as data (name → state). UP with no activation.
 *
 * <p>A CDI bean of the rar's bean archive: WildFly's {@code microprofile-health-smallrye} subsystem
 * (configure.cli adds it to standalone.xml) gives every CDI deployment the MicroProfile Health API
 * and registers its {@code @Readiness} beans. Without the subsystem the API is not visible to the
 * rar and Weld skips this class (it cannot load it), so the adapter works as before.
 */
@Readiness
@ApplicationScoped
public class SrqReadinessCheck implements HealthCheck {
    /** The check's name in the health response. */
    public static final String NAME = "srq-activations";

    @Override
    public HealthCheckResponse call() {
        ActivationReadiness r = ActivationReadiness.of(ActivationDirectory.all());
        HealthCheckResponseBuilder b = HealthCheckResponse.named(NAME).status(r.ready());
        r.states().forEach((name, state) -> b.withData(name, state.name()));
        return b.build();
    }
}
