package io.rdma.srq.ra.inbound.config;


import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.ra.cluster.ServiceDirectory;
import io.rdma.srq.ra.cluster.SingletonElection;
import io.rdma.srq.ra.support.DeviceSelection;
import io.rdma.srq.ra.support.PropertyCheck;
import io.rdma.srq.ra.support.SrqSizing;
import io.rdma.srq.ra.support.admission.Admission;
import io.rdma.srq.verbs.ConnectionParameters;
import jakarta.resource.spi.InvalidPropertyException;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * The parsed, checked configuration of one activation ({@code SrqActivationSpec.config()}).
 *
 * @param device            which device: provider, device name, soft profile
 * @param srqName           name of the SRQ (for statistics and the CDI event), empty for the
 *                          endpoint class's simple name
 * @param srq               the SRQ's sizes: max_wr (receive WRs it holds at most, 1..max_srq_wr),
 *                          max_sge (SGEs per receive WR, 1..max_srq_sge) and srq_limit (the low
 *                          watermark in WRs, 0..max_wr; 0: no limit events)
 * @param bufferSize        bytes per receive buffer, 1..1 GiB
 * @param cqSize            CQ entries, srqMaxWr..max_cqe
 * @param pollMode          busy | event | adaptive
 * @param maxConcurrency    endpoints delivering at once, 1..1024
 * @param listenAddress     the rdma_cm listen address (an address of the device's netdev, or the
 *                          wildcard) and port (0 = any free port); null with {@code listen=false}
 *                          (an activation that only connects: no listener, no port)
 * @param initialFill       receive WRs posted at start, srqLimit + 1..srqMaxWr
 * @param replenish         fixed | grow
 * @param replyBufferSize   bytes per reply (ReceiveCompletion.reply), 1..1 GiB
 * @param connectTo         a remote rdma_cm listener to keep connections to, or null for none (or a
 *                          service: {@code connectService})
 * @param connectCount      connections kept to {@code connectTo}, 1..1024
 * @param reconnectInterval pause before a failed or lost connection is tried again
 * @param drainTimeout      how long deactivation delivers what the CQ holds before counting the rest
 *                          undelivered, 0..10 min
 * @param maxDeliveryAttempts delivery attempts per message, 1..1000 (1: no redelivery)
 * @param maxBatchSize      messages per call of a batch listener, 1..32
 * @param replyTimeout      the longest a reply waits for room in its connection's send ring, 0..30 s
 * @param admission         who may connect: allowedPeers, maxConnections, maxConnectionsPerPeer,
 *                          connectRateLimit, the authKey keys and tokenMaxAge
 * @param maxSequentialDeliveryFailures dead-lettered messages in a row that pause delivery, 0 for never
 * @param pauseTimeout      how long such a pause lasts unless resumed by management; zero: until resumed
 * @param fabric            the fabric settings of every connection, accepted or made (trafficClass,
 *                          ackTimeout, retryCount, rnrRetryCount)
 * @param ordering          none | connection: whether messages of one connection are delivered in
 *                          arrival order, one at a time ({@link Ordering})
 * @param maxHeldPerConnection messages of one connection that may wait in receive buffers behind its
 *                          delivery in progress under ordering=connection, min(32, srqMaxWr)..srqMaxWr;
 *                          beyond it its messages are copied out of the SRQ ({@link io.rdma.srq.ra.inbound.delivery.ConnectionLanes});
 *                          also the receive buffers one connection may keep retained ({@link io.rdma.srq.ra.inbound.delivery.RetainedBuffers})
 * @param serviceName       the service the listener is published as; "" for the default (srqName, else
 *                          the endpoint class's simple name); null: nothing published (listen=false)
 * @param connectService    with {@code connectTo=service:NAME}: NAME, whose providers the
 *                          {@code connectCount} connections spread over; null otherwise
 * @param directory         where it is published and services are looked up: the adapter's {@link ServiceDirectory}
 * @param clusterSingleton  whether the activation delivers only on the node its {@code election} elects
 *                          (one node of the cluster at a time)
 * @param singletonPolicy   the singleton policy that elects (singletonPolicy; "" for the server's default)
 * @param election          the adapter's {@link SingletonElection}
 * @param check                the JavaBean's property check: errors found when the device is opened name
 *                             the activation spec's property
 */
public record InboundConfig(DeviceSelection device, String srqName, SrqAttributes srq, int bufferSize, int cqSize,
                            PollMode pollMode, int maxConcurrency, InetSocketAddress listenAddress, int initialFill,
                            Replenish replenish, int replyBufferSize, InetSocketAddress connectTo, int connectCount,
                            Duration reconnectInterval, Duration drainTimeout,
                            int maxDeliveryAttempts, int maxBatchSize, Duration replyTimeout,
                            int maxSequentialDeliveryFailures, Duration pauseTimeout,
                            Admission.Policy admission, ConnectionParameters fabric,
                            Ordering ordering, int maxHeldPerConnection, String serviceName,
                            String connectService, ServiceDirectory directory, boolean clusterSingleton,
                            String singletonPolicy, SingletonElection election, PropertyCheck check) {

    /** How the poller waits for completions (property pollMode: the name in lower case). */
    public enum PollMode {
        /** spins on ibv_poll_cq: lowest latency, one core busy. */
        BUSY,
        /** arms the CQ and sleeps on the completion channel. */
        EVENT,
        /** spins a while after traffic, then sleeps on the completion channel. */
        ADAPTIVE
    }

    /** Delivery order (property ordering: the name in lower case). */
    public enum Ordering {
        /**
         * the default: batches of one CQ poll go to up to maxConcurrency endpoints at once, so
         * messages of one connection may be processed concurrently and out of arrival order.
         */
        NONE,
        /**
         * messages of one connection are delivered in arrival order and never concurrently;
         * different connections in parallel, up to maxConcurrency (the Kafka-partition model).
         */
        CONNECTION
    }

    /** How the fill level reacts to SRQ-limit events (property replenishPolicy: the name in lower case). */
    public enum Replenish {
        /** keep the fill level as configured. */
        FIXED,
        /** double the fill level on each limit event, up to srqMaxWr (MVAPICH2-style). */
        GROW
    }

    /**
     * Checks the configuration against the opened device.
     *
     * @param device the device attributes
     * @throws InvalidPropertyException naming the property and the device's limit
     */
    public void checkAgainst(DeviceAttributes device) throws InvalidPropertyException {
        SrqSizing.checkAgainst(check, device, srq);
        check.inRange("srqMaxWr", srq.maxWr(), 1, device.maxCqe(), "the CQ must hold every posted receive: at most "
                + "the device's max_cqe");
        check.inRange("cqSize", cqSize, srq.maxWr(), device.maxCqe(), "at least srqMaxWr, at most the device's max_cqe");
    }
}
