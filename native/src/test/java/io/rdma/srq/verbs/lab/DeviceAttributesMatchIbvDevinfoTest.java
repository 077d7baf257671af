package io.rdma.srq.verbs.lab;

import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.PortAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.Verbs;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Needs the rxe lab (a real verbs device): compares {@link Context#queryDevice()} and
 * {@link Context#queryPort(int) queryPort(1)} of the ibverbs provider, field by field, with the
 * {@code ibv_devinfo -v} output that the lab saved just before the JVM started, and prints both
 * side by side.
 * <p>
 * Runs only with {@code -Dverbs.provider=ibverbs -Dverbs.device=NAME -Dverbs.devinfo=FILE} and
 * FILE present; {@code it-tests/lab/run-lab.sh} sets all three. Skipped otherwise.
 */
class DeviceAttributesMatchIbvDevinfoTest {
    private static final String HOW = "needs the rxe lab: run it-tests/lab/run-lab.sh (it boots a guest with rxe0 and "
            + "passes -Dverbs.provider=ibverbs -Dverbs.device=rxe0 -Dverbs.devinfo=<reports>/ibv_devinfo.txt)";
    private static final Pattern HCA = Pattern.compile("^hca_id:\\s*(\\S+)\\s*$");
    private static final Pattern PORT = Pattern.compile("^\\s+port:\\s*(\\d+)\\s*$");
    private static final Pattern KEY_VALUE = Pattern.compile("^\\s+([A-Za-z0-9_]+):\\s*(.*?)\\s*$");
    private static final Pattern GID = Pattern.compile("^\\s+GID\\[\\s*(\\d+)\\]:.*$");
    private static final Pattern IN_PARENS = Pattern.compile("\\((-?\\d+)\\)\\s*$");

    /** The block of one device in {@code ibv_devinfo -v} output: device keys, port keys, GID lines. */
    record Devinfo(Map<String, String> device, Map<Integer, Map<String, String>> ports,
                   Map<Integer, Integer> gidLines) {

        static Devinfo parse(List<String> lines, String deviceName) {
            Map<String, String> device = new LinkedHashMap<>();
            Map<Integer, Map<String, String>> ports = new LinkedHashMap<>();
            Map<Integer, Integer> gids = new LinkedHashMap<>();
            boolean inDevice = false;
            boolean found = false;
            Integer port = null;
            for (String line : lines) {
                Matcher m = HCA.matcher(line);
                if (m.matches()) {
                    inDevice = m.group(1).equals(deviceName);
                    found |= inDevice;
                    port = null;
                    continue;
                }
                if (!inDevice) {
                    continue;
                }
                if ((m = PORT.matcher(line)).matches()) {
                    port = Integer.valueOf(m.group(1));
                    ports.put(port, new LinkedHashMap<>());
                } else if ((m = GID.matcher(line)).matches()) {
                    if (port != null) {
                        gids.merge(port, 1, Integer::sum);
                    }
                } else if ((m = KEY_VALUE.matcher(line)).matches()) {
                    (port == null ? device : ports.get(port)).putIfAbsent(m.group(1), m.group(2));
                }
            }
            if (!found) {
                throw new IllegalArgumentException("no 'hca_id:\t" + deviceName + "' block in the ibv_devinfo output");
            }
            return new Devinfo(device, ports, gids);
        }
    }

    /** One compared field: what Java says, what ibv_devinfo says, whether they agree. */
    record Row(String field, String java, String devinfo, boolean match) {
    }

    /** Builds rows for one ibv_devinfo key block. */
    private static final class Table {
        private final Map<String, String> text;
        private final List<Row> rows = new ArrayList<>();

        Table(Map<String, String> text) {
            this.text = text;
        }

        /** A number printed as decimal or 0x-hex; the Java value is shown in the same radix. */
        Table num(String key, long java) {
            String v = text.get(key);
            if (v == null) {
                rows.add(new Row(key, Long.toUnsignedString(java), "(absent)", false));
                return this;
            }
            String token = v.split("\\s+")[0];
            boolean hex = token.startsWith("0x") || token.startsWith("0X");
            String shown = Long.toUnsignedString(java);
            if (hex) {   // as wide as ibv_devinfo prints it (0x%08x, 0x%04x, ...)
                String digits = Long.toHexString(java);
                shown = "0x" + "0".repeat(Math.max(0, token.length() - 2 - digits.length())) + digits;
            }
            Long parsed = parseNumber(token);
            rows.add(new Row(key, shown, v, parsed != null && parsed == java));
            return this;
        }

        /** Like {@link #num} but skipped when ibv_devinfo did not print the key. */
        Table numIfPrinted(String key, long java) {
            return text.containsKey(key) ? num(key, java) : this;
        }

        /** "NAME (n)": compares n. */
        Table enumeration(String key, long java) {
            String v = text.get(key);
            Matcher m = v == null ? null : IN_PARENS.matcher(v);
            boolean ok = m != null && m.find() && Long.parseLong(m.group(1)) == java;
            rows.add(new Row(key, Long.toString(java), v == null ? "(absent)" : v, ok));
            return this;
        }

        Table enumerationIfPrinted(String key, long java) {
            return text.containsKey(key) ? enumeration(key, java) : this;
        }

        /** xxxx:xxxx:xxxx:xxxx of the GUID in host order. */
        Table guid(String key, long java) {
            String v = text.get(key);
            String shown = String.format("%04x:%04x:%04x:%04x", (java >>> 48) & 0xffff, (java >>> 32) & 0xffff,
                    (java >>> 16) & 0xffff, java & 0xffff);
            rows.add(new Row(key, shown, v == null ? "(absent)" : v, shown.equalsIgnoreCase(v)));
            return this;
        }

        Table string(String key, String java, String whenAbsent) {
            String v = text.get(key);
            String expected = v == null ? whenAbsent : v;
            rows.add(new Row(key, java, v == null ? "(absent)" : v, expected != null && expected.equals(java)));
            return this;
        }

        static Long parseNumber(String token) {
            try {
                if (token.startsWith("0x") || token.startsWith("0X")) {
                    return Long.parseUnsignedLong(token.substring(2), 16);
                }
                return Long.parseLong(token);
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    private record Lab(String device, Path devinfoFile, Devinfo devinfo) {
    }

    private static Lab lab() throws IOException {
        String provider = System.getProperty("verbs.provider");
        String device = System.getProperty("verbs.device");
        String devinfo = System.getProperty("verbs.devinfo");
        assumeTrue(Verbs.IBVERBS.equals(provider) && device != null && !device.isBlank(),
                () -> HOW + "; got verbs.provider=" + provider + ", verbs.device=" + device);
        assumeTrue(devinfo != null && Files.isRegularFile(Path.of(devinfo)),
                () -> HOW + "; verbs.devinfo=" + devinfo + " is not an existing file");
        Path file = Path.of(devinfo);
        return new Lab(device, file, Devinfo.parse(Files.readAllLines(file), device));
    }

    @Test
    void queryDeviceMatchesIbvDevinfo() throws IOException, VerbsException {
        Lab lab = lab();
        DeviceAttributes d;
        try (Context ctx = Verbs.provider(Verbs.IBVERBS).open(lab.device())) {
            d = ctx.queryDevice();
        }
        Table t = new Table(lab.devinfo().device())
                .string("fw_ver", d.fwVersion(), "")      // ibv_devinfo omits an empty fw_ver
                .guid("node_guid", d.nodeGuid())
                .guid("sys_image_guid", d.sysImageGuid())
                .num("vendor_id", d.vendorId())
                .num("vendor_part_id", d.vendorPartId())
                .num("hw_ver", d.hwVersion())
                .num("phys_port_cnt", d.physPortCnt())
                .num("max_mr_size", d.maxMrSize())
                .num("page_size_cap", d.pageSizeCap())
                .num("max_qp", d.maxQp())
                .num("max_qp_wr", d.maxQpWr())
                .num("device_cap_flags", d.deviceCapFlags())
                .num("max_sge", d.maxSge())
                .num("max_sge_rd", d.maxSgeRd())
                .num("max_cq", d.maxCq())
                .num("max_cqe", d.maxCqe())
                .num("max_mr", d.maxMr())
                .num("max_pd", d.maxPd())
                .num("max_qp_rd_atom", d.maxQpRdAtom())
                .num("max_ee_rd_atom", d.maxEeRdAtom())
                .num("max_res_rd_atom", d.maxResRdAtom())
                .num("max_qp_init_rd_atom", d.maxQpInitRdAtom())
                .num("max_ee_init_rd_atom", d.maxEeInitRdAtom())
                .enumeration("atomic_cap", d.atomicCap())
                .num("max_ee", d.maxEe())
                .num("max_rdd", d.maxRdd())
                .num("max_mw", d.maxMw())
                .num("max_raw_ipv6_qp", d.maxRawIpv6Qp())
                .num("max_raw_ethy_qp", d.maxRawEthyQp())
                .num("max_mcast_grp", d.maxMcastGrp())
                .num("max_mcast_qp_attach", d.maxMcastQpAttach())
                .num("max_total_mcast_qp_attach", d.maxTotalMcastQpAttach())
                .num("max_ah", d.maxAh())
                .num("max_fmr", d.maxFmr())
                .numIfPrinted("max_map_per_fmr", d.maxMapPerFmr())   // printed only if max_fmr != 0
                .num("max_srq", d.maxSrq());
        if (d.maxSrq() != 0) {                                        // printed only if max_srq != 0
            t.num("max_srq_wr", d.maxSrqWr()).num("max_srq_sge", d.maxSrqSge());
        }
        t.num("max_pkeys", d.maxPkeys()).num("local_ca_ack_delay", d.localCaAckDelay());
        report(lab, "queryDevice()", t.rows);
    }

    @Test
    void queryPort1MatchesIbvDevinfo() throws IOException, VerbsException {
        Lab lab = lab();
        Map<String, String> port1 = lab.devinfo().ports().get(1);
        assertTrue(port1 != null, () -> "ibv_devinfo printed no 'port: 1' for " + lab.device());
        PortAttributes p;
        try (Context ctx = Verbs.provider(Verbs.IBVERBS).open(lab.device())) {
            p = ctx.queryPort(1);
        }
        Table t = new Table(port1)
                .enumeration("state", p.state())
                .enumeration("max_mtu", p.maxMtu())
                .enumeration("active_mtu", p.activeMtu())
                .num("sm_lid", p.smLid())
                .num("port_lid", p.lid())
                .num("port_lmc", p.lmc())
                .string("link_layer", linkLayer(p.linkLayer()), null)
                .numIfPrinted("max_msg_sz", p.maxMsgSz())
                .numIfPrinted("port_cap_flags", p.portCapFlags())
                .numIfPrinted("port_cap_flags2", p.portCapFlags2())
                .enumerationIfPrinted("max_vl_num", p.maxVlNum())
                .numIfPrinted("sm_sl", p.smSl())
                .numIfPrinted("pkey_tbl_len", p.pkeyTblLen())
                .numIfPrinted("gid_tbl_len", p.gidTblLen())
                .numIfPrinted("subnet_timeout", p.subnetTimeout())
                .numIfPrinted("init_type_reply", p.initTypeReply())
                .enumerationIfPrinted("active_width", p.activeWidth())
                .enumerationIfPrinted("active_speed", p.activeSpeed())
                .enumerationIfPrinted("phys_state", p.physState());
        Integer gidLines = lab.devinfo().gidLines().get(1);
        if (gidLines != null) {   // ibv_devinfo prints the non-empty GIDs; there cannot be more than gid_tbl_len
            t.rows.add(new Row("GID lines <= gid_tbl_len", Integer.toString(p.gidTblLen()), gidLines + " GID lines",
                    gidLines <= p.gidTblLen()));
        }
        report(lab, "queryPort(1)", t.rows);
    }

    /** rdma-core's link_layer_str(): UNSPECIFIED and INFINIBAND print as InfiniBand. */
    private static String linkLayer(int linkLayer) {
        return switch (linkLayer) {
            case 0, 1 -> "InfiniBand";
            case 2 -> "Ethernet";
            default -> "Unknown";
        };
    }

    private static void report(Lab lab, String what, List<Row> rows) {
        int w = Math.max(26, rows.stream().mapToInt(r -> r.field().length()).max().orElse(0) + 2);
        int jw = Math.max(22, rows.stream().mapToInt(r -> r.java().length()).max().orElse(0) + 2);
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%n%s of %s vs ibv_devinfo -v (%s)%n", what, lab.device(), lab.devinfoFile()));
        sb.append(String.format("%-" + w + "s%-" + jw + "s%-26s%s%n", "field", "Java", "ibv_devinfo", "match"));
        List<String> mismatches = new ArrayList<>();
        for (Row r : rows) {
            sb.append(String.format("%-" + w + "s%-" + jw + "s%-26s%s%n", r.field(), r.java(), r.devinfo(),
                    r.match() ? "ok" : "MISMATCH"));
            if (!r.match()) {
                mismatches.add(r.field() + ": Java " + r.java() + ", ibv_devinfo " + r.devinfo());
            }
        }
        System.out.print(sb);
        System.out.flush();
        if (!mismatches.isEmpty()) {
            fail(what + " of " + lab.device() + " differs from ibv_devinfo -v in " + mismatches.size() + " of "
                    + rows.size() + " fields: " + String.join("; ", mismatches));
        }
    }
}
