package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.DeviceCapability;
import io.rdma.srq.api.EfaDeviceAttributes;
import io.rdma.srq.api.PortAttributes;
import io.rdma.srq.api.WcStatus;

/**
 * The behaviours of the soft device where real drivers differ (see {@code docs/driver-notes.md}).
 * Each profile is one soft device; {@link #deviceName()} is its name in
 * {@link SoftProvider#devices()}, in the declaration order (rxe first, the default). Its device and
 * port attributes are built field by field; what drivers do differently without a capability bit
 * to say so is its {@link #quirks()}, one named property each, with the source of each value beside it.
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
 *   <tr><td>a receive SGE outside a writable MR: receive status</td><td>{@code LOC_QP_OP_ERR}</td>
 *       <td>{@code LOC_PROT_ERR}</td><td>–</td></tr>
 *   <tr><td>a send from a deregistered MR or one of another PD: send status (driver note 20)</td>
 *       <td>{@code LOC_QP_OP_ERR}</td><td>{@code LOC_PROT_ERR}</td><td>–</td></tr>
 *   <tr><td>src_qp of an RC receive (ibv_poll_cq(3): valid for UD only)</td><td>0, as rxe_resp.c leaves it</td>
 *       <td>the sender's QP number</td><td>–</td></tr>
 *   <tr><td>QP_LAST_WQE_REACHED</td><td>never, as rxe on kernel 6.1 (6.12 raises it; driver note 8)</td><td>when an SRQ-attached QP enters ERROR</td><td>–</td></tr>
 *   <tr><td>unpolled completions of a destroyed QP (driver note 18)</td><td>stay in the CQ</td>
 *       <td>removed from its CQs ({@code __mlx5_cq_clean}): never polled</td><td>stay in the CQ</td></tr>
 *   <tr><td>efadv_query_device</td><td>EOPNOTSUPP (empty)</td><td>EOPNOTSUPP (empty)</td>
 *       <td>attributes with every {@link io.rdma.srq.api.EfaCapability} bit</td></tr>
 * </table>
 */
public enum SoftProfile {
    /** Soft-RoCE as measured on rxe0 in the lab (kernel 6.1, rdma-core 44): the default. Fields not set are 0. */
    RXE("soft_rxe0",
            DeviceAttributes.builder()
                    .fwVersion("0.0.0")
                    .nodeGuid(0x02005efffe000001L)
                    .sysImageGuid(0x02005efffe000001L)
                    .maxMrSize(-1L)
                    .pageSizeCap(0xfffff000L)
                    .vendorId(0xffffffL)
                    .maxQp(1048560)
                    .maxQpWr(1048576)
                    .deviceCapFlags(0x01223c76L)
                    .maxSge(32)
                    .maxSgeRd(32)
                    .maxCq(1048576)
                    .maxCqe(32767)
                    .maxMr(524287)
                    .maxPd(1048576)
                    .maxQpRdAtom(128)
                    .maxResRdAtom(258048)
                    .maxQpInitRdAtom(128)
                    .atomicCap(1)
                    .maxMw(524287)
                    .maxMcastGrp(8192)
                    .maxMcastQpAttach(56)
                    .maxTotalMcastQpAttach(458752)
                    .maxAh(32767)
                    .maxSrq(917503)
                    .maxSrqWr(1048576)
                    .maxSrqSge(27)
                    .maxPkeys(64)
                    .localCaAckDelay(15)
                    .physPortCnt(1)
                    .build(),
            rocePortUp()
                    .activeMtu(3)
                    .gidTblLen(1024)
                    .portCapFlags(0x00010000L)
                    .maxMsgSz(0x800000L)
                    .maxVlNum(1)
                    .activeWidth(1)
                    .activeSpeed(1)
                    .build(),
            null,
            DriverQuirks.builder()
                    .hasRc(true)
                    .createLimitHonoured(true)                        // driver note 4 (rxe_srq.c)
                    .limitMustBeBelowMaxWr(false)                     // driver note 2: srq_limit ≤ max_wr
                    .srqSgeSizing(DriverQuirks.SrqSgeSizing.AS_REQUESTED) // rxe_srq.c rxe_srq_chk_init
                    .recvLengthError(WcStatus.LOC_QP_OP_ERR)          // measured on rxe0 (lab, kernel 6.1)
                    .sendLengthError(WcStatus.REM_OP_ERR)             // measured on rxe0 (lab, kernel 6.1)
                    .recvProtectionError(WcStatus.LOC_QP_OP_ERR)      // rxe_resp.c RESPST_ERR_MALFORMED_WQE; lab
                    .sendKeyError(WcStatus.LOC_QP_OP_ERR)             // rxe_req.c finish_packet (lookup_mr); lab
                    .rcSrcQpReported(false)                           // rxe_resp.c do_complete: only from a DETH; lab
                    .lastWqeReachedEvent(false)                       // driver note 8: kernel 6.1 never raises it
                    .destroyCleansCq(false)                           // driver note 18: rxe leaves them
                    .build()),

