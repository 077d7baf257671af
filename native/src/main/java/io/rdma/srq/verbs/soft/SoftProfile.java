package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.DeviceCapability;
import io.rdma.srq.api.EfaDeviceAttributes;
import io.rdma.srq.api.PortAttributes;
import io.rdma.srq.api.WcStatus;

/**
 * The behaviours of the soft device where real drivers differ (see {@code docs/driver-notes.md}).
 * Each profile is one soft device; {@link #deviceName()} is its name in
 * {@link SoftProvider#devices()}, in the declaration order (rxe first, the default).
 *
 * <table>
 *   <caption>What each profile does</caption>
 *   <tr><th></th><th>{@link #RXE} ({@code soft_rxe0})</th><th>{@link #MLX5} ({@code soft_mlx5_0})</th>
 *       <th>{@link #EFA} ({@code soft_efa0})</th></tr>
 *   <tr><td>device attributes</td><td>exactly ibv_devinfo -v of rxe0 (kernel 6.1, rdma-core 44), except
 *       the node GUID</td><td>a ConnectX-5 (not measured; typical values)</td>
 *       <td>an AWS EFA (not measured; typical values)</td></tr>
 *   <tr><td>SRQ</td><td>yes</td><td>yes</td><td>none: ibv_create_srq EOPNOTSUPP, a QP with an SRQ EINVAL</td></tr>
 *   <tr><td>max_wr actual</td><td>2^n − 1 ≥ requested (1024 → 2047)</td><td>2^n − 1 ≥ requested</td><td>–</td></tr>
 *   <tr><td>max_sge actual</td><td>as requested (0 → 1)</td><td>what the 2^n-byte WQE holds
 *       (2 → 3, 4 → 7)</td><td>–</td></tr>
 *   <tr><td>resize (IBV_SRQ_MAX_WR)</td><td>SRQ_RESIZE: yes, rxe_srq_chk_attr rules</td><td>EINVAL</td><td>–</td></tr>
 *   <tr><td>srq_limit accepted</td><td>≤ max_wr and ≤ max_srq_wr</td><td>&lt; max_wr</td><td>–</td></tr>
 *   <tr><td>create-time srq_limit</td><td>honoured</td><td>ignored (reads 0)</td><td>–</td></tr>
 *   <tr><td>XRC</td><td>no (ibv_open_xrcd EOPNOTSUPP)</td><td>yes</td><td>no</td></tr>
 *   <tr><td>a too long SEND: receive / send status</td><td>{@code LOC_QP_OP_ERR} / {@code REM_OP_ERR}
 *       (measured on rxe0)</td>
 *       <td>{@code LOC_LEN_ERR} / {@code REM_INV_REQ_ERR}</td><td>–</td></tr>
 *   <tr><td>src_qp of an RC receive (ibv_poll_cq(3): valid for UD only)</td><td>0, as rxe_resp.c leaves it</td>
 *       <td>the sender's QP number</td><td>–</td></tr>
 *   <tr><td>QP_LAST_WQE_REACHED</td><td>never, as rxe on kernel 6.1 (6.12 raises it; driver note 8)</td><td>when an SRQ-attached QP enters ERROR</td><td>–</td></tr>
 *   <tr><td>efadv_query_device</td><td>EOPNOTSUPP (empty)</td><td>EOPNOTSUPP (empty)</td>
 *       <td>attributes with every {@link io.rdma.srq.api.EfaCapability} bit</td></tr>
 * </table>
 */
public enum SoftProfile {
    /** Soft-RoCE as measured on rxe0 in the lab: the default. */
    RXE("soft_rxe0", 0x02005efffe000001L,
            new DeviceAttributes("0.0.0", 0x02005efffe000001L, 0x02005efffe000001L, -1L, 0xfffff000L,
                    0xffffffL, 0, 0, 1048560, 1048576, 0x01223c76L, 32, 32, 1048576, 32767, 524287, 1048576, 128,
                    0, 258048, 128, 0, 1, 0, 0, 524287, 0, 0, 8192, 56, 458752, 32767, 0, 0, 917503, 1048576, 27,
                    64, 15, 1),
            new PortAttributes(PortAttributes.STATE_ACTIVE, 5, 3, 1024, 0x00010000L, 0x800000L, 0, 0, 1, 0, 0, 0, 1,
                    0, 0, 0, 1, 1, 5, 2, 1, 0),
            // src_qp: rxe_resp.c sets it only from a DETH (UD), so an RC receive on rxe0 reads 0; so does this
            null, WcStatus.LOC_QP_OP_ERR, WcStatus.LOC_QP_OP_ERR, false, false, true),

