package io.rdma.srq.ra.inbound;

import io.rdma.srq.ra.inbound.config.InboundConfig;

import jakarta.resource.spi.InvalidPropertyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ActivationSpec.validate(): junk, negative, 0 and out-of-range values name the property and its range. */
class ActivationSpecValidationTest {

    @ParameterizedTest(name = "{0} = ''{1}'' → ''{2}''")
    @CsvSource(delimiter = '|', value = {
            "provider        | opa    | provider must be one of auto, ibverbs, soft, fabric, got 'opa'",
            "srqMaxWr        | abc    | srqMaxWr must be an integer in 1..2147483647 (at most the device's max_srq_wr), got 'abc'",
            "srqMaxWr        | 0      | srqMaxWr must be in 1..2147483647 (at most the device's max_srq_wr), got 0",
            "srqMaxWr        | -1     | srqMaxWr must be in 1..2147483647 (at most the device's max_srq_wr), got -1",
            "srqMaxSge       | 0      | srqMaxSge must be in 1..2147483647 (at most the device's max_srq_sge), got 0",
            "bufferSize      | 0      | bufferSize must be in 1..1073741824 (bytes per receive buffer), got 0",
            "bufferSize      | 4k     | bufferSize must be an integer in 1..1073741824 (bytes per receive buffer), got '4k'",
            "srqLimit        | 2000   | srqLimit must be in 0..1023 (0 = not armed, no limit events; below srqMaxWr, since the receives posted must exceed it), got 2000",
            "srqLimit        | 1024   | srqLimit must be in 0..1023 (0 = not armed, no limit events; below srqMaxWr, since the receives posted must exceed it), got 1024",
            "cqSize          | 100    | cqSize must be in 1024..2147483647 (at least srqMaxWr, at most the device's max_cqe), got 100",
            "pollMode        | spin   | pollMode must be one of busy, event, adaptive, got 'spin'",
            "maxConcurrency  | 0      | maxConcurrency must be in 1..1024 (endpoints delivering at once), got 0",
            "maxConcurrency  | 5000   | maxConcurrency must be in 1..1024 (endpoints delivering at once), got 5000",
            "listenPort      | 70000  | listenPort must be in 0..65535 (0 = any free port), got 70000",
            "listenPort      | http   | listenPort must be an integer in 0..65535 (0 = any free port), got 'http'",
            "initialFill     | 10     | initialFill must be in 65..1024 (receive WRs posted at start: more than srqLimit, at most srqMaxWr), got 10",
            "replenishPolicy | lazy   | replenishPolicy must be one of fixed, grow, got 'lazy'",
            "replyBufferSize | 0      | replyBufferSize must be in 1..16777216 (bytes per reply; a connection that replies registers a send ring of 64 such slots), got 0",
            "replyBufferSize | 1073741824 | replyBufferSize must be in 1..16777216 (bytes per reply; a connection that replies registers a send ring of 64 such slots), got 1073741824",
            "connectTo       | 10.0.0.9 | connectTo must be host:port of an rdma_cm listener (empty for none), got '10.0.0.9'",
            "connectTo       | :7471  | connectTo must be host:port of an rdma_cm listener (empty for none), got ':7471'",
            "connectTo       | 10.0.0.9:0 | connectTo must be in 1..65535 (the port of connectTo), got 0",
            "connectTo       | 10.0.0.9:x | connectTo must be an integer in 1..65535 (the port of connectTo), got 'x'",
            "connectTo       | no-such-host.invalid:7471 | connectTo: cannot resolve host 'no-such-host.invalid'",
            "connectTo       | [::1]  | connectTo must be host:port of an rdma_cm listener (empty for none), got '[::1]'",
            "connectTo       | ::1:7471 | connectTo: an IPv6 address goes in brackets, e.g. [::1]:7471, got '::1:7471'",
            "connectTo       | 0.0.0.0:7471 | connectTo must name a listener's address, not the wildcard '0.0.0.0'",
            "listenAddress   | not-an-ip | listenAddress must be an IP address of the device's interface (0.0.0.0 or :: for all), without a port, got 'not-an-ip'",
            "listenAddress   | 0 | listenAddress must be an IP address of the device's interface (0.0.0.0 or :: for all), without a port, got '0'",
            "listenAddress   | 2147483648 | listenAddress must be an IP address of the device's interface (0.0.0.0 or :: for all), without a port, got '2147483648'",
            "maxConcurrency  | ٣ | maxConcurrency must be an integer in 1..1024 (endpoints delivering at once), got '٣'",
            "allowedPeers    | 7 | allowedPeers must be IPv4/IPv6 CIDRs separated by commas (empty: any address): '7' is not an IPv4 or IPv6 address literal (with /prefix)",
            "listenAddress   | 10.0.0.1:7471 | listenAddress must be an IP address of the device's interface (0.0.0.0 or :: for all), without a port, got '10.0.0.1:7471'",
            "connectCount    | 0      | connectCount must be in 1..1024 (connections kept to connectTo), got 0",
            "reconnectInterval | 99   | reconnectInterval must be in 100..3600000 (milliseconds before a failed or lost connection is tried again), got 99",
            "listen          | no     | listen must be one of true, false, got 'no'",
            "listen          | false  | listen=false needs connectTo: an activation that neither listens nor connects receives nothing",
            "trafficClass    | 256    | trafficClass must be in 0..255 (the TOS byte of the QP's packets, DSCP × 4 + ECN; empty: rdma_cm's), got 256",
            "trafficClass    | ef     | trafficClass must be an integer in 0..255 (the TOS byte of the QP's packets, DSCP × 4 + ECN; empty: rdma_cm's), got 'ef'",
            "ackTimeout      | 0      | ackTimeout must be in 1..31 (the ACK timeout 4.096 µs × 2^ackTimeout; 0, which never times out, is not allowed), got 0",
            "ackTimeout      | 32     | ackTimeout must be in 1..31 (the ACK timeout 4.096 µs × 2^ackTimeout; 0, which never times out, is not allowed), got 32",
            "retryCount      | 8      | retryCount must be in 0..7 (transport retries after an ACK timeout; a dead peer is seen after ackTimeout × (retryCount + 1)), got 8",
            "rnrRetryCount   | -1     | rnrRetryCount must be in 0..7 (retries after an RNR NAK; 7 = retry forever), got -1",

            "ordering        | partition | ordering must be one of none, connection, got 'partition'",
            "maxHeldPerConnection | 8 | maxHeldPerConnection must be in 32..1024 (receive buffers one connection may hold (waiting under ordering=connection, or kept by ReceiveCompletion.retain()): 32 (one poll of the CQ) or srqMaxWr if less, up to srqMaxWr), got 8",
            "maxHeldPerConnection | 2000 | maxHeldPerConnection must be in 32..1024 (receive buffers one connection may hold (waiting under ordering=connection, or kept by ReceiveCompletion.retain()): 32 (one poll of the CQ) or srqMaxWr if less, up to srqMaxWr), got 2000",
            "reconnectInterval | 99   | reconnectInterval must be in 100..3600000 (milliseconds before a failed or lost connection is tried again), got 99"})
    void badValuesNameThePropertyAndItsRange(String property, String value, String message) throws Exception {
        SrqActivationSpec spec = new SrqActivationSpec();
        SrqActivationSpec.class.getMethod("set" + Character.toUpperCase(property.charAt(0)) + property.substring(1),
                String.class).invoke(spec, value);
        InvalidPropertyException e = assertThrows(InvalidPropertyException.class, spec::validate);
        assertEquals(message, e.getMessage());
        assertEquals(property, e.getInvalidPropertyDescriptors()[0].getName());
    }

