package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.Errno;
import io.rdma.srq.api.VerbsException;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The in-JVM fabric every soft device is attached to: the devices (one per {@link SoftProfile}),
 * the QP number space (one, so any soft QP can reach any other through its QP number and GID), the
 * live-object count, the rdma_cm listeners, and one daemon timer thread for RNR retry timeouts and
 * deferred error flushes ({@link Timer}: started when needed, ended when idle).
 */
final class SoftFabric {
    /** Live soft objects (contexts and everything created from them). */
    static final AtomicInteger LIVE = new AtomicInteger();
    /** Bytes of the live soft MRs (ibv_reg_mr lengths). */
    static final java.util.concurrent.atomic.AtomicLong REGISTERED = new java.util.concurrent.atomic.AtomicLong();

    /**
     * One RNR retry interval in nanoseconds: the min_rnr_timer value 12 (0.64 ms, IB spec table 45)
     * that {@link io.rdma.srq.verbs.QueuePair#connect} sets, like ibv_rc_pingpong.
     */
    static final long RNR_INTERVAL_NANOS = 640_000;

    private static final SoftDevice[] DEVICES;
    /** rxe's first QP number is RXE_MIN_QP_INDEX + 1 = 17; QP numbers are 24 bits. */
    private static final AtomicInteger NEXT_QPN = new AtomicInteger(17);
    private static final AtomicInteger NEXT_SRQN = new AtomicInteger(1);
    private static final ConcurrentHashMap<Integer, SoftQueuePair> QPS = new ConcurrentHashMap<>();
    /** rdma_cm listeners by bound address (null: reserved, being created); guarded by itself. */
    private static final Map<InetSocketAddress, SoftCmListener> LISTENERS = new HashMap<>();
    /** The soft rdma_cm's ephemeral ports (for port 0 and for the connecting side). */
    private static final AtomicInteger NEXT_PORT = new AtomicInteger(0);
    private static final int EPHEMERAL_FIRST = 32768;
    private static final int EPHEMERAL_COUNT = 60999 - 32768 + 1;

    static {
        SoftProfile[] profiles = SoftProfile.values();
        DEVICES = new SoftDevice[profiles.length];
        for (int i = 0; i < profiles.length; i++) {
            DEVICES[i] = new SoftDevice(profiles[i]);
        }
    }

    private SoftFabric() {
    }

    /** {@return the device of a profile} */
    static SoftDevice device(SoftProfile profile) {
        return DEVICES[profile.ordinal()];
    }

    /** {@return a new 24-bit QP number, never 0 or 1 (the special QPs)} */
    static int newQpNum(SoftQueuePair qp) {
        while (true) {
            int n = NEXT_QPN.getAndIncrement() & 0xFFFFFF;
            if (n > 16 && QPS.putIfAbsent(n, qp) == null) {
                return n;
            }
        }
    }

    /** {@return a new XRC SRQ number} */
    static int newSrqNum() {
        return NEXT_SRQN.getAndIncrement() & 0xFFFFFF;
    }

    static SoftQueuePair qp(int qpNum) {
        return QPS.get(qpNum);
    }

    static void unregister(int qpNum, SoftQueuePair qp) {
        QPS.remove(qpNum, qp);
    }

    /** {@return every live QP (for the rare scans on QP destroy)} */
    static Iterable<SoftQueuePair> queuePairs() {
        return QPS.values();
    }

    /** Creates a listener for the address it is given (the bound one). */
    @FunctionalInterface
    interface ListenerFactory {
        SoftCmListener create(InetSocketAddress bound) throws VerbsException;
    }

