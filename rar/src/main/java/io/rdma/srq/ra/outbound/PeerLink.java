package io.rdma.srq.ra.outbound;

import io.rdma.srq.ra.support.CallNumbers;
import io.rdma.srq.api.CmEventType;
import io.rdma.srq.api.Errno;
import io.rdma.srq.api.SrqCallException;
import io.rdma.srq.api.SrqMessage;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.RaLogger;
import io.rdma.srq.ra.support.RcConnection;
import io.rdma.srq.ra.support.SpinBudget;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmEvent;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

/**
 * A peer of a pooled connection: its {@link RcConnection} (the QP on a pooled SRQ, the send ring,
 * the rdma_cm connection) and the correlation of its calls, for the pooled connection's whole life.
 *
 * <p>Correlation: a call's number is {@link #CALL_BIT} | a 31-bit sequence, sent as imm_data; a
 * reply echoing it completes that call; a reply with a number no call waits for (late: its call timed
 * out, or its handle closed, possibly before the pooled connection went to another user) is discarded
 * and counted ({@link #lateReplies()}). Until the peer echoes a number once, a plain SEND (no
 * imm_data) answers the oldest call posted and not yet answered (a foreign peer, matched in order):
 * it completes that call, or, if that call timed out or its handle closed, it is discarded and
 * counted as late, so a late answer never completes a newer call; with no call posted it is
 * unsolicited. Once the peer echoed (an activation of this adapter), plain SENDs are unsolicited.
 * A message whose imm_data has the high bit clear is unsolicited. A call that times out on a peer
 * that answered in order before closes this link (a lost answer would shift every later one); on a
 * peer that has not answered yet it only ends the call.
 *
 * <p>Failure: a receive completion in error on its QP (the QP is then in the error state, e.g. a
 * reply longer than receiveBufferSize: LOC_LEN_ERR), a DISCONNECTED event, a device loss or a
 * close fails every waiting call at once and makes the link unusable; the pooled connection replaces
 * it on the next connect. Thread-safe.
 */
final class PeerLink implements AutoCloseable {
    /** The high bit of imm_data: set on the calls' requests (and on the replies echoing them). */
    static final int CALL_BIT = CallNumbers.CALL_BIT;
    private static final int UNSOLICITED_CAPACITY = 1024;
    /** How often a waiting {@link #receive} looks whether its handle closed or the link failed, ns. */
    private static final long RECEIVE_CHECK_NANOS = 10_000_000;

    private final RcConnection rc;
    private final InetSocketAddress remote;
    private final String srqName;
    private final ReceiveService service;
    private final SrqManagedConnection connection;
    private final Map<Integer, PendingCall> pending = new ConcurrentHashMap<>();
    private final Queue<PendingCall> inOrder = new ConcurrentLinkedQueue<>();
    private final BlockingQueue<SrqMessage> unsolicited = new ArrayBlockingQueue<>(UNSOLICITED_CAPACITY);
    private final AtomicInteger sequence = new AtomicInteger();
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong lateReplies = new AtomicLong();
    private final AtomicLong droppedUnsolicited = new AtomicLong();
    /** Messages that arrived on its QP (servicing loop): a retirement's drain watches it settle. */
    private final AtomicLong arrivals = new AtomicLong();
    private final CallSpin spin = new CallSpin();
    /** Whether the peer echoed a call number once: it is matched by number from then on. */
    private volatile boolean echoes;
    /** Whether a plain SEND of the peer answered a call: it is a foreign peer, matched in order. */
    private volatile boolean answersInOrder;
    private volatile VerbsException failure;

    /**
     * @param rc      the connection
     * @param remote  the address it was connected to
     * @param srqName the pooled SRQ its receives come from
     * @param service    the servicing loop, which polls for calls no caller thread polls for
     * @param connection the pooled connection whose CQs a waiting caller polls while it spins
     *                   ({@link SrqManagedConnection#pollReplies})
     */
    PeerLink(RcConnection rc, InetSocketAddress remote, String srqName, ReceiveService service,
             SrqManagedConnection connection) {
        this.rc = rc;
        this.remote = remote;
        this.srqName = srqName;
        this.service = service;
        this.connection = connection;
    }

    /** @return the address it was connected to */
    InetSocketAddress remote() {
        return remote;
    }

    /** @return the pooled SRQ its receives come from */
    String srqName() {
        return srqName;
    }

    /** @return the local QP number: the qp_num of its receive completions */
    int qpNum() {
        return rc.qpNum();
    }

    /** @return the connection */
    RcConnection rc() {
        return rc;
    }

