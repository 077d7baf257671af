package io.rdma.srq.ra.inbound;

import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.ra.PropertyCheck;
import jakarta.resource.spi.InvalidPropertyException;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * The parsed, checked configuration of one activation.
 *
 * @param provider       auto | ibverbs | soft
 * @param device         device name, empty for the provider's first (of softProfile for soft)
 * @param softProfile    rxe | mlx5 | efa
 * @param srqName        name of the SRQ (for statistics and the CDI event)
 * @param srqMaxWr       receive WRs the SRQ holds at most, 1..max_srq_wr
 * @param srqMaxSge      SGEs per receive WR, 1..max_srq_sge
 * @param bufferSize     bytes per receive buffer, 1..1 GiB
 * @param srqLimit       low watermark in WRs, 0..srqMaxWr (0: no limit events)
 * @param cqSize         CQ entries, srqMaxWr..max_cqe
 * @param pollMode       busy | event | adaptive
 * @param maxConcurrency endpoints delivering at once, 1..1024
 * @param listenAddress  the rdma_cm listen address (an address of the device's netdev; soft: any)
 * @param listenPort     the rdma_cm port, 0..65535 (0 = any)
 * @param initialFill    receive WRs posted at start, 1..srqMaxWr
 * @param replenish      fixed | grow
 * @param replyBufferSize   bytes per reply (ReceiveCompletion.reply), 1..1 GiB
 * @param connectTo         a remote rdma_cm listener to keep connections to, or null for none
 * @param connectCount      connections kept to {@code connectTo}, 1..1024
 * @param reconnectInterval pause before a failed or lost connection is tried again
 */
public record InboundConfig(String provider, String device, String softProfile, String srqName, int srqMaxWr,
                            int srqMaxSge, int bufferSize, int srqLimit, int cqSize, PollMode pollMode,
                            int maxConcurrency, String listenAddress, int listenPort, int initialFill,
                            Replenish replenish, int replyBufferSize, InetSocketAddress connectTo, int connectCount,
                            Duration reconnectInterval) {

    /** How the poller waits for completions. */
    public enum PollMode {
        /** spins on ibv_poll_cq: lowest latency, one core busy. */
        BUSY,
        /** arms the CQ and sleeps on the completion channel. */
        EVENT,
        /** spins a while after traffic, then sleeps on the completion channel. */
        ADAPTIVE
    }

    /** How the fill level reacts to SRQ-limit events. */
    public enum Replenish {
        /** keep the fill level as configured. */
        FIXED,
        /** double the fill level on each limit event, up to srqMaxWr (MVAPICH2-style). */
        GROW
    }

    static final List<String> POLL_MODES = List.of("busy", "event", "adaptive");
    static final List<String> REPLENISH = List.of("fixed", "grow");
    static final int MAX_BUFFER = 1 << 30;

    /**
     * Checks the configuration against the opened device.
     *
     * @param check  where errors are reported
     * @param device the device attributes
     * @throws InvalidPropertyException naming the property and the device's limit
     */
    public void checkAgainst(PropertyCheck check, DeviceAttributes device) throws InvalidPropertyException {
        check.srqSizes(device, srqMaxWr, srqMaxSge);
        check.inRange("srqMaxWr", srqMaxWr, 1, device.maxCqe(), "the CQ must hold every posted receive: at most "
                + "the device's max_cqe");
        check.inRange("cqSize", cqSize, srqMaxWr, device.maxCqe(), "at least srqMaxWr, at most the device's max_cqe");
    }
}