    /**
     * Binds a soft rdma_cm listener: port 0 takes a free ephemeral port. A taken port is refused as
     * the kernel's cma_check_port refuses it: the same address is EADDRINUSE, a wildcard on either
     * side (the request or the holder) EADDRNOTAVAIL (seen on rxe0, kernel 6.1).
     *
     * @throws VerbsException {@code EADDRINUSE} if a listener holds that port on the same address;
     *                        {@code EADDRNOTAVAIL} if the port is held and either address is the wildcard
     */
    static SoftCmListener bindListener(InetSocketAddress requested, ListenerFactory factory) throws VerbsException {
        InetSocketAddress bound = requested;
        synchronized (LISTENERS) {
            if (requested.getPort() == 0) {
                int tries = 0;
                do {
                    bound = new InetSocketAddress(requested.getAddress(), ephemeralPort());
                    if (++tries > EPHEMERAL_COUNT) {
                        throw new VerbsException("rdma_bind_addr", Errno.EADDRINUSE, "no free port for " + requested);
                    }
                } while (conflict(bound) != null);
            } else {
                InetSocketAddress taken = conflict(bound);
                if (taken != null) {
                    boolean wildcard = taken.getAddress().isAnyLocalAddress() || requested.getAddress().isAnyLocalAddress();
                    throw new VerbsException("rdma_bind_addr", wildcard ? Errno.EADDRNOTAVAIL : Errno.EADDRINUSE,
                            requested + " is taken (a soft listener on " + taken + ")");
                }
            }
            LISTENERS.put(bound, null); // reserved; created outside this lock (creation takes the context's lock)
        }
        try {
            SoftCmListener l = factory.create(bound);
            synchronized (LISTENERS) {
                LISTENERS.put(bound, l);
            }
            return l;
        } catch (RuntimeException e) {
            synchronized (LISTENERS) {
                LISTENERS.remove(bound);
            }
            throw e;
        }
    }

    private static InetSocketAddress conflict(InetSocketAddress a) {
        for (InetSocketAddress b : LISTENERS.keySet()) {
            if (b.getPort() == a.getPort() && (b.getAddress().isAnyLocalAddress() || a.getAddress().isAnyLocalAddress()
                    || b.getAddress().equals(a.getAddress()))) {
                return b;
            }
        }
        return null;
    }

    static void unbindListener(SoftCmListener l) {
        synchronized (LISTENERS) {
            LISTENERS.values().remove(l);
        }
    }

    /** {@return the listener a connect to {@code remote} reaches (exact address, else wildcard), or null} */
    static SoftCmListener findListener(InetSocketAddress remote) {
        synchronized (LISTENERS) {
            SoftCmListener exact = LISTENERS.get(remote);
            if (exact != null) {
                return exact;
            }
            for (Map.Entry<InetSocketAddress, SoftCmListener> e : LISTENERS.entrySet()) {
                if (e.getValue() != null && e.getKey().getPort() == remote.getPort()
                        && e.getKey().getAddress().isAnyLocalAddress()) {
                    return e.getValue();
                }
            }
            return null;
        }
    }

    /** {@return a port of the Linux ephemeral range 32768..60999, round robin} */
    static int ephemeralPort() {
        return EPHEMERAL_FIRST + Math.floorMod(NEXT_PORT.getAndIncrement(), EPHEMERAL_COUNT);
    }

    /**
     * Runs {@code task} on the fabric's timer thread after {@code nanos}.
     *
     * @param task  what to run; must not block for long
     * @param nanos the delay, ≥ 0
     */
    static void schedule(Runnable task, long nanos) {
        Timer.EXECUTOR.schedule(task, nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * The timer thread: one at most, started by the first {@link #schedule} and ended after
     * {@value #IDLE_SECONDS} s without a task, so an idle fabric holds no thread. Its context class
     * loader is the verbs layer's own, never that of whoever scheduled first (a deployment's, which
     * a thread holding it would keep alive across redeploys); it inherits no inheritable thread-locals.
     */
    static final class Timer {
        /** Seconds without a task after which the timer thread ends. */
        static final long IDLE_SECONDS = 1;
        static final ScheduledThreadPoolExecutor EXECUTOR;

        static {
            EXECUTOR = new ScheduledThreadPoolExecutor(1, Timer::thread);
            EXECUTOR.setRemoveOnCancelPolicy(true);
            EXECUTOR.setKeepAliveTime(IDLE_SECONDS, TimeUnit.SECONDS);
            EXECUTOR.allowCoreThreadTimeOut(true);
        }

        private Timer() {
        }

        private static Thread thread(Runnable r) {
            Thread t = Thread.ofPlatform().name("soft-verbs-fabric").daemon().inheritInheritableThreadLocals(false)
                    .unstarted(r);
            t.setContextClassLoader(SoftFabric.class.getClassLoader());
            return t;
        }
    }
}
