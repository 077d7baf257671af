package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.SrqMessage;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.api.SrqCallException;
import io.rdma.srq.api.VerbsException;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@link SrqPeer}: one handle's view of a pooled {@link PeerLink}. It keeps the calls of this
 * handle still waiting, so that closing it (or its handle) ends them with ENOTCONN while the link
 * and its QP stay pooled. Every method but {@link #close()} throws IllegalStateException after close.
 */
final class SrqPeerImpl implements SrqPeer {
    /** The longest call or receive timeout: far beyond any use, far below System.nanoTime's range. */
    static final Duration MAX_TIMEOUT = Duration.ofDays(365);
    private final PeerLink link;
    private final Consumer<SrqPeerImpl> onClose;
    private final Set<PendingCall> waiting = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    SrqPeerImpl(PeerLink link, Consumer<SrqPeerImpl> onClose) {
        this.link = link;
        this.onClose = onClose;
    }

    private PeerLink link() {
        if (closed) {
            throw new IllegalStateException("the peer connection to " + link.remote() + " is closed");
        }
        return link;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return link().remote();
    }

    @Override
    public void send(ByteBuffer message) {
        Objects.requireNonNull(message, "message");
        PeerLink l = link();
        try {
            sendable(l).rc().send(message, null);
        } catch (VerbsException e) {
            throw SrqCallException.of(e, l.remote().toString());
        }
    }

    @Override
    public void send(ByteBuffer message, int immData) {
        if ((immData & PeerLink.CALL_BIT) != 0) {
            throw new IllegalArgumentException("immData must be in 0..0x7FFFFFFF (the high bit marks calls and "
                    + "their replies), got 0x" + Integer.toHexString(immData));
        }
        Objects.requireNonNull(message, "message");
        PeerLink l = link();
        try {
            sendable(l).rc().send(message, immData);
        } catch (VerbsException e) {
            throw SrqCallException.of(e, l.remote().toString());
        }
    }

    /**
     * {@return the link}
     * @throws VerbsException ENOTCONN once it failed (disconnected, a receive completion in error, device
     *                        loss); a send completion in error is the send ring's EIO, naming its status
     */
    private static PeerLink sendable(PeerLink l) throws VerbsException {
        if (l.hasFailed()) {
            throw new VerbsException("ibv_post_send", Errno.ENOTCONN, "the connection to " + l.remote()
                    + " is gone or in error; connect again for a new one");
        }
        return l;
    }

    @Override
    public void flush(Duration timeout) {
        PeerLink l = link();
        try {
            l.rc().flush(timeout);
        } catch (VerbsException e) {
            throw SrqCallException.of(e, l.remote().toString());
        }
    }

    @Override
    public long sent() {
        return link().rc().sent();
    }

    @Override
    public SrqMessage call(ByteBuffer request, Duration timeout) {
        long deadline = System.nanoTime() + positive(timeout).toNanos();
        Objects.requireNonNull(request, "request");
        PeerLink l = link();
        PendingCall c = l.start(request, null, timeout);
        waiting.add(c);
        try {
            return l.await(c, deadline, timeout);
        } finally {
            waiting.remove(c);
        }
    }

    @Override
    public CompletableFuture<SrqMessage> callAsync(ByteBuffer request, Duration timeout) {
        positive(timeout);
        Objects.requireNonNull(request, "request");
        PeerLink l = link();
        CompletableFuture<SrqMessage> future = new CompletableFuture<>();
        PendingCall c = l.start(request, future, timeout);
        waiting.add(c);
        future.whenComplete((r, e) -> waiting.remove(c));
        CompletableFuture.delayedExecutor(timeout.toNanos(), TimeUnit.NANOSECONDS, ForkJoinPool.commonPool())
                .execute(() -> {
                    if (!c.isDone()) {
                        l.timedOut(c, timeout);
                    }
                });
        return future;
    }

    @Override
    public Optional<SrqMessage> receive(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        return link().receive(checked(timeout, "receive", true), () -> closed);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        VerbsException cause = new VerbsException("ibv_poll_cq", Errno.ENOTCONN, "the handle's use of the peer "
                + link.remote() + " ended while the call waited");
        for (PendingCall c : List.copyOf(waiting)) {
            link.abandon(c, cause);
        }
        onClose.accept(this);
    }

    private static Duration positive(Duration timeout) {
        return checked(timeout, "call", false);
    }

    /**
     * @param timeout     a call's or a receive's timeout
     * @param what        "call" or "receive", for the message
     * @param zeroAllowed whether 0 (do not wait) is allowed
     * @return {@code timeout}
     * @throws IllegalArgumentException when null, negative, 0 where not allowed, or above {@link #MAX_TIMEOUT}
     */
    static Duration checked(Duration timeout, String what, boolean zeroAllowed) {
        if (timeout == null || timeout.isNegative() || (timeout.isZero() && !zeroAllowed)
                || timeout.compareTo(MAX_TIMEOUT) > 0) {
            throw new IllegalArgumentException("the " + what + " timeout must be " + (zeroAllowed ? ">= 0" : "> 0")
                    + " and at most " + MAX_TIMEOUT.toDays() + " days, got " + timeout);
        }
        return timeout;
    }
}