    /** @return calls started */
    long calls() {
        return calls.get();
    }

    /** @return replies that came for no waiting call, discarded */
    long lateReplies() {
        return lateReplies.get();
    }

    /** @return unsolicited messages waiting for {@link #receive} */
    int queuedUnsolicited() {
        return unsolicited.size();
    }

    /** @return unsolicited messages dropped: {@value #UNSOLICITED_CAPACITY} were waiting, or no handle took them */
    long droppedUnsolicited() {
        return droppedUnsolicited.get();
    }

    /**
     * @return whether it is known to have failed (a DISCONNECTED event, a receive completed in error,
     *         a device loss, close): a volatile read, cheap enough for every send
     */
    boolean hasFailed() {
        return failure != null;
    }

    /** @return whether it has not failed (no receive or send completed in error) and is still connected */
    boolean isUsable() {
        if (hasFailed() || rc.sendFailed()) {
            return false;
        }
        CmConnection c = rc.connection();
        try {
            return c != null && c.isEstablished();
        } catch (IllegalStateException closed) {
            return false;
        }
    }

    /** @return calls waiting */
    int waiting() {
        return pending.size();
    }

    /**
     * Posts a request numbered for its reply.
     *
     * @param request the bytes
     * @param future  the future of an asynchronous call (callAsync), or null for a synchronous one
     * @param wait    the longest wait for room in a full send ring (the call's timeout)
     * @return the call, registered before the request was posted
     * @throws SrqCallException when the link failed or the post failed (EMSGSIZE, ENOTCONN, EIO,
     *                          ETIMEDOUT: the send ring stayed full for {@code wait}, …)
     */
    PendingCall start(ByteBuffer request, CompletableFuture<SrqMessage> future, Duration wait) {
        VerbsException failed = failure;
        if (failed != null) {
            throw SrqCallException.of(failed, remote.toString());
        }
        int id = CALL_BIT | (sequence.incrementAndGet() & CallNumbers.SEQUENCE);
        PendingCall c = new PendingCall(id, future);
        pending.put(id, c);
        if (!echoes) {
            inOrder.add(c);
        }
        calls.incrementAndGet();
        if (c.isAsync()) {
            service.callStarted(); // no thread waits for it: the servicing loop polls for it
        }
        try {
            rc.send(request, id, wait);
        } catch (VerbsException e) {
            unregister(c);
            throw SrqCallException.of(e, remote.toString());
        } catch (RuntimeException | Error e) {
            unregister(c);
            throw e;
        }
        return c;
    }

    /** A call whose request was not posted: it waits for nothing. */
    private void unregister(PendingCall c) {
        inOrder.remove(c);
        if (pending.remove(c.id(), c) && c.isAsync()) {
            service.callEnded();
        }
    }

    /**
     * Waits for a synchronous call's outcome: the caller first polls the pooled connection's CQs itself
     * ({@link #spinForReply}: a reply found is handed to its call by {@link #onMessage} on this very
     * thread, no hand-off), then parks and leaves the polling to the servicing loop
     * ({@link #parkForReply}).
     *
     * @param c        the call, from {@link #start}
     * @param deadline System.nanoTime at which it times out
     * @param timeout  its timeout, for the message
     * @return the reply
     * @throws SrqCallException the failure: ETIMEDOUT at the deadline, EINTR when the waiting thread is
     *                          interrupted, ENOTCONN when the link fails meanwhile
     */
    SrqMessage await(PendingCall c, long deadline, Duration timeout) {
        long t0 = System.nanoTime();
        spinForReply(c, deadline);
        if (!c.isDone()) {
            parkForReply(c, deadline, timeout);
        }
        spin.replied(System.nanoTime() - t0);
        return c.reply();
    }

    /**
     * Polls the pooled connection's CQs on the caller's thread for as long as this peer's
     * {@link CallSpin} says, if {@link SpinBudget#PROCESS} gives it a slot; a poll that finds another
     * thread polling returns at once.
     */
    private void spinForReply(PendingCall c, long deadline) {
        long spinNanos = spin.nanos();
        if (c.isDone() || spinNanos <= 0 || !SpinBudget.PROCESS.tryEnter()) {
            return;
        }
        try {
            long spinUntil = Math.min(System.nanoTime() + spinNanos, deadline);
            do {
                if (connection.pollReplies() == 0) {
                    Thread.onSpinWait();
                }
            } while (!c.isDone() && System.nanoTime() - spinUntil < 0);
        } finally {
            SpinBudget.PROCESS.exit();
        }
    }

