package io.rdma.srq.it;

import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** Builds the test applications as a user would package them. */
public final class Apps {
    /** The adapter's deployment name (deployment/src/main/cli/srq.properties: srq.rar.name). */
    public static final String RAR = "srq-rar.rar";

    private Apps() {
    }

    /**
     * A web archive that depends on the separately deployed adapter through its manifest, which is
     * what makes the API classes (io.rdma.srq.api) visible to it.
     *
     * @param name      the archive name
     * @param forInject also import the adapter jar's META-INF (its beans.xml), so that the
     *                  adapter's CDI producer serves {@code @Inject SrqConnectionFactory}
     * @return the archive
     */
    public static WebArchive war(String name, boolean forInject) {
        return ShrinkWrap.create(WebArchive.class, name)
                .setManifest(new StringAsset("Manifest-Version: 1.0\nDependencies: deployment." + RAR
                        + (forInject ? " meta-inf" : "") + "\n"))
                .addClass(Apps.class);
    }
}