    @Test
    void theDefaultsAreValid() throws Exception {
        InboundConfig c = new SrqActivationSpec().config();
        assertEquals(1024, c.srq().maxWr());
        assertEquals(1024, c.cqSize(), "cqSize defaults to srqMaxWr");
        assertEquals(256, c.initialFill(), "fill defaults to 4 × srqLimit");
        assertEquals(InboundConfig.PollMode.ADAPTIVE, c.pollMode());
        assertTrue(c.srq().srqLimit() < c.initialFill());
        assertEquals(null, c.connectTo(), "no outgoing connections unless connectTo is set");
        assertEquals(4096, c.replyBufferSize());
        assertEquals(InboundConfig.Ordering.NONE, c.ordering());
        assertEquals(128, c.maxHeldPerConnection(), "an eighth of srqMaxWr");
    }

    @Test
    void maxHeldPerConnectionFollowsASmallSrq() throws Exception {
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setSrqMaxWr("16");
        spec.setSrqLimit("0");
        assertEquals(16, spec.config().maxHeldPerConnection(), "srqMaxWr when below one poll of the CQ");
        spec.setSrqMaxWr("100");
        assertEquals(32, spec.config().maxHeldPerConnection(), "at least one poll of the CQ");
    }

    @Test
    void fabricDefaultsDoNotWaitForeverForADeadPeer() throws Exception {
        InboundConfig c = new SrqActivationSpec().config();
        assertEquals(new io.rdma.srq.verbs.ConnectionParameters(java.util.OptionalInt.empty(),
                java.util.OptionalInt.of(14), 6, 7), c.fabric());
        assertEquals(469, c.fabric().deadPeerMillis().orElseThrow(), "67.1 ms × 7 tries (retry_cnt 7 never ends on rxe)");
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setTrafficClass("106");
        spec.setAckTimeout("12");
        spec.setRetryCount("3");
        spec.setRnrRetryCount("2");
        assertEquals(new io.rdma.srq.verbs.ConnectionParameters(java.util.OptionalInt.of(106),
                java.util.OptionalInt.of(12), 3, 2), spec.config().fabric());
    }

    @Test
    void listenFalseWithConnectToHasNoListenAddress() throws Exception {
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setListen("false");
        spec.setConnectTo("10.0.0.2:7471");
        spec.setListenPort("not looked at");
        assertEquals(null, spec.config().listenAddress());
        assertEquals(7471, new SrqActivationSpec().config().listenAddress().getPort(), "listen=true is the default");
    }

    @Test
    void connectToTakesAnIpv6AddressInBrackets() throws Exception {
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setConnectTo("[::1]:7471");
        spec.setConnectCount("8");
        InboundConfig c = spec.config();
        assertEquals(7471, c.connectTo().getPort());
        assertTrue(c.connectTo().getAddress() instanceof java.net.Inet6Address);
        assertEquals(8, c.connectCount());
    }
}