    /** A Mellanox/NVIDIA ConnectX-5 (mlx5): no SRQ resize, create-time limit ignored, XRC. */
    MLX5("soft_mlx5_0", 0x02005efffe000002L,
            new DeviceAttributes("16.35.2000", 0x02005efffe000002L, 0x02005efffe000002L, -1L, 0xfffffffffffff000L,
                    0x02c9L, 4119, 0, 262144, 32768, 0xed721c36L, 30, 30, 16777216, 4194303, 16777216, 16777216, 16,
                    0, 4194304, 16, 0, 1, 0, 0, 16777216, 0, 0, 2097152, 240, 503316480, Integer.MAX_VALUE, 0, 0,
                    8388608, 32767, 31, 128, 16, 1),
            new PortAttributes(PortAttributes.STATE_ACTIVE, 5, 3, 256, 0x04010000L, 0x40000000L, 0, 0, 1, 0, 0, 0, 4,
                    0, 0, 0, 2, 32, 5, 2, 1, 0),
            null, WcStatus.LOC_LEN_ERR, WcStatus.LOC_PROT_ERR, true, true, false),

    /** An AWS Elastic Fabric Adapter: no SRQ, no RC, efadv attributes. */
    EFA("soft_efa0", 0x02005efffe000003L,
            new DeviceAttributes("0.0.0.0", 0x02005efffe000003L, 0x02005efffe000003L, 0x1000000000L, 0xfffff000L,
                    0x1d0fL, 0xefa0, 0, 256, 4096, 0, 2, 1, 512, 32768, 262144, 256, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                    0, 0, 0, 1024, 0, 0, 0, 0, 0, 1, 0, 1),
            new PortAttributes(PortAttributes.STATE_ACTIVE, 5, 5, 1, 0, 8928, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 5, 0,
                    0, 0),
            new EfaDeviceAttributes(4096, 32768, 2, 3, 32, 1L << 30, 0x3FL),
            WcStatus.LOC_LEN_ERR, WcStatus.LOC_PROT_ERR, false, false, false);

    private final String deviceName;
    private final long nodeGuid;
    private final DeviceAttributes device;
    private final PortAttributes port;
    private final EfaDeviceAttributes efa;
    private final WcStatus recvLengthError;
    private final WcStatus recvProtectionError;
    private final boolean rcSrcQpReported;
    private final boolean lastWqeReachedEvent;
    private final boolean createLimitHonoured;

    SoftProfile(String deviceName, long nodeGuid, DeviceAttributes device, PortAttributes port,
                EfaDeviceAttributes efa, WcStatus recvLengthError, WcStatus recvProtectionError,
                boolean rcSrcQpReported, boolean lastWqeReachedEvent, boolean createLimitHonoured) {
        this.deviceName = deviceName;
        this.nodeGuid = nodeGuid;
        this.device = device;
        this.port = port;
        this.efa = efa;
        this.recvLengthError = recvLengthError;
        this.recvProtectionError = recvProtectionError;
        this.rcSrcQpReported = rcSrcQpReported;
        this.lastWqeReachedEvent = lastWqeReachedEvent;
        this.createLimitHonoured = createLimitHonoured;
    }

    /** @return the soft device name of this profile: {@code soft_rxe0}, {@code soft_mlx5_0} or {@code soft_efa0} */
    public String deviceName() {
        return deviceName;
    }

    /** @return the node GUID in host order (locally administered, unique per soft device) */
    public long nodeGuid() {
        return nodeGuid;
    }

