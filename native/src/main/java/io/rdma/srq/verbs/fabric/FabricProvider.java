package io.rdma.srq.verbs.fabric;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.DeviceInfo;
import io.rdma.srq.verbs.VerbsProvider;
import io.rdma.srq.verbs.ffi.fabric.Fabric;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code fabric} verbs provider: libfabric (OFI) through FFM, its reliable connected (FI_EP_MSG)
 * endpoints on shared receive contexts behind the verbs nouns (docs/verbs.md has the mapping). Its
 * devices are libfabric providers that offer both — {@code tcp} everywhere, {@code verbs} where an
 * RDMA device exists — named by the libfabric provider, in fi_getinfo(3)'s order of preference.
 */
public final class FabricProvider implements VerbsProvider {
    /** The provider's name, as the adapter's {@code provider} property takes it. */
    public static final String NAME = "fabric";
    /**
     * The libfabric providers this one runs on: tcp (fi_tcp(7)) and verbs (fi_verbs(7), whose shared
     * receive context is an ibv SRQ). Also offering MSG endpoints with shared receive contexts,
     * {@code sockets} (deprecated, fi_sockets(7)) and 1.17's experimental {@code net} are left out.
     */
    static final List<String> SUPPORTED = List.of("tcp", "verbs");

    /** The provider, as {@link java.util.ServiceLoader} makes it; libfabric is loaded at first use. */
    public FabricProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<String> unavailableReason() {
        if (!FabricLibrary.load()) {
            return Optional.of(FabricLibrary.SONAME + " cannot be loaded: install libfabric1 (Debian)");
        }
        if (devices().isEmpty()) {
            return Optional.of("libfabric offers no reliable connected endpoint (FI_EP_MSG) with shared receive"
                    + " contexts: " + offered());
        }
        return Optional.empty();
    }

    @Override
    public List<DeviceInfo> devices() {
        if (!FabricLibrary.load()) {
            return List.of();
        }
        Set<String> names = new LinkedHashSet<>();
        FabricDiscovery.msgWithSharedReceive(null).stream().filter(c -> SUPPORTED.contains(c.provider()))
                .forEach(c -> names.add(c.provider()));
        return names.stream().map(n -> new DeviceInfo(n, 0, NAME)).toList();
    }

    /**
     * Opens libfabric provider {@code deviceName} (e.g. {@code tcp}).
     *
     * @throws VerbsException ENOSYS when libfabric is missing; ENODEV for a name libfabric does not
     *                        offer with MSG endpoints and shared receive contexts, naming what it offers
     */
    @Override
    public Context open(String deviceName) {
        if (!FabricLibrary.load()) {
            throw new VerbsException("fi_getinfo", Errno.ENOSYS, FabricLibrary.SONAME
                    + " cannot be loaded: install libfabric1 (Debian)");
        }
        if (!SUPPORTED.contains(deviceName) || FabricDiscovery.msgWithSharedReceive(deviceName).isEmpty()) {
            throw noSuchDevice(deviceName);
        }
        return FabricContext.open(deviceName);
    }

    /** {@return ENODEV naming what libfabric offers instead of {@code provider}} */
    static VerbsException noSuchDevice(String provider) {
        return new VerbsException("fi_getinfo", Errno.ENODEV, "device=" + provider + ": libfabric offers no provider '"
                + provider + "' with reliable connected endpoints (FI_EP_MSG) on shared receive contexts that this"
                + " adapter runs on (" + SUPPORTED + "); " + offered());
    }

    private static String offered() {
        List<FabricDiscovery.Choice> usable = FabricDiscovery.msgWithSharedReceive(null);
        return usable.isEmpty() ? "none does (fi_info -t FI_EP_MSG lists what there is)"
                : "usable: " + usable.stream().map(c -> c.provider() + " (" + c.domain() + ")").distinct().toList();
    }

    /**
     * The first device (fi_getinfo's preference) that can listen on {@code address}: fi_getinfo(3)
     * with FI_SOURCE for it — verbs for an address of an RDMA device's netdev, tcp for any other
     * address of this host; loopback and the wildcard bind no RDMA device (rdma_bind_addr(3)), so
     * verbs is never theirs. Empty for an address no interface here has.
     */
    @Override
    public Optional<String> deviceOfAddress(InetAddress address) {
        boolean noDevice = address.isLoopbackAddress() || address.isAnyLocalAddress(); // as rdma_bind_addr sees them
        for (DeviceInfo d : devices()) { // fi_getinfo's preference: verbs (an RDMA device) before tcp where both serve it
            if (noDevice && "verbs".equals(d.name())) {
                continue;
            }
            MemorySegment info = FabricDiscovery.info(d.name(), address.getHostAddress(), null, Fabric.FI_SOURCE());
            if (!info.equals(MemorySegment.NULL)) {
                Fabric.fi_freeinfo(info);
                return Optional.of(d.name());
            }
        }
        return Optional.empty();
    }
}
