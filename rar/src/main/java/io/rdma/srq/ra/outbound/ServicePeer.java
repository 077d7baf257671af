package io.rdma.srq.ra.outbound;

import io.rdma.srq.api.CallTimedOutException;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.PeerUnavailableException;
import io.rdma.srq.api.SrqCallException;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqMessage;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.cluster.ServiceDirectory;
import io.rdma.srq.ra.cluster.ServiceProvider;
import io.rdma.srq.ra.support.RaLogger;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A peer by service name ({@link SrqConnection#connect(String, Duration)}): each call and send goes
 * to one provider of the service, round robin over the providers the adapter's
 * {@link ServiceDirectory} lists now (by node, then address), over one pooled peer per provider.
 * See the API's documentation of {@code connect(String, Duration)} for what callers see; here:
 * <ul>
 *   <li>a provider whose connect fails, or that answers a call "not run" (its MDB is stopping), is
 *       skipped ({@link #SUSPECT} long) and the call goes to the next (a failover, logged SRQRA0505
 *       and counted); when every provider listed is skipped, the call waits — for another provider
 *       to be listed (a cluster singleton's next primary) or the first suspicion to pass — as long as
 *       its timeout allows, then tries them all again;</li>
 *   <li>a call that fails in flight ends with its exception — it is never sent again, since the
 *       provider may have run it — and its peer is dropped, so the next call connects anew or goes
 *       elsewhere;</li>
 *   <li>with no provider listed the call waits for one, polling the directory, up to
 *       {@link #SERVICE_WAIT} (or its own timeout if shorter), then fails with
 *       {@link PeerUnavailableException} EHOSTUNREACH naming the service and the members seen.</li>
 * </ul>
 */
final class ServicePeer implements SrqPeer {
    /** The longest a call waits for a provider to be listed. */
    static final Duration SERVICE_WAIT = Duration.ofSeconds(2);
    /** How long a provider whose connect failed, or that answered "not run", is passed over. */
    static final Duration SUSPECT = Duration.ofSeconds(1);
    private static final long POLL_NANOS = Duration.ofMillis(20).toNanos();
    private static final Duration RECEIVE_SLICE = Duration.ofMillis(10);

    private final SrqConnectionHandle handle;
    private final String service;
    private final ServiceDirectory directory;
    private final String transport;
    private final Duration connectTimeout;
    private final Consumer<ServicePeer> onClose;
    private final Runnable counted;
    private final Map<InetSocketAddress, SrqPeer> peers = new ConcurrentHashMap<>();
    private final Map<InetSocketAddress, Long> suspectUntil = new ConcurrentHashMap<>();
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicLong failovers = new AtomicLong();
    private volatile InetSocketAddress last;
    private volatile boolean closed;

    ServicePeer(SrqConnectionHandle handle, String service, ServiceDirectory directory, String transport,
                Duration connectTimeout, Runnable counted, Consumer<ServicePeer> onClose) {
        this.handle = handle;
        this.service = service;
        this.directory = directory;
        this.transport = transport;
        this.connectTimeout = connectTimeout;
        this.onClose = onClose;
        this.counted = counted;
    }

    /** {@return the providers a call may go to: the service's, over this connection's transport} */
    List<ServiceProvider> providers() {
        String local = directory.localNode();
        return directory.providers(service).stream()
                .filter(p -> p.endpoint().transport().equals(transport))
                // the soft device is in-process: only this JVM's listeners are reachable over it
                .filter(p -> !"soft".equals(transport) || p.node().equals(local))
                .toList();
    }

    /**
     * Connects to a first provider (connect(String, Duration) returns a peer that reached one).
     *
     * @param timeout the longest wait
     */
    void connectFirst(Duration timeout) {
        pick(deadline(timeout));
    }

    /** {@return connects that failed and sent the call to another provider} */
    long failovers() {
        return failovers.get();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the peer for service " + service + " is closed");
        }
    }

    /**
     * The peer the next call or send goes to.
     *
     * @param deadline System.nanoTime by which a peer must be there
     */
    /** A provider's peer and its address, as one pick chose them (threads share the ServicePeer). */
    private record Picked(SrqPeer peer, InetSocketAddress address) {
    }

    private Picked pick(long deadline) {
        long waitEnd = Math.min(deadline, System.nanoTime() + SERVICE_WAIT.toNanos());
        SrqCallException failure = null;
        while (true) {
            checkOpen();
            List<ServiceProvider> listed = providers();
            forgetUnlisted(listed);
            long now = System.nanoTime();
            List<ServiceProvider> candidates = new ArrayList<>();
            for (ServiceProvider p : listed) {
                Long until = suspectUntil.get(p.endpoint().address());
                if (until == null || until - now < 0) {
                    candidates.add(p);
                }
            }
            if (candidates.isEmpty() && !listed.isEmpty()) {
                if (deadline - now > 2 * POLL_NANOS) {
                    sleep(); // every one failed lately: wait for another provider, or the suspicion to pass
                    continue;
                }
                candidates = listed; // no time left to wait: try them all again
            }
            int start = Math.floorMod(next.getAndIncrement(), Math.max(1, candidates.size()));
            for (int i = 0; i < candidates.size(); i++) {
                ServiceProvider p = candidates.get((start + i) % candidates.size());
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                try {
                    SrqPeer peer = peerFor(p.endpoint().address(), Duration.ofNanos(Math.min(left, connectTimeout.toNanos())));
                    last = p.endpoint().address();
                    return new Picked(peer, p.endpoint().address());
                } catch (PeerUnavailableException | CallTimedOutException e) {
                    failure = e;
                    suspectUntil.put(p.endpoint().address(), System.nanoTime() + SUSPECT.toNanos());
                    failovers.incrementAndGet();
                    counted.run();
                    RaLogger.LOG.serviceFailover(service, p.endpoint(), e.getMessage());
                }
            }
            if (listed.isEmpty()) {
                if (System.nanoTime() + POLL_NANOS - waitEnd > 0) {
                    throw unavailable();
                }
            } else if (System.nanoTime() + POLL_NANOS - deadline > 0) {
                throw failure != null ? failure : new CallTimedOutException(new VerbsException("connect",
                        Errno.ETIMEDOUT, "no provider of service '" + service + "' connected in time"), "service " + service);
            }
            sleep();
        }
    }

    private PeerUnavailableException unavailable() {
        String detail = "no provider of service '" + service + "' over " + transport + " within " + SERVICE_WAIT.toMillis()
                + " ms; members seen: " + directory.members() + " (" + directory.describe() + ")";
        return new PeerUnavailableException(new VerbsException("connect", Errno.EHOSTUNREACH, detail), "service " + service);
    }

    private static void sleep() {
        try {
            Thread.sleep(Duration.ofNanos(POLL_NANOS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CallTimedOutException(new VerbsException("connect", Errno.EINTR, "interrupted while waiting for a "
                    + "provider"), "a service");
        }
    }

    /** Closes this peer's views of providers no longer listed (withdrawn, or their node left). */
    private void forgetUnlisted(List<ServiceProvider> listed) {
        if (peers.size() <= listed.size() && listed.stream().allMatch(p -> peers.containsKey(p.endpoint().address()))) {
            return;
        }
        for (InetSocketAddress a : List.copyOf(peers.keySet())) {
            if (listed.stream().noneMatch(p -> p.endpoint().address().equals(a))) {
                drop(a);
            }
        }
    }

    private SrqPeer peerFor(InetSocketAddress address, Duration timeout) {
        SrqPeer p = peers.get(address);
        if (p != null) {
            return p;
        }
        SrqPeer created = handle.connect(address, SrqConnection.DEFAULT_SRQ, timeout);
        SrqPeer before = peers.putIfAbsent(address, created);
        if (before != null) {
            created.close();
            return before;
        }
        suspectUntil.remove(address);
        return created;
    }

    private void drop(InetSocketAddress address) {
        SrqPeer p = peers.remove(address);
        if (p != null) {
            p.close();
        }
    }

    /** A peer failed in flight: the next pick connects anew (the pooled connection replaces a dead QP). */
    private <T> T failed(InetSocketAddress address, SrqCallException e) {
        if (e instanceof PeerUnavailableException) {
            drop(address);
        }
        throw e;
    }

    private static long deadline(Duration timeout) {
        long now = System.nanoTime();
        long t = timeout.toNanos();
        return now + Math.min(t, Long.MAX_VALUE / 4);
    }

    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
    }

    @Override
    public InetSocketAddress remoteAddress() {
        InetSocketAddress a = last;
        if (a != null) {
            return a;
        }
        List<ServiceProvider> listed = providers();
        return listed.isEmpty() ? null : listed.getFirst().endpoint().address();
    }

    @Override
    public void send(ByteBuffer message) {
        send(message, p -> p.send(message));
    }

    @Override
    public void send(ByteBuffer message, int immData) {
        if (immData < 0) {
            throw new IllegalArgumentException("immData 0x" + Integer.toHexString(immData) + ": the high bit is the calls' own");
        }
        send(message, p -> p.send(message, immData));
    }

    private void send(ByteBuffer message, Consumer<SrqPeer> post) {
        java.util.Objects.requireNonNull(message, "message");
        Picked p = pick(deadline(connectTimeout));
        try {
            post.accept(p.peer());
        } catch (SrqCallException e) {
            failed(p.address(), e);
        }
    }

    @Override
    public void flush(Duration timeout) {
        checkOpen();
        long deadline = deadline(SrqPeerImpl.checked(timeout, "flush", true));
        for (SrqPeer p : List.copyOf(peers.values())) {
            p.flush(left(deadline));
        }
    }

    @Override
    public long sent() {
        checkOpen();
        return peers.values().stream().mapToLong(SrqPeer::sent).sum();
    }

    @Override
    public SrqMessage call(ByteBuffer request, Duration timeout) {
        java.util.Objects.requireNonNull(request, "request");
        long deadline = deadline(SrqPeerImpl.checked(timeout, "call", false));
        while (true) {
            Picked p = pick(deadline);
            try {
                return p.peer().call(request.duplicate(), left(deadline));
            } catch (SrqCallException e) {
                if (!notRun(p.address(), e, deadline)) {
                    return failed(p.address(), e);
                }
            }
        }
    }

    /**
     * Whether a failed call was answered "not run" (its provider's endpoint refused it before it ran:
     * an MDB that is stopping) with time left: then the provider is passed over and the call goes to
     * another — it never ran, so this cannot run it twice.
     */
    private boolean notRun(InetSocketAddress a, Throwable failure, long deadline) {
        Throwable t = failure instanceof java.util.concurrent.CompletionException c ? c.getCause() : failure;
        if (!(t instanceof PeerUnavailableException e) || !e.is(Errno.ECANCELED)
                || deadline - System.nanoTime() <= 0) {
            return false;
        }
        suspectUntil.put(a, System.nanoTime() + SUSPECT.toNanos());
        failovers.incrementAndGet();
        counted.run();
        RaLogger.LOG.serviceFailover(service, a, e.getMessage());
        return true;
    }

    @Override
    public CompletableFuture<SrqMessage> callAsync(ByteBuffer request, Duration timeout) {
        java.util.Objects.requireNonNull(request, "request");
        long deadline = deadline(SrqPeerImpl.checked(timeout, "call", false));
        return callAsync(ByteBuffer.allocate(request.remaining()).put(request.duplicate()).flip(), deadline);
    }

    private CompletableFuture<SrqMessage> callAsync(ByteBuffer request, long deadline) {
        Picked p;
        try {
            p = pick(deadline);
        } catch (SrqCallException e) {
            return CompletableFuture.failedFuture(e);
        }
        InetSocketAddress a = p.address();
        return p.peer().callAsync(request.duplicate(), left(deadline)).handle((m, e) -> {
            if (e == null) {
                return CompletableFuture.completedFuture(m);
            }
            if (notRun(a, e, deadline)) {
                return CompletableFuture.supplyAsync(() -> callAsync(request, deadline)).thenCompose(f -> f);
            }
            Throwable cause = e instanceof java.util.concurrent.CompletionException c ? c.getCause() : e;
            if (cause instanceof PeerUnavailableException) {
                drop(a);
            }
            return CompletableFuture.<SrqMessage>failedFuture(cause);
        }).thenCompose(f -> f);
    }

    @Override
    public Optional<SrqMessage> receive(Duration timeout) {
        long deadline = deadline(SrqPeerImpl.checked(timeout, "receive", true));
        do {
            checkOpen();
            List<SrqPeer> now = List.copyOf(peers.values());
            for (SrqPeer p : now) {
                Optional<SrqMessage> m = p.receive(Duration.ZERO);
                if (m.isPresent()) {
                    return m;
                }
            }
            if (deadline - System.nanoTime() <= 0) {
                return Optional.empty();
            }
            try {
                Thread.sleep(RECEIVE_SLICE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        } while (true);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (InetSocketAddress a : List.copyOf(peers.keySet())) {
            drop(a);
        }
        onClose.accept(this);
    }

    @Override
    public String toString() {
        return "service " + service + " (" + transport + ")";
    }
}