    /** @return what ibv_query_device(3) reports */
    public DeviceAttributes deviceAttributes() {
        return device;
    }

    /** @return what ibv_query_port(3) reports for port 1, the only port */
    public PortAttributes portAttributes() {
        return port;
    }

    /** @return whether this device has shared receive queues ({@code max_srq > 0}) */
    public boolean hasSrq() {
        return device.maxSrq() > 0;
    }

    /** @return whether ibv_modify_srq(3) may change max_wr (IBV_DEVICE_SRQ_RESIZE) */
    public boolean canResizeSrq() {
        return device.has(DeviceCapability.SRQ_RESIZE);
    }

    /** @return whether the device has XRC (IBV_DEVICE_XRC) */
    public boolean hasXrc() {
        return device.has(DeviceCapability.XRC);
    }

    /** @return whether RC QPs exist (not on EFA, which has UD and SRD only) */
    public boolean hasRc() {
        return this != EFA;
    }

    /** @return efadv_query_device(3) attributes, or {@code null} for a device that is not EFA */
    EfaDeviceAttributes efaAttributes() {
        return efa;
    }

    /** @return the receive status of a SEND longer than the receive buffer */
    WcStatus recvLengthError() {
        return recvLengthError;
    }

    /** @return the receive status when the receive SGE is not inside a writable MR of the QP's PD */
    WcStatus recvProtectionError() {
        return recvProtectionError;
    }

    /**
     * @return the sender's status when its SEND was longer than the receive buffer: REM_OP_ERR on
     *         rxe (measured on rxe0, kernel 6.1), REM_INV_REQ_ERR (the responder's NAK) elsewhere
     */
    WcStatus sendLengthError() {
        return this == RXE ? WcStatus.REM_OP_ERR : WcStatus.REM_INV_REQ_ERR;
    }

    /** @return whether an RC receive completion carries the sender's QP number in src_qp */
    boolean rcSrcQpReported() {
        return rcSrcQpReported;
    }

    /** @return whether an SRQ-attached QP entering ERROR raises IBV_EVENT_QP_LAST_WQE_REACHED */
    boolean lastWqeReachedEvent() {
        return lastWqeReachedEvent;
    }

    /** @return whether ibv_create_srq honours {@code srq_limit} (rxe) or ignores it (mlx4/mlx5) */
    public boolean createLimitHonoured() {
        return createLimitHonoured;
    }

    /**
     * ibv_create_srq(3)'s actual max_wr for a request: the next power of two above {@code maxWr}, minus
     * one (rxe_queue_init and mlx5_alloc_srq_buf both size the ring so).
     *
     * @param maxWr the requested max_wr, ≥ 1
     * @return the actual max_wr
     */
    static int actualMaxWr(int maxWr) {
        long slots = Long.highestOneBit((long) maxWr) << 1; // next power of two > maxWr, i.e. ≥ maxWr + 1
        return (int) Math.min(Integer.MAX_VALUE, slots - 1);
    }

    /**
     * The actual max_sge for a request.
     *
     * @param maxSge the requested max_sge, 0..max_srq_sge
     * @return rxe: the request (at least 1); mlx5: the data segments a 2^n-byte WQE of at least
     *         32 bytes holds after its 16-byte next segment
     */
    int actualMaxSge(int maxSge) {
        if (this == MLX5) {
            int size = Integer.highestOneBit(Math.max(32, 16 + 16 * maxSge) - 1) << 1;
            return (size - 16) / 16;
        }
        return Math.max(1, maxSge);
    }

    /**
     * Finds a profile by its name ({@code rxe}, {@code mlx5}, {@code efa}, any case) or device name.
     *
     * @param name the profile or device name
     * @return the profile
     * @throws IllegalArgumentException naming the known profiles if there is none of that name
     */
    public static SoftProfile of(String name) {
        for (SoftProfile p : values()) {
            if (p.name().equalsIgnoreCase(name) || p.deviceName.equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("no soft profile '" + name + "'; known: rxe (soft_rxe0), mlx5 (soft_mlx5_0), efa (soft_efa0)");
    }
}
