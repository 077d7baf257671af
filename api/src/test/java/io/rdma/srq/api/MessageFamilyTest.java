package io.rdma.srq.api;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every message the adapter hands over answers the same accessors the same way. */
class MessageFamilyTest {
    private static final byte[] BYTES = {1, 2, 3};
    private static final ReplyHandle REPLY = new ReplyHandle() {
        @Override
        public long connectionId() {
            return 9;
        }

        @Override
        public void reply(ByteBuffer message) {
        }

        @Override
        public void reply(ByteBuffer message, int immData) {
        }
    };

    private static List<SrqMessage> family() {
        return List.of(SrqMessage.of(BYTES.clone(), true, 42),
                ReceivedMessage.of(BYTES.clone(), true, 42, 1, REPLY),
                new SrqDeadLetter("s", 9, BYTES.clone(), true, 42, 3, new RuntimeException("x"), Instant.EPOCH));
    }

    @Test
    void everyMemberShowsTheSameBytesLengthAndImmData() {
        for (SrqMessage m : family()) {
            assertEquals(3, m.length(), m.toString());
            assertEquals(ByteBuffer.wrap(BYTES), m.payload(), m.toString());
            assertArrayEquals(BYTES, m.copyPayload(), m.toString());
            assertTrue(m.hasImmData());
            assertEquals(42, m.immData());
            assertTrue(m.toString().contains("byte_len=3, imm_data=42"), m.toString());
        }
    }

    @Test
    void noMemberCanBeChangedThroughWhatItHandsOut() {
        for (SrqMessage m : family()) {
            assertThrows(ReadOnlyBufferException.class, () -> m.payload().put(0, (byte) 7), m.toString());
            m.copyPayload()[0] = 7;
            assertEquals(1, m.payload().get(0), m.toString());
        }
    }

    @Test
    void membersAreEqualOnlyToTheirOwnKind() {
        List<SrqMessage> a = family();
        List<SrqMessage> b = family();
        for (int i = 0; i < a.size(); i++) {
            assertEquals(a.get(i), b.get(i));
            assertEquals(a.get(i).hashCode(), b.get(i).hashCode());
            for (int j = 0; j < b.size(); j++) {
                if (i != j) {
                    assertNotEquals(a.get(i), b.get(j), a.get(i) + " vs " + b.get(j));
                }
            }
        }
        assertNotEquals(SrqMessage.of(BYTES.clone(), true, 42), SrqMessage.of(BYTES.clone(), true, 43));
        assertEquals(0, SrqMessage.of(BYTES.clone(), false, 42).immData(), "no imm_data reads 0");
    }

    @Test
    void everyFailureIsOneUncheckedFamilyWithItsErrnoName() {
        VerbsException verb = new VerbsException("ibv_post_send", Errno.EMSGSIZE, "70000 > 65536");
        SrqCallException call = SrqCallException.of(verb, "/10.0.0.1:7471");
        RuntimeException unchecked = call;
        assertTrue(unchecked instanceof VerbsException);
        assertTrue(call instanceof MessageTooLargeException);
        assertEquals("EMSGSIZE", call.errnoName());
        assertEquals("ibv_post_send", call.operation());
        assertEquals(verb.getMessage(), call.getMessage());
        assertEquals(call, SrqCallException.of(call, "elsewhere"), "classified once");
        VerbsException local = new VerbsException("ibv_create_srq", Errno.EINVAL, "max_wr");
        assertEquals(local, SrqCallException.ofConnect(local, "/10.0.0.1:7471"), "a local failure stays as it is");
        assertTrue(SrqCallException.ofConnect(new VerbsException("rdma_connect", Errno.ECONNREFUSED, null), "p")
                instanceof PeerUnavailableException);
    }
}
