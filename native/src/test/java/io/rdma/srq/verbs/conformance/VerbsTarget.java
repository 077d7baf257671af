package io.rdma.srq.verbs.conformance;

import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.DeviceInfo;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.VerbsProvider;

import java.util.List;
import java.util.stream.Stream;

/**
 * A device the conformance suite runs against.
 *
 * <p>By default: every device of the soft provider ({@code soft_rxe0}, {@code soft_mlx5_0},
 * {@code soft_efa0}). With {@code -Dverbs.provider=ibverbs -Dverbs.device=rxe0}: that device only (the
 * rxe lab, or a machine with an HCA); {@code -Dverbs.provider=P} without a device runs on every device
 * P lists. {@code -Dverbs.gidIndex=N} sets the GID index used to connect QPs (default 1 for ibverbs, 0 for fabric,
 * rxe's IPv4-mapped GID, and 0 for the soft device, which accepts any valid index).
 *
 * <p>From the source tree: {@code mvn -pl native test -Dtest='*Conformance*' -Dverbs.provider=ibverbs
 * -Dverbs.device=rxe0}. From the published jars (srq-native, srq-native-tests, srq-api, jboss-logging)
 * with JUnit's console launcher:
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -Dverbs.provider=ibverbs -Dverbs.device=rxe0 \
 *      -jar junit-platform-console-standalone-6.1.3.jar execute -cp JARS \
 *      --select-package io.rdma.srq.verbs.conformance
 * </pre>
 *
 * @param provider the provider name
 * @param device   the device name
 * @param gidIndex the GID index for {@link io.rdma.srq.verbs.QueuePair#connect}
 */
public record VerbsTarget(String provider, String device, int gidIndex) {
    /** System property naming the provider. */
    public static final String PROVIDER = "verbs.provider";
    /** System property naming the device. */
    public static final String DEVICE = "verbs.device";
    /** System property giving the GID index. */
    public static final String GID_INDEX = "verbs.gidIndex";

    /** @return whether this is the soft device (whose live objects the suite counts) */
    public boolean isSoft() {
        return Verbs.SOFT.equals(provider);
    }

    /** @return the provider */
    public VerbsProvider open() throws VerbsException {
        return Verbs.provider(provider);
    }

    @Override
    public String toString() {
        return provider + ":" + device;
    }

    /**
     * The targets the system properties select; the {@code @MethodSource} of every conformance class.
     *
     * @return the targets
     * @throws VerbsException if the chosen provider cannot run or lists no device
     */
    public static Stream<VerbsTarget> targets() throws VerbsException {
        String provider = System.getProperty(PROVIDER, Verbs.SOFT).trim();
        String device = System.getProperty(DEVICE, "").trim();
        int gidIndex = Integer.getInteger(GID_INDEX, Verbs.IBVERBS.equals(provider) ? 1 : 0);
        if (!device.isEmpty()) {
            return Stream.of(new VerbsTarget(provider, device, gidIndex));
        }
        List<DeviceInfo> devices = Verbs.provider(provider).devices();
        if (devices.isEmpty()) {
            throw new VerbsException("ibv_get_device_list", io.rdma.srq.api.Errno.ENODEV, "provider '" + provider
                    + "' lists no device; set -D" + DEVICE + "=NAME or run on the soft provider");
        }
        return devices.stream().map(d -> new VerbsTarget(provider, d.name(), gidIndex));
    }
}
