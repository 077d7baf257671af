package io.rdma.srq.ra.inbound.delivery;

import io.rdma.srq.api.ReceivedMessage;
import io.rdma.srq.api.ReplyHandle;
import io.rdma.srq.api.RetainedMessage;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The receive buffers an activation's messages keep past their listener call
 * ({@code ReceiveCompletion.retain()}): at most {@code maxHeld} per connection and {@code maxTotal} in
 * all (past either, the message is copied to the heap instead, counted {@link #copiedOut()}). A
 * released buffer is queued for the poller, which alone gives buffers back to the SRQ
 * ({@link #drainReleased}). A retained message nobody released is released by a {@link Cleaner} once
 * unreachable. Before deactivation frees the slab, {@link #detachAll} copies every retained message to
 * the heap and closes its view arena: a view taken before then throws IllegalStateException rather
 * than read freed memory. Thread-safe.
 */
public final class RetainedBuffers {
    private static final Cleaner CLEANER = Cleaner.create();

    private final ReceiveBuffers buffers;
    private final int maxHeld;
    private final int maxTotal;
    private final Map<Long, AtomicInteger> byConnection = new ConcurrentHashMap<>();
    private final AtomicInteger total = new AtomicInteger();
    private final ConcurrentLinkedQueue<Integer> released = new ConcurrentLinkedQueue<>();
    private final Set<State> live = ConcurrentHashMap.newKeySet();
    private final LongAdder copiedOut = new LongAdder();

    /**
     * @param buffers  the SRQ's receive buffers
     * @param maxHeld  retained buffers per connection at most (maxHeldPerConnection)
     * @param maxTotal retained buffers in all at most
     */
    RetainedBuffers(ReceiveBuffers buffers, int maxHeld, int maxTotal) {
        this.buffers = buffers;
        this.maxHeld = maxHeld;
        this.maxTotal = maxTotal;
    }

    /**
     * Keeps buffer {@code buffer} for a message, or copies the message to the heap past the bound.
     *
     * @param buffer       the receive buffer (wr_id); -1 when the caller cannot give it up (then a copy)
     * @param byteLen      bytes of it
     * @param heap         the message's bytes when they are no longer in a buffer, else null
     * @param hasImm       whether it carried imm_data
     * @param immData      its imm_data
     * @param attempt      the delivery attempt
     * @param connectionId its connection
     * @param reply        its reply handle
     * @return the message; {@link RetainedMessage#inReceiveBuffer()} says whether it took the buffer
     */
    RetainedMessage retain(int buffer, int byteLen, byte[] heap, boolean hasImm, int immData, int attempt,
                           long connectionId, ReplyHandle reply) {
        Held h = new Held(this, byteLen, hasImm, immData, attempt, connectionId, reply);
        if (buffer >= 0 && heap == null && take(connectionId)) {
            h.state.attach(buffer, buffers.buffer(buffer, byteLen));
            live.add(h.state);
            h.cleanable = CLEANER.register(h, h.state);
        } else {
            h.state.copied(heap != null ? heap.clone() : buffers.buffer(buffer, byteLen).toArray(ValueLayout.JAVA_BYTE));
            copiedOut.increment();
        }
        return h;
    }

    /**
     * The delivery of a retained message's batch ended (its thread): the buffer goes back to the SRQ
     * once the application released it too.
     *
     * @param m what {@link #retain} returned
     */
    void deliveryEnded(RetainedMessage m) {
        ((Held) m).state.endDelivery();
    }

    private boolean take(long connectionId) {
        if (total.incrementAndGet() > maxTotal) {
            total.decrementAndGet();
            return false;
        }
        AtomicInteger n = byConnection.computeIfAbsent(connectionId, k -> new AtomicInteger());
        if (n.incrementAndGet() > maxHeld) {
            n.decrementAndGet();
            total.decrementAndGet();
            return false;
        }
        return true;
    }

    private void give(long connectionId, int buffer, boolean toSrq) {
        byConnection.computeIfPresent(connectionId, (k, n) -> n.decrementAndGet() == 0 ? null : n);
        total.decrementAndGet();
        if (toSrq) {
            released.offer(buffer);
        }
    }

    /** Gives released buffers back to the SRQ's free list (the poller's thread). */
    void drainReleased() {
        Integer b;
        while ((b = released.poll()) != null) {
            buffers.release(b);
        }
    }

    /** Deactivation, once no delivery runs and before the slab is freed: every retained message to the heap. */
    void detachAll() {
        for (State st : live) {
            st.detach();
        }
        live.clear();
    }

    /** @return receive buffers retained now */
    int retained() {
        return total.get();
    }

    /** @return messages retain() copied to the heap because the bound was reached */
    long copiedOut() {
        return copiedOut.sum();
    }

    /**
     * What a retained message holds, also reachable by its Cleaner (never the message itself). The
     * buffer has two owners, the delivery of its batch (which may still redeliver from it) and the
     * application; it goes back to the SRQ when both are done, unless deactivation detached it.
     */
    private static final class State implements Runnable {
        private final RetainedBuffers owner;
        private final long connectionId;
        private final Arena arena = Arena.ofShared();
        private int buffer = -1;
        private MemorySegment view;
        private byte[] heap;
        private boolean released;
        private boolean delivering;

        State(RetainedBuffers owner, long connectionId) {
            this.owner = owner;
            this.connectionId = connectionId;
        }

        synchronized void attach(int index, MemorySegment segment) {
            buffer = index;
            view = segment.reinterpret(arena, null);
            delivering = true;
        }

        synchronized void copied(byte[] bytes) {
            heap = bytes;
            arena.close();
        }

        /** The application's release (explicit, or by the Cleaner). */
        @Override
        public synchronized void run() {
            if (released) {
                return;
            }
            released = true;
            heap = null;
            owner.live.remove(this);
            giveBackIfDone();
        }

        synchronized void endDelivery() {
            delivering = false;
            giveBackIfDone();
        }

        private void giveBackIfDone() {
            if (released && !delivering && buffer >= 0) {
                arena.close();
                owner.give(connectionId, buffer, true);
                buffer = -1;
            }
        }

        synchronized void detach() {
            if (buffer < 0) {
                return;
            }
            if (!released) {
                heap = view.toArray(ValueLayout.JAVA_BYTE);
            }
            arena.close();
            owner.give(connectionId, buffer, false);
            buffer = -1;
        }

        synchronized ByteBuffer view() {
            check();
            return heap != null ? ByteBuffer.wrap(heap).asReadOnlyBuffer() : view.asByteBuffer().asReadOnlyBuffer();
        }

        synchronized byte[] bytes() {
            check();
            return heap != null ? heap.clone() : view.toArray(ValueLayout.JAVA_BYTE);
        }

        synchronized boolean inBuffer() {
            check();
            return buffer >= 0;
        }

        synchronized void check() {
            if (released) {
                throw new IllegalStateException("the retained message was released");
            }
        }
    }

    /** The application's handle. */
    private static final class Held implements RetainedMessage {
        private final State state;
        private final int byteLen;
        private final boolean hasImm;
        private final int immData;
        private final int attempt;
        private final long connectionId;
        private final ReplyHandle reply;
        private volatile Cleaner.Cleanable cleanable;

        Held(RetainedBuffers owner, int byteLen, boolean hasImm, int immData, int attempt, long connectionId,
             ReplyHandle reply) {
            this.state = new State(owner, connectionId);
            this.byteLen = byteLen;
            this.hasImm = hasImm;
            this.immData = immData;
            this.attempt = attempt;
            this.connectionId = connectionId;
            this.reply = reply;
        }

        @Override
        public int length() {
            state.check();
            return byteLen;
        }

        @Override
        public ByteBuffer payload() {
            return state.view();
        }

        @Override
        public byte[] copyPayload() {
            return state.bytes();
        }

        @Override
        public ReceivedMessage copy() {
            return ReceivedMessage.of(state.bytes(), hasImm, immData, attempt, reply);
        }

        @Override
        public boolean hasImmData() {
            state.check();
            return hasImm;
        }

        @Override
        public int immData() {
            state.check();
            return immData;
        }

        @Override
        public long connectionId() {
            state.check();
            return connectionId;
        }

        @Override
        public ReplyHandle replyHandle() {
            state.check();
            return reply;
        }

        @Override
        public boolean inReceiveBuffer() {
            return state.inBuffer();
        }

        @Override
        public void release() {
            if (cleanable != null) {
                cleanable.clean();
            } else {
                state.run();
            }
        }

        @Override
        public void close() {
            release();
        }

        @Override
        public String toString() {
            return "RetainedMessage[byte_len=" + byteLen + (hasImm ? ", imm_data=" + immData : "") + ", connection="
                    + connectionId + "]";
        }
    }
}