    /**
     * Parks until the outcome is set, counted with the servicing loop as a call it must poll for; at
     * the deadline sets the timeout (unless the reply won the race), on an interrupt EINTR (the
     * interrupt status stays set: parkNanos would return at once).
     */
    private void parkForReply(PendingCall c, long deadline, Duration timeout) {
        c.parkHere();
        service.callStarted();
        try {
            while (!c.isDone()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    timedOut(c, timeout);
                } else if (Thread.currentThread().isInterrupted()) {
                    interrupted(c);
                } else {
                    LockSupport.parkNanos(c, left);
                }
            }
        } finally {
            service.callEnded();
        }
    }

    /**
     * A message arrived on this link's QP (servicing loop).
     *
     * @param m the message
     */
    void onMessage(SrqMessage m) {
        arrivals.incrementAndGet();
        if (m.hasImmData() && (m.immData() & CALL_BIT) != 0) {
            boolean notRun = (m.immData() & CallNumbers.NOT_RUN_BIT) != 0;
            PendingCall c = pending.remove(m.immData() & ~CallNumbers.NOT_RUN_BIT);
            if (!echoes) {
                echoes = true;
                inOrder.clear(); // matched by number from now on
            }
            if (c == null) {
                lateReplies.incrementAndGet();
            } else if (notRun) {
                finish(c, SrqCallException.of(new VerbsException("call", Errno.ECANCELED, CallNumbers.NOT_RUN),
                        remote.toString()));
            } else {
                finish(c, m);
            }
            return;
        }
        if (!m.hasImmData() && !echoes) {
            PendingCall c = inOrder.poll();
            if (c != null) {
                answersInOrder = true;
                if (pending.remove(c.id(), c)) {
                    finish(c, m);
                } else {
                    lateReplies.incrementAndGet(); // the answer to a call that timed out or was abandoned
                }
                return;
            }
        }
        if (!unsolicited.offer(m)) {
            droppedUnsolicited.incrementAndGet();
        }
    }

    /**
     * Ends a call with a failure unless it is over already.
     *
     * @param c     the call
     * @param cause the failure
     * @return whether it ended it
     */
    boolean abandon(PendingCall c, VerbsException cause) {
        if (pending.remove(c.id(), c)) {
            finish(c, SrqCallException.of(cause, remote.toString()));
            return true;
        }
        return false;
    }

    /**
     * The call's deadline passed: ends it with ETIMEDOUT. A peer that answered a call with a plain
     * SEND (a foreign peer, matched in order) gets its QP closed, since one lost answer would shift
     * every later one; a peer that has not answered yet keeps it, the call's place in the order kept,
     * so that its answer, if it comes in order, is discarded as late and an echo of our own
     * activations is matched by number.
     *
     * @param c       the call
     * @param timeout its timeout, for the message
     */
    void timedOut(PendingCall c, Duration timeout) {
        if (abandon(c, new VerbsException("ibv_poll_cq", Errno.ETIMEDOUT, "no reply from " + remote + " within "
                + timeoutText(timeout) + " (" + callName(c) + ")"))
                && answersInOrder && !echoes) {
            RaLogger.LOG.inOrderPeerTimedOut(remote, timeout.toMillis());
            fail(new VerbsException("ibv_poll_cq", Errno.ENOTCONN, "the connection to " + remote
                    + " was closed: a call to a peer that answers in order (no imm_data echo) timed out"));
            stopArrivals(); // no later answer is acknowledged; the pooled connection retires the link
        }
    }

    /**
     * Moves its QP to ERR (ibv_modify_qp(3), IBV_QPS_ERR): from then on nothing more the peer sends is
     * acknowledged, while what its QP already received stays in the pooled SRQ's CQ — the first step
     * of retiring the link (then drained, then destroyed: {@link SrqManagedConnection}). A failure
     * (the QP gone already, the device lost) is logged at debug: the retirement goes on.
     */
    void stopArrivals() {
        try {
            rc.qp().moveToError();
        } catch (VerbsException | IllegalStateException e) {
            RaLogger.LOG.debugf("moving the QP %d of the peer %s to ERR: %s", qpNum(), remote, e.getMessage());
        }
    }

    /** @return messages that arrived on its QP */
    long arrivals() {
        return arrivals.get();
    }

    /**
     * The waiting thread was interrupted: ends the call with EINTR (a {@link
     * io.rdma.srq.api.CallTimedOutException}: the caller gave up), its place in the order kept.
     *
     * @param c the call
     */
    void interrupted(PendingCall c) {
        abandon(c, new VerbsException("ibv_poll_cq", Errno.EINTR, "the thread waiting for the reply from " + remote
                + " was interrupted (" + callName(c) + ")"));
    }

    /** {@return "call n": the call's number without {@link #CALL_BIT}, for messages} */
    private static String callName(PendingCall c) {
        return "call " + Integer.toUnsignedString(c.id() & ~CALL_BIT);
    }

    private static String timeoutText(Duration timeout) {
        return timeout.toMillis() > 0 ? timeout.toMillis() + " ms" : timeout.toNanos() / 1000 + " µs";
    }

    /**
     * Discards the unsolicited messages nobody took (the handle that could have taken them closed),
     * counted with {@link #droppedUnsolicited()}, so the pooled link's next user does not get them.
     *
     * @return how many
     */
    int discardUnsolicited() {
        int n = 0;
        while (unsolicited.poll() != null) {
            n++;
        }
        droppedUnsolicited.addAndGet(n);
        return n;
    }

    /**
     * Takes an unsolicited message.
     *
     * @param timeout the longest wait
     * @param closed  whether the handle's view of the peer closed meanwhile (looked at every 10 ms)
     * @return the message, or empty
     * @throws SrqCallException ENOTCONN once the link failed and nothing is queued, or when the
     *                          handle's view closed while it waited
     */
    Optional<SrqMessage> receive(Duration timeout, java.util.function.BooleanSupplier closed) {
        SrqMessage m = unsolicited.poll();
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            long left;
            while (m == null && failure == null && !closed.getAsBoolean() && (left = deadline - System.nanoTime()) > 0) {
                m = unsolicited.poll(Math.min(left, RECEIVE_CHECK_NANOS), TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (m == null && closed.getAsBoolean()) {
            throw SrqCallException.of(new VerbsException("ibv_poll_cq", Errno.ENOTCONN, "the handle's use of the peer "
                    + remote + " ended while receive waited"), remote.toString());
        }
        VerbsException failed = failure;
        if (m == null && failed != null) {
            throw SrqCallException.of(failed, remote.toString());
        }
        return Optional.ofNullable(m);
    }

    /**
     * Marks the link failed and fails every waiting call with {@code cause}. The first cause stays.
     *
     * @param cause why
     */
    void fail(VerbsException cause) {
        if (failure == null) {
            failure = cause;
        }
        for (PendingCall c : List.copyOf(pending.values())) {
            abandon(c, cause);
        }
    }

    /**
     * Reads the rdma_cm events of its connection without waiting (servicing loop). A failure to read
     * them fails the link at once; DISCONNECTED or DEVICE_REMOVAL is returned, and the caller ends
     * the link with {@link #ended} once it has taken the receive completions that came before it.
     *
     * @return the event that ends the link, or empty: DEVICE_REMOVAL means the device is going away
     *         (rdma_cm(7)) and the whole pooled connection must release it
     */
    Optional<CmEventType> endingEvent() {
        CmConnection c = rc.connection();
        if (c == null || failure != null) {
            return Optional.empty();
        }
        CmEventType ending = null;
        try {
            Optional<CmEvent> e;
            while ((e = c.nextEvent(Duration.ZERO)).isPresent()) {
                CmEventType type = e.get().type();
                if (type == CmEventType.DEVICE_REMOVAL || (type == CmEventType.DISCONNECTED && ending == null)) {
                    ending = type;
                }
            }
        } catch (VerbsException | IllegalStateException gone) {
            fail(new VerbsException("rdma_get_cm_event", Errno.ENOTCONN, remote + ": " + gone.getMessage()));
        }
        return Optional.ofNullable(ending);
    }

    /**
     * Fails the link with ENOTCONN for the event that ended it.
     *
     * @param type DISCONNECTED or DEVICE_REMOVAL, from {@link #endingEvent}
     */
    void ended(CmEventType type) {
        fail(new VerbsException("rdma_get_cm_event", Errno.ENOTCONN, remote + " disconnected (RDMA_CM_EVENT_" + type + ")"));
    }

    private void finish(PendingCall c, Object outcome) {
        if (c.complete(outcome) && c.isAsync()) {
            service.callEnded();
        }
    }

    /**
     * Fails the waiting calls with ENOTCONN and closes the connection (its QP destroyed). Idempotent.
     * The pooled connection calls it only after {@link #stopArrivals} and a drain of the CQ: mlx5's
     * ibv_destroy_qp removes the QP's completions from the CQ (driver note 18).
     */
    @Override
    public void close() throws VerbsException {
        fail(new VerbsException("rdma_disconnect", Errno.ENOTCONN, "the connection to " + remote + " was closed"));
        rc.close();
    }
}
