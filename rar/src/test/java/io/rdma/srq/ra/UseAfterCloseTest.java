package io.rdma.srq.ra;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.RegisteredMemory;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.SrqConnection;
import io.rdma.srq.api.SrqHandle;
import io.rdma.srq.api.SrqPeer;
import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.inbound.SrqActivationSpec;
import io.rdma.srq.ra.testing.SoftAdapterTest;
import io.rdma.srq.ra.testing.SoftSender;
import io.rdma.srq.ra.testing.TestEndpointFactory;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Use after close is the same on every adapter handle: each public method of the implementations of
 * SrqConnection, SrqHandle, SrqPeer, RegisteredMemory and ReceiveCompletion, found by reflection and
 * called with dummy arguments, throws IllegalStateException once the handle is closed (an SrqHandle:
 * once its connection is; a ReceiveCompletion: once its onReceive returned); close() stays
 * idempotent. The dummy arguments of interface types throw if touched, so the check comes first.
 */
class UseAfterCloseTest extends SoftAdapterTest {

    @Test
    void aClosedConnectionHandle() throws Exception {
        SrqConnection c = factory.getConnection();
        c.close();
        assertAllThrowAfterClose(c, SrqConnection.class);
        assertDoesNotThrow(c::close, "close is idempotent");
    }

    @Test
    void anSrqHandleOfAClosedConnection() throws Exception {
        SrqConnection c = factory.getConnection();
        SrqHandle srq = c.openSrq("orders", new SrqAttributes(16, 1, 0));
        c.close();
        assertAllThrowAfterClose(srq, SrqHandle.class);
    }

    @Test
    void closedRegisteredMemoryAndThatOfAClosedConnection() throws Exception {
        try (SrqConnection c = factory.getConnection()) {
            RegisteredMemory m = c.registerMemory(4096, EnumSet.of(AccessFlag.LOCAL_WRITE));
            m.close();
            assertAllThrowAfterClose(m, RegisteredMemory.class);
            assertDoesNotThrow(m::close, "close is idempotent");
        }
        SrqConnection c = factory.getConnection();
        RegisteredMemory m = c.registerMemory(4096, EnumSet.of(AccessFlag.LOCAL_WRITE));
        c.close();
        assertAllThrowAfterClose(m, RegisteredMemory.class);
    }

    @Test
    void aClosedPeerAndThePeerOfAClosedConnection() throws Exception {
        SrqActivation a = activate(new TestEndpointFactory());
        try (SrqConnection c = factory.getConnection()) {
            SrqPeer peer = c.connect(a.listenAddress(), Duration.ofSeconds(5));
            peer.close();
            assertAllThrowAfterClose(peer, SrqPeer.class);
            assertDoesNotThrow(peer::close, "close is idempotent");
        }
        SrqConnection c = factory.getConnection();
        SrqPeer peer = c.connect(a.listenAddress(), Duration.ofSeconds(5));
        c.close();
        assertAllThrowAfterClose(peer, SrqPeer.class);
    }

    @Test
    void aReceiveCompletionAfterItsOnReceiveReturned() throws Exception {
        TestEndpointFactory endpoints = new TestEndpointFactory();
        List<ReceiveCompletion> kept = new CopyOnWriteArrayList<>();
        endpoints.behaviour(kept::add);
        SrqActivation a = activate(endpoints);
        try (SoftSender s = new SoftSender(a.listenAddress(), 64)) {
            s.send(7, 64, 7);
            s.drain(Duration.ofSeconds(10));
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (a.statistics().delivered() < 1 && System.nanoTime() < deadline) {
                Thread.sleep(2);
            }
        }
        assertEquals(1, kept.size(), "one delivery");
        assertAllThrowAfterClose(kept.getFirst(), ReceiveCompletion.class);
    }

    private SrqActivation activate(TestEndpointFactory endpoints) throws Exception {
        SrqActivationSpec spec = new SrqActivationSpec();
        spec.setProvider("soft");
        spec.setListenAddress("10.0.0.1");
        spec.setListenPort("0");
        spec.setSrqMaxWr("16");
        spec.setSrqLimit("0");
        spec.setResourceAdapter(ra);
        ra.endpointActivation(endpoints, spec);
        return ra.activations().getFirst();
    }

    /**
     * Calls every public method of {@code handle}'s class but close() and those of Object, and
     * checks that each is one of {@code api}'s and throws IllegalStateException.
     */
    private static void assertAllThrowAfterClose(Object handle, Class<?> api) throws Exception {
        List<String> wrong = new ArrayList<>();
        int called = 0;
        for (Method m : handle.getClass().getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || m.getName().equals("close") && m.getParameterCount() == 0
                    || isObjectMethod(m)) {
                continue;
            }
            String name = m.getName() + Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName).toList();
            if (!isDeclaredBy(api, m)) {
                wrong.add(name + ": public, but not a method of " + api.getSimpleName());
                continue;
            }
            m.setAccessible(true); // ReceiveCompletion's implementation is a private class
            called++;
            try {
                Object result = m.invoke(handle, Arrays.stream(m.getParameterTypes()).map(UseAfterCloseTest::dummy).toArray());
                wrong.add(name + " returned " + result);
            } catch (InvocationTargetException e) {
                if (!(e.getCause() instanceof IllegalStateException)) {
                    wrong.add(name + " threw " + e.getCause());
                }
            }
        }
        assertTrue(called >= 1, "no method of " + api.getSimpleName() + " was called");
        assertEquals(List.of(), wrong, api.getSimpleName() + " after close: " + called + " methods called");
    }

    private static boolean isObjectMethod(Method m) {
        try {
            Object.class.getMethod(m.getName(), m.getParameterTypes());
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static boolean isDeclaredBy(Class<?> api, Method m) {
        try {
            api.getMethod(m.getName(), m.getParameterTypes());
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static Object dummy(Class<?> type) {
        if (type == int.class) {
            return 1;
        } else if (type == long.class) {
            return 1L;
        } else if (type == boolean.class) {
            return false;
        } else if (type == String.class) {
            return "dummy";
        } else if (type == ByteBuffer.class) {
            return ByteBuffer.allocate(8);
        } else if (type == Duration.class) {
            return Duration.ofMillis(1);
        } else if (type == InetSocketAddress.class) {
            return new InetSocketAddress("10.0.0.1", 1);
        } else if (type == SrqAttributes.class) {
            return new SrqAttributes(1, 1, 0);
        } else if (type == Set.class) {
            return EnumSet.of(AccessFlag.LOCAL_WRITE);
        } else if (type.isInterface()) {
            return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
                throw new AssertionError("the dummy " + type.getSimpleName() + " was used: " + method.getName());
            });
        }
        throw new IllegalArgumentException("no dummy for " + type);
    }
}
