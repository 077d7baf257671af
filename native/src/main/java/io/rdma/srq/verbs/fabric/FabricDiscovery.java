package io.rdma.srq.verbs.fabric;

import io.rdma.srq.verbs.ffi.fabric.Fabric;
import io.rdma.srq.verbs.ffi.fabric.fi_domain_attr;
import io.rdma.srq.verbs.ffi.fabric.fi_ep_attr;
import io.rdma.srq.verbs.ffi.fabric.fi_fabric_attr;
import io.rdma.srq.verbs.ffi.fabric.fi_info;
import io.rdma.srq.verbs.ffi.fabric.fi_rx_attr;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * What libfabric offers that the fabric provider can use: the fi_getinfo(3) answers for
 * reliable connected endpoints (FI_EP_MSG, FI_MSG) whose domain lets them share a receive context
 * (max_ep_srx_ctx &gt; 0) — tcp everywhere, verbs where an RDMA device exists; shm and efa offer
 * only RDM endpoints and are never listed (driver note 27). In fi_getinfo's order, which is its
 * preference.
 */
public final class FabricDiscovery {
    /** FI_VERSION(1, 17): the oldest API supported, Debian 12's libfabric. */
    static final int API = FabricOps.version(1, 17);

    private FabricDiscovery() {
    }

    /**
     * One usable fabric.
     *
     * @param provider     the libfabric provider, e.g. {@code tcp}, {@code verbs}
     * @param fabric       the fabric's name, e.g. {@code 127.0.0.1/32} or an IB subnet
     * @param domain       the domain's name: an interface ({@code lo}, {@code eth0}) or a device
     * @param maxEpSrxCtx  max_ep_srx_ctx: how many endpoints may share one receive context
     * @param srxSize      rx_attr size: the receive context's default depth, in receives
     * @param cqDataSize   cq_data_size: bytes of remote CQ data a send may carry (imm_data needs 4)
     */
    public record Choice(String provider, String fabric, String domain, long maxEpSrxCtx, long srxSize,
                         long cqDataSize) {
    }

    /**
     * Lists the usable fabrics.
     *
     * @param provider a libfabric provider name to keep to, or null for every one
     * @return the choices, fi_getinfo's preference first; empty when none (FI_ENODATA) or when
     *         libfabric is not installed
     * @throws io.rdma.srq.api.VerbsException another failure of fi_getinfo, with its errno
     */
    public static List<Choice> msgWithSharedReceive(String provider) {
        if (!FabricLibrary.load()) {
            return List.of();
        }
        MemorySegment first = info(provider, null, null, 0);
        if (first.equals(MemorySegment.NULL)) {
            return List.of();
        }
        try {
            return choices(first);
        } finally {
            Fabric.fi_freeinfo(first);
        }
    }

    /**
     * fi_getinfo(3) for reliable connected endpoints (FI_EP_MSG with FI_MSG), thread-safe domains
     * (FI_THREAD_SAFE), the mr_mode bits FI_MR_LOCAL, FI_MR_VIRT_ADDR, FI_MR_ALLOCATED and
     * FI_MR_PROV_KEY (the PD registers memory where the provider asks it: verbs does, tcp does not)
     * and no mode bit but FI_RX_CQ_DATA (the provider may not use our operation contexts).
     *
     * @param provider the libfabric provider name, or null for any
     * @param node     a host to connect to or (with FI_SOURCE) to listen on, or null
     * @param service  a port, or null
     * @param flags    0 or FI_SOURCE
     * @return the list (free it with fi_freeinfo), or NULL when nothing matches (FI_ENODATA)
     * @throws io.rdma.srq.api.VerbsException another failure of fi_getinfo, with its errno
     */
    public static MemorySegment info(String provider, String node, String service, long flags) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment hints = Fabric.fi_dupinfo(MemorySegment.NULL).reinterpret(fi_info.sizeof());
            fi_ep_attr.type(fi_info.ep_attr(hints).reinterpret(fi_ep_attr.sizeof()), Fabric.FI_EP_MSG());
            fi_info.caps(hints, Fabric.FI_MSG());
            MemorySegment domainAttr = fi_info.domain_attr(hints).reinterpret(fi_domain_attr.sizeof());
            fi_domain_attr.threading(domainAttr, Fabric.FI_THREAD_SAFE());
            // the registration modes the PD honours (FabricProtectionDomain): verbs needs them all
            fi_domain_attr.mr_mode(domainAttr, Fabric.FI_MR_LOCAL() | Fabric.FI_MR_VIRT_ADDR()
                    | Fabric.FI_MR_ALLOCATED() | Fabric.FI_MR_PROV_KEY());
            // receives are posted for every message with CQ data (a SEND with imm consumes one)
            fi_info.mode(hints, Fabric.FI_RX_CQ_DATA());
            fi_rx_attr.mode(fi_info.rx_attr(hints).reinterpret(fi_rx_attr.sizeof()), Fabric.FI_RX_CQ_DATA());
            MemorySegment fabricAttr = fi_info.fabric_attr(hints).reinterpret(fi_fabric_attr.sizeof());
            if (provider != null) {
                fi_fabric_attr.prov_name(fabricAttr, arena.allocateFrom(provider));
            }
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            int rc = Fabric.fi_getinfo(API, node == null ? MemorySegment.NULL : arena.allocateFrom(node),
                    service == null ? MemorySegment.NULL : arena.allocateFrom(service), flags, hints, out);
            fi_fabric_attr.prov_name(fabricAttr, MemorySegment.NULL); // ours: fi_freeinfo must not free it
            Fabric.fi_freeinfo(hints);
            if (rc == -Fabric.FI_ENODATA()) {
                return MemorySegment.NULL;
            }
            FabricOps.check("fi_getinfo", rc);
            return out.get(ValueLayout.ADDRESS, 0);
        }
    }

    private static List<Choice> choices(MemorySegment first) {
        List<Choice> choices = new ArrayList<>();
        MemorySegment next = first;
        while (!next.equals(MemorySegment.NULL)) {
            MemorySegment info = next.reinterpret(fi_info.sizeof());
            next = fi_info.next(info);
            MemorySegment domain = fi_info.domain_attr(info).reinterpret(fi_domain_attr.sizeof());
            MemorySegment fabric = fi_info.fabric_attr(info).reinterpret(fi_fabric_attr.sizeof());
            long srx = fi_domain_attr.max_ep_srx_ctx(domain);
            int type = fi_ep_attr.type(fi_info.ep_attr(info).reinterpret(fi_ep_attr.sizeof()));
            if (srx <= 0 || type != Fabric.FI_EP_MSG()) {
                continue;
            }
            Choice c = new Choice(text(fi_fabric_attr.prov_name(fabric)), text(fi_fabric_attr.name(fabric)),
                    text(fi_domain_attr.name(domain)), srx,
                    fi_rx_attr.size(fi_info.rx_attr(info).reinterpret(fi_rx_attr.sizeof())),
                    fi_domain_attr.cq_data_size(domain));
            if (!choices.contains(c)) {
                choices.add(c);
            }
        }
        return List.copyOf(choices);
    }

    private static String text(MemorySegment cString) {
        return cString.equals(MemorySegment.NULL) ? "" : cString.reinterpret(4096).getString(0);
    }
}
