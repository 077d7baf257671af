package io.rdma.srq.verbs;

/**
 * A device as listed by ibv_get_device_list(3).
 *
 * @param name     the kernel device name, e.g. {@code rxe0}, {@code mlx5_0}
 * @param nodeGuid node GUID in host order (ibv_get_device_guid(3) returns it big-endian)
 * @param provider the {@link VerbsProvider#name()} that lists it
 */
public record DeviceInfo(String name, long nodeGuid, String provider) {
}
