package io.rdma.srq.verbs.spi;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;

/** {@code struct sockaddr_in} / {@code sockaddr_in6} ⇄ {@link InetSocketAddress} (Linux layouts). */
public final class SockAddr {
    private static final short AF_INET = 2;
    private static final short AF_INET6 = 10;
    private static final ValueLayout.OfShort PORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final long STORAGE = 128;

    private SockAddr() {
    }

    /**
     * {@return {@code address} as a {@code struct sockaddr_in} or {@code sockaddr_in6} in 128 bytes of {@code arena}}
     *
     * @param address a resolved address
     * @param arena   where the sockaddr is allocated
     * @throws VerbsException EADDRNOTAVAIL for an unresolved address
     */
    public static MemorySegment of(InetSocketAddress address, Arena arena) throws VerbsException {
        if (address.isUnresolved()) {
            throw new VerbsException("rdma_cm", Errno.EADDRNOTAVAIL, "unresolved address " + address);
        }
        MemorySegment sa = arena.allocate(STORAGE, 8);
        byte[] ip = address.getAddress().getAddress();
        sa.set(PORT, 2, (short) address.getPort());
        if (address.getAddress() instanceof Inet4Address) {
            sa.set(ValueLayout.JAVA_SHORT, 0, AF_INET);
            MemorySegment.copy(ip, 0, sa, ValueLayout.JAVA_BYTE, 4, 4);
        } else {
            sa.set(ValueLayout.JAVA_SHORT, 0, AF_INET6);
            MemorySegment.copy(ip, 0, sa, ValueLayout.JAVA_BYTE, 8, 16);
            if (address.getAddress() instanceof Inet6Address v6) {
                sa.set(ValueLayout.JAVA_INT, 24, v6.getScopeId());
            }
        }
        return sa;
    }

    /**
     * {@return the address a {@code struct sockaddr *} holds; an unresolved {@code family-N} for other families}
     *
     * @param pointer the sockaddr
     */
    public static InetSocketAddress from(MemorySegment pointer) {
        MemorySegment sa = pointer.reinterpret(STORAGE);
        short family = sa.get(ValueLayout.JAVA_SHORT, 0);
        int port = Short.toUnsignedInt(sa.get(PORT, 2));
        try {
            if (family == AF_INET) {
                return new InetSocketAddress(InetAddress.getByAddress(sa.asSlice(4, 4).toArray(ValueLayout.JAVA_BYTE)), port);
            }
            if (family == AF_INET6) {
                return new InetSocketAddress(InetAddress.getByAddress(sa.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE)), port);
            }
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException(impossible);
        }
        return InetSocketAddress.createUnresolved("family-" + family, port);
    }
}
