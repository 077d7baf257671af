package io.rdma.srq.verbs.ibverbs;

import io.rdma.srq.verbs.spi.SockAddr;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.DeviceInfo;
import io.rdma.srq.verbs.Verbs;
import io.rdma.srq.verbs.VerbsProvider;
import io.rdma.srq.verbs.ffi.ibverbs.IbVerbs;
import io.rdma.srq.verbs.NetworkOrder;

import org.jboss.logging.Logger;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The provider over the system's libibverbs ({@code libibverbs.so.1}, Debian package libibverbs1,
 * with the drivers of ibverbs-providers), through the FFM API.
 */
public final class IbvProvider implements VerbsProvider {
    static final String LIBRARY = "libibverbs.so.1";
    private static final Logger LOG = Logger.getLogger(IbvProvider.class);
    private static final Optional<String> UNAVAILABLE = probe();

    /** Public for {@link java.util.ServiceLoader}. */
    public IbvProvider() {
    }

    private static Optional<String> probe() {
        try {
            SymbolLookup.libraryLookup(LIBRARY, Arena.global());
            return Optional.empty();
        } catch (IllegalArgumentException | UnsatisfiedLinkError e) {
            return Optional.of(LIBRARY + " cannot be loaded (" + e.getMessage()
                    + "): install Debian's libibverbs1 and ibverbs-providers");
        } catch (IllegalCallerException e) {
            return Optional.of("native access is disabled: run java with --enable-native-access=ALL-UNNAMED");
        }
    }

    @Override
    public String name() {
        return Verbs.IBVERBS;
    }

    @Override
    public Optional<String> unavailableReason() {
        return UNAVAILABLE;
    }

    private void ensureAvailable() throws VerbsException {
        if (UNAVAILABLE.isPresent()) {
            throw new VerbsException("ibv_get_device_list", Errno.ENOSYS, UNAVAILABLE.get());
        }
    }

    @Override
    public List<DeviceInfo> devices() throws VerbsException {
        ensureAvailable();
        List<DeviceInfo> devices = new ArrayList<>();
        try (DeviceList list = DeviceList.get()) {
            for (int i = 0; i < list.size(); i++) {
                devices.add(new DeviceInfo(list.name(i), list.guid(i), name()));
            }
        }
        return devices;
    }

    @Override
    public Context open(String deviceName) throws VerbsException {
        ensureAvailable();
        try (DeviceList list = DeviceList.get()) {
            List<String> names = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                names.add(list.name(i));
                if (list.name(i).equals(deviceName)) {
                    return IbvContext.open(list.device(i), deviceName);
                }
            }
            throw new VerbsException("ibv_open_device", Errno.ENODEV, "no RDMA device '" + deviceName
                    + "'; available: " + (names.isEmpty() ? "none (libibverbs lists no device)" : String.join(", ", names)));
        }
    }

    @Override
    public java.util.Optional<String> deviceOfAddress(java.net.InetAddress address) throws VerbsException {
        ensureAvailable();
        CmChannel channel = new CmChannel();
        MemorySegment id = null;
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            id = channel.createId();
            NativeCall.status("rdma_bind_addr", address.getHostAddress(), CmChannel.H.BIND, null, id,
                    SockAddr.of(new java.net.InetSocketAddress(address, 0), arena));
            String device = IbvCmConnection.deviceOf(id);
            if (device == null && !address.isAnyLocalAddress()) {
                throw new VerbsException("rdma_bind_addr", Errno.EADDRNOTAVAIL, address.getHostAddress()
                        + " is the address of no RDMA device's interface");
            }
            return java.util.Optional.ofNullable(device);
        } finally {
            // destroys the id and the channel; a failure to destroy goes into a cause nobody reads: the answer stands
            channel.abandon(id, new VerbsException("rdma_destroy_id", Errno.EIO, "device lookup"));
        }
    }

    /** ibv_get_device_list(3) / ibv_free_device_list, as a resource. */
    private static final class DeviceList implements AutoCloseable {
        private static final MethodHandle GET = NativeCall.capturing(
                IbVerbs.ibv_get_device_list$address(), IbVerbs.ibv_get_device_list$descriptor());
        private final MemorySegment list;
        private final int size;

        private DeviceList(MemorySegment list, int size) {
            this.list = list;
            this.size = size;
        }

        /**
         * ibv_get_device_list(3). ENOSYS ("no kernel support for RDMA": no uverbs devices in sysfs)
         * means no device can exist, so it reads as an empty list.
         */
        static DeviceList get() throws VerbsException {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment num = arena.allocate(ValueLayout.JAVA_INT);
                MemorySegment list;
                try {
                    list = NativeCall.pointer("ibv_get_device_list", null, GET, null, num);
                } catch (VerbsException e) {
                    if (e.is(Errno.ENOSYS)) {
                        LOG.debugf("ibv_get_device_list: ENOSYS, the kernel has no RDMA support; no devices");
                        return new DeviceList(MemorySegment.NULL, 0);
                    }
                    throw e;
                }
                int n = num.get(ValueLayout.JAVA_INT, 0);
                return new DeviceList(list.reinterpret((n + 1L) * ValueLayout.ADDRESS.byteSize()), n);
            }
        }

        int size() {
            return size;
        }

        MemorySegment device(int i) {
            return list.getAtIndex(ValueLayout.ADDRESS, i);
        }

        String name(int i) {
            return IbVerbs.ibv_get_device_name(device(i)).reinterpret(Integer.MAX_VALUE).getString(0);
        }

        long guid(int i) {
            return NetworkOrder.swap64(IbVerbs.ibv_get_device_guid(device(i)));
        }

        @Override
        public void close() {
            if (list.address() != 0) {
                IbVerbs.ibv_free_device_list(list);
            }
        }
    }

    /** librdmacm closes its cached contexts of devices no longer listed ({@link VerbsProvider#releaseRemovedDevices}). */
    @Override
    public void releaseRemovedDevices() {
        CmChannel.releaseRemovedDevices();
    }
}