    /** A Mellanox/NVIDIA ConnectX-5 (mlx5; typical values, not measured). Fields not set are 0. */
    MLX5("soft_mlx5_0",
            DeviceAttributes.builder()
                    .fwVersion("16.35.2000")
                    .nodeGuid(0x02005efffe000002L)
                    .sysImageGuid(0x02005efffe000002L)
                    .maxMrSize(-1L)
                    .pageSizeCap(0xfffffffffffff000L)
                    .vendorId(0x02c9L)
                    .vendorPartId(4119)
                    .maxQp(262144)
                    .maxQpWr(32768)
                    .deviceCapFlags(0xed721c36L)
                    .maxSge(30)
                    .maxSgeRd(30)
                    .maxCq(16777216)
                    .maxCqe(4194303)
                    .maxMr(16777216)
                    .maxPd(16777216)
                    .maxQpRdAtom(16)
                    .maxResRdAtom(4194304)
                    .maxQpInitRdAtom(16)
                    .atomicCap(1)
                    .maxMw(16777216)
                    .maxMcastGrp(2097152)
                    .maxMcastQpAttach(240)
                    .maxTotalMcastQpAttach(503316480)
                    .maxAh(Integer.MAX_VALUE)
                    .maxSrq(8388608)
                    .maxSrqWr(32767)
                    .maxSrqSge(31)
                    .maxPkeys(128)
                    .localCaAckDelay(16)
                    .physPortCnt(1)
                    .build(),
            rocePortUp()
                    .activeMtu(3)
                    .gidTblLen(256)
                    .portCapFlags(0x04010000L)
                    .maxMsgSz(0x40000000L)
                    .maxVlNum(4)
                    .activeWidth(2)
                    .activeSpeed(32)
                    .build(),
            null,
            DriverQuirks.builder()
                    .hasRc(true)
                    .createLimitHonoured(false)                       // driver note 4 (mlx5 provider)
                    .limitMustBeBelowMaxWr(true)                      // driver note 1 (mlx5 srq.c, verbs.c)
                    .srqSgeSizing(DriverQuirks.SrqSgeSizing.MLX5_WQE) // mlx5 srq.c mlx5_alloc_srq_buf
                    .recvLengthError(WcStatus.LOC_LEN_ERR)            // mlx5 cq.c: CQE syndrome LOCAL_LENGTH_ERR
                    .sendLengthError(WcStatus.REM_INV_REQ_ERR)        // mlx5 cq.c: syndrome REMOTE_INVAL_REQ_ERR
                    .recvProtectionError(WcStatus.LOC_PROT_ERR)       // mlx5 cq.c: syndrome LOCAL_PROT_ERR
                    .sendKeyError(WcStatus.LOC_PROT_ERR)              // mlx5 cq.c: syndrome LOCAL_PROT_ERR
                    .rcSrcQpReported(true)                            // mlx5 cq.c: src_qp from the CQE's flags_rqpn
                    .lastWqeReachedEvent(true)                        // driver note 8
                    .destroyCleansCq(true)                            // driver note 18: __mlx5_cq_clean
                    .build()),

    /** An AWS Elastic Fabric Adapter (typical values, not measured): no SRQ, no RC. Fields not set are 0. */
    EFA("soft_efa0",
            DeviceAttributes.builder()
                    .fwVersion("0.0.0.0")
                    .nodeGuid(0x02005efffe000003L)
                    .sysImageGuid(0x02005efffe000003L)
                    .maxMrSize(0x1000000000L)
                    .pageSizeCap(0xfffff000L)
                    .vendorId(0x1d0fL)
                    .vendorPartId(0xefa0)
                    .maxQp(256)
                    .maxQpWr(4096)
                    .maxSge(2)
                    .maxSgeRd(1)
                    .maxCq(512)
                    .maxCqe(32768)
                    .maxMr(262144)
                    .maxPd(256)
                    .maxAh(1024)
                    .maxPkeys(1)
                    .physPortCnt(1)
                    .build(),
            PortAttributes.builder()
                    .state(PortAttributes.STATE_ACTIVE)
                    .maxMtu(5)
                    .activeMtu(5)
                    .gidTblLen(1)
                    .maxMsgSz(8928)
                    .pkeyTblLen(1)
                    .maxVlNum(1)
                    .activeWidth(1)
                    .activeSpeed(1)
                    .physState(5)
                    .build(),
            EfaDeviceAttributes.builder()                             // driver note 11; every capability bit
                    .maxSqWr(4096)
                    .maxRqWr(32768)
                    .maxSqSge(2)
                    .maxRqSge(3)
                    .inlineBufSize(32)
                    .maxRdmaSize(1L << 30)
                    .deviceCaps(0x3FL)
                    .build(),
            DriverQuirks.builder()                                    // EFA has neither RC nor SRQ (driver note 11):
                    .hasRc(false)                                     // providers/efa/verbs.c: UD and SRD QPs only
                    .srqSgeSizing(DriverQuirks.SrqSgeSizing.AS_REQUESTED) // the rest is never reached
                    .recvLengthError(WcStatus.LOC_LEN_ERR)
                    .sendLengthError(WcStatus.REM_INV_REQ_ERR)
                    .recvProtectionError(WcStatus.LOC_PROT_ERR)
                    .sendKeyError(WcStatus.LOC_PROT_ERR)
                    .build());

