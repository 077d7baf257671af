package io.rdma.srq.ra.management;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The running resource adapters of this archive, so that an {@link SrqActivationMonitor} finds the
 * activation it watches whichever adapter runs it: MDBs usually activate on the archive's own
 * adapter ({@code srq-rar.rar}, the ejb3 default), while admin objects can only be configured on an
 * adapter of {@code /subsystem=resource-adapters} ({@code srq-orders}). Every activation of the
 * archive shares its module, so this one set sees them all.
 */
public final class ActivationDirectory {
    private static final Set<ActivationViews> ADAPTERS = ConcurrentHashMap.newKeySet();

    private ActivationDirectory() {
    }

    /** @param adapter an adapter that started */
    public static void started(ActivationViews adapter) {
        ADAPTERS.add(adapter);
    }

    /** @param adapter an adapter that stopped */
    public static void stopped(ActivationViews adapter) {
        ADAPTERS.remove(adapter);
    }

    /**
     * @param srqName an activation's srqName (empty srqName: the endpoint class's simple name)
     * @return the running activation of that name (the first found if two adapters run one each),
     *         else empty
     */
    public static Optional<ActivationView> find(String srqName) {
        for (ActivationViews a : ADAPTERS) {
            for (ActivationView v : a.activationViews()) {
                if (v.statistics().srqName().equals(srqName)) {
                    return Optional.of(v);
                }
            }
        }
        return Optional.empty();
    }

    /** @return every activation of every running adapter of this archive, now */
    public static List<ActivationView> all() {
        List<ActivationView> all = new ArrayList<>();
        for (ActivationViews a : ADAPTERS) {
            all.addAll(a.activationViews());
        }
        return all;
    }
}
