package io.rdma.srq.ra.support.admission;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The admission parts on their own: CIDRs, keys, the token, the replay cache, limits and rate. */
class AdmissionPartsTest {
    private static final byte[] K1 = bytes(32, 1);
    private static final byte[] K2 = bytes(32, 2);
    private static final InetSocketAddress TARGET = new InetSocketAddress(ip("10.77.1.1"), 7471);
    private static final InetSocketAddress PEER = new InetSocketAddress(ip("10.77.1.2"), 40000);

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed * 31 + i);
        }
        return b;
    }

    private static InetAddress ip(String s) {
        return InetAddress.ofLiteral(s);
    }

    private static String base64(byte[] b) {
        return java.util.Base64.getEncoder().encodeToString(b);
    }

    @Test
    void cidrMatchesIpv4Ipv6AndMappedAddresses() {
        Cidr v4 = Cidr.parse("10.77.0.0/16");
        assertTrue(v4.contains(ip("10.77.1.2")));
        assertTrue(v4.contains(ip("::ffff:10.77.200.1")), "an IPv4-mapped address matches as IPv4");
        assertFalse(v4.contains(ip("10.78.0.1")));
        assertFalse(v4.contains(ip("fe80::1")));
        Cidr v6 = Cidr.parse("fd00:1::/32");
        assertTrue(v6.contains(ip("fd00:1:ffff::5")));
        assertFalse(v6.contains(ip("fd00:2::5")));
        assertTrue(Cidr.parse("0.0.0.0/0").contains(ip("192.0.2.1")));
        assertTrue(Cidr.parse("192.0.2.7").contains(ip("192.0.2.7")));
        assertFalse(Cidr.parse("192.0.2.7").contains(ip("192.0.2.8")));
        assertEquals("10.77.0.0/16", v4.toString());
    }

    @Test
    void malformedCidrsSayWhatIsWrong() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Cidr.parse("10.0.0.0/33")).getMessage().contains("0..32"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Cidr.parse("fd00::/129")).getMessage().contains("0..128"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Cidr.parse("10.0.0.1/8")).getMessage().contains("10.0.0.0/8"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Cidr.parse("rdma.example/8")).getMessage().contains("literal"));
        assertThrows(IllegalArgumentException.class, () -> Cidr.parse("10.0.0.0/-1"));
        assertThrows(IllegalArgumentException.class, () -> PeerFilter.parse("10.0.0.0/8, 300.1.1.1/32"));
        assertEquals(2, PeerFilter.parse(" 10.0.0.0/8,\tfd00::/8 ").allowed().size());
        assertFalse(PeerFilter.parse("").restricts());
    }

    @Test
    void keyRingParsesSelectsAndRefusesBadKeysWithoutPrintingThem() {
        KeyRing ring = KeyRing.parse("a=" + base64(K1) + ", b=" + base64(K2));
        assertEquals(List.of("b", "a"), ring.select("b,a").stream().map(AuthKey::alias).toList());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> ring.select("c"));
        assertTrue(unknown.getMessage().contains("'c'") && unknown.getMessage().contains("a, b"), unknown.getMessage());
        String shortKey = base64(bytes(16, 3));
        IllegalArgumentException tooShort = assertThrows(IllegalArgumentException.class, () -> KeyRing.parse("s=" + shortKey));
        assertTrue(tooShort.getMessage().contains("16 bytes") && tooShort.getMessage().contains("32"), tooShort.getMessage());
        assertFalse(tooShort.getMessage().contains(shortKey), "the key is never in a message");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> KeyRing.parse("x=!!!")).getMessage().contains("base64"));
        assertThrows(IllegalArgumentException.class, () -> KeyRing.parse(base64(K1)));
        assertThrows(IllegalArgumentException.class, () -> KeyRing.parse("a=" + base64(K1) + " a=" + base64(K2)));
        assertFalse(ring.select("a").getFirst().toString().contains(base64(K1)));
        assertFalse(Arrays.equals(new AuthKey("a", K1).id(), new AuthKey("b", K2).id()));
    }

    @Test
    void aTokenFitsAnInfiniBandConnectAndVerifiesOnceWithinItsAge() {
        AuthKey key = new AuthKey("a", K1);
        long now = 1_800_000_000_000L;
        byte[] token = PeerToken.create(key, TARGET, now);
        assertTrue(token.length <= 56);
        ReplayCache replay = new ReplayCache(16, 0);
        PeerToken.Nonces cache = (id, target, nonce, stamp) -> replay.record(nonce, stamp, 30_000, stamp, 0);
        byte[] padded = Arrays.copyOf(token, 56);   // as the IB CM delivers it
        assertNull(PeerToken.verify(padded, List.of(key), TARGET, now + 1000, 30_000, cache));
        assertEquals(RejectReason.REPLAYED, PeerToken.verify(padded, List.of(key), TARGET, now + 2000, 30_000, cache));
        assertEquals(RejectReason.NO_TOKEN, PeerToken.verify(new byte[56], List.of(key), TARGET, now, 30_000, cache),
                "56 zero bytes (a connect without private data on IB) carry no token");
        assertEquals(RejectReason.NO_TOKEN, PeerToken.verify(new byte[0], List.of(key), TARGET, now, 30_000, cache));
        byte[] fresh = PeerToken.create(key, TARGET, now);
        assertEquals(RejectReason.BAD_TOKEN, PeerToken.verify(fresh, List.of(new AuthKey("b", K2)), TARGET, now, 30_000, cache),
                "another key");
        assertEquals(RejectReason.BAD_TOKEN, PeerToken.verify(fresh, List.of(key),
                new InetSocketAddress(TARGET.getAddress(), 7472), now, 30_000, cache), "another activation's port");
        assertEquals(RejectReason.EXPIRED, PeerToken.verify(fresh, List.of(key), TARGET, now + 30_001, 30_000, cache));
        assertEquals(RejectReason.EXPIRED, PeerToken.verify(fresh, List.of(key), TARGET, now - 30_001, 30_000, cache),
                "from the future");
        byte[] flipped = fresh.clone();
        flipped[12] ^= 1;   // the timestamp, under the MAC
        assertEquals(RejectReason.BAD_TOKEN, PeerToken.verify(flipped, List.of(key), TARGET, now, 30_000, cache));
        byte[] truncated = Arrays.copyOf(fresh, 40);
        assertEquals(RejectReason.BAD_TOKEN, PeerToken.verify(truncated, List.of(key), TARGET, now, 30_000, cache));
        assertNull(PeerToken.verify(fresh, List.of(new AuthKey("b", K2), key), TARGET, now, 30_000, cache),
                "any configured key (rotation)");
        assertNull(PeerToken.verify(PeerToken.create(key, new InetSocketAddress(ip("::ffff:10.77.1.1"), 7471), now),
                List.of(key), TARGET, now, 30_000, cache), "an IPv4-mapped target is its IPv4 address");
    }

    @Test
    void theReplayCacheForgetsExpiredNoncesAndFailsClosedWhenFull() {
        long ms = 1_000_000L;
        ReplayCache cache = new ReplayCache(2, 0);
        assertNull(cache.record(new byte[] {1}, 1000, 100, 1000, 0), "kept 100 ms + 1 ms (monotonic)");
        assertNull(cache.record(new byte[] {2}, 1000, 100, 1000, 0));
        assertEquals(RejectReason.REPLAY_CACHE_FULL, cache.record(new byte[] {3}, 1050, 100, 1050, 50 * ms));
        assertEquals(RejectReason.REPLAYED, cache.record(new byte[] {1}, 1000, 100, 1050, 50 * ms),
                "a full cache forgets nothing");
        assertNull(cache.record(new byte[] {3}, 1102, 100, 1102, 102 * ms), "expired nonces make room");
        assertEquals(1, cache.size());
    }

    @Test
    void connectionLimitsCountInAllAndPerPeerAndFreeOnClose() {
        ConnectionLimits l = new ConnectionLimits(3, 2);
        InetAddress a = ip("10.0.0.1");
        assertNull(l.reserve(a));
        l.bind(a, 11);
        assertNull(l.reserve(ip("::ffff:10.0.0.1")));
        l.bind(a, 12);
        assertEquals(RejectReason.MAX_CONNECTIONS_PER_PEER, l.reserve(a), "the mapped address is the same peer");
        assertNull(l.reserve(ip("10.0.0.2")));
        assertEquals(RejectReason.MAX_CONNECTIONS, l.reserve(ip("10.0.0.3")));
        l.cancel(ip("10.0.0.2"));
        l.closed(11);
        l.closed(11);
        assertEquals(1, l.total(), "close is idempotent");
        assertNull(l.reserve(a));
    }

    @Test
    void theRateLimitAllowsItsBurstThenItsRate() {
        ConnectRateLimit r = new ConnectRateLimit(10, 0);
        int allowed = 0;
        for (int i = 0; i < 100; i++) {
            allowed += r.tryAcquire(0) ? 1 : 0;
        }
        assertEquals(10, allowed);
        assertFalse(r.tryAcquire(50_000_000L));
        assertTrue(r.tryAcquire(100_000_000L), "one token per 100 ms at 10/s");
    }

    @Test
    void aRejectCarriesItsReasonAndIsCountedAndLoggedRateLimited() {
        for (RejectReason r : RejectReason.values()) {
            assertEquals(r, RejectReason.fromPrivateData(Arrays.copyOf(r.toPrivateData(), 148)).orElseThrow());
        }
        assertTrue(RejectReason.fromPrivateData(new byte[148]).isEmpty());
        AtomicLong nanos = new AtomicLong();
        Admission adm = new Admission("t", new Admission.Policy(PeerFilter.parse("10.77.1.0/24"), 10, 10, 1000,
                List.of(), Duration.ofSeconds(30), 16), nanos::get, System::currentTimeMillis);
        InetSocketAddress outside = new InetSocketAddress(ip("10.77.2.1"), 1);
        for (int i = 0; i < 5; i++) {
            assertEquals(RejectReason.NOT_ALLOWED, adm.admit(outside, TARGET, new byte[56]));
        }
        assertNull(adm.admit(PEER, TARGET, new byte[56]));
        adm.acceptFailed(PEER, "no QP");
        assertEquals(5L, adm.rejectedByReason().get("NOT_ALLOWED"));
        assertEquals(1L, adm.rejectedByReason().get("ACCEPT_FAILED"));
        assertEquals(0, adm.connections());
        assertArrayEquals(new byte[0], Admission.privateDataFor(List.of(), TARGET));
    }
}