    private final String deviceName;
    private final DeviceAttributes device;
    private final PortAttributes port;
    private final EfaDeviceAttributes efa;
    private final DriverQuirks quirks;

    SoftProfile(String deviceName, DeviceAttributes device, PortAttributes port, EfaDeviceAttributes efa,
                DriverQuirks quirks) {
        this.deviceName = deviceName;
        this.device = device;
        this.port = port;
        this.efa = efa;
        this.quirks = quirks;
    }

    /**
     * {@return what every RoCE port that is up reports alike} ACTIVE, max_mtu 4096 (5), one P_Key,
     * phys_state LinkUp (5), link_layer ETHERNET (2), flags IBV_QPF_GRH_REQUIRED (1); the rest is
     * per device.
     */
    private static PortAttributes.Builder rocePortUp() {
        return PortAttributes.builder()
                .state(PortAttributes.STATE_ACTIVE)
                .maxMtu(5)
                .pkeyTblLen(1)
                .physState(5)
                .linkLayer(2)
                .flags(1);
    }

    /** {@return the soft device name of this profile: {@code soft_rxe0}, {@code soft_mlx5_0} or {@code soft_efa0}} */
    public String deviceName() {
        return deviceName;
    }

    /**
     * {@return the node GUID in host order (locally administered, unique per soft device): node_guid of {@link #deviceAttributes()}}
     */
    public long nodeGuid() {
        return device.nodeGuid();
    }

    /** {@return what ibv_query_device(3) reports} */
    public DeviceAttributes deviceAttributes() {
        return device;
    }

    /** {@return what ibv_query_port(3) reports for port 1, the only port} */
    public PortAttributes portAttributes() {
        return port;
    }

    /** {@return efadv_query_device(3) attributes, or {@code null} for a device that is not EFA} */
    EfaDeviceAttributes efaAttributes() {
        return efa;
    }

    /** {@return the driver behaviours no device attribute announces} */
    public DriverQuirks quirks() {
        return quirks;
    }

    /** {@return whether this device has shared receive queues ({@code max_srq > 0})} */
    public boolean hasSrq() {
        return device.maxSrq() > 0;
    }

    /** {@return whether ibv_modify_srq(3) may change max_wr (IBV_DEVICE_SRQ_RESIZE)} */
    public boolean canResizeSrq() {
        return device.has(DeviceCapability.SRQ_RESIZE);
    }

    /** {@return whether the device has XRC (IBV_DEVICE_XRC)} */
    public boolean hasXrc() {
        return device.has(DeviceCapability.XRC);
    }

    /**
     * The actual size of a ring for a request: ibv_create_srq(3)'s max_wr and ibv_create_cq(3)'s cqe,
     * the next power of two above {@code maxWr}, minus one (rxe_queue_init and mlx5_alloc_srq_buf both
     * size the ring so).
     *
     * @param maxWr the requested max_wr or cqe, ≥ 1
     * @return the actual size
     */
    static int actualMaxWr(int maxWr) {
        long slots = Long.highestOneBit((long) maxWr) << 1; // next power of two > maxWr, i.e. ≥ maxWr + 1
        return (int) Math.min(Integer.MAX_VALUE, slots - 1);
    }

    /**
     * The actual max_sge for a request, by {@link DriverQuirks#srqSgeSizing()}.
     *
     * @param maxSge the requested max_sge, 0..max_srq_sge
     * @return the actual max_sge
     */
    int actualMaxSge(int maxSge) {
        return quirks.srqSgeSizing().actual(maxSge);
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
