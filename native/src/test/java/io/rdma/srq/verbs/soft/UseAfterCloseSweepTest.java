package io.rdma.srq.verbs.soft;

import io.rdma.srq.api.AccessFlag;
import io.rdma.srq.api.SrqAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.CmConnection;
import io.rdma.srq.verbs.CmEvent;
import io.rdma.srq.verbs.CmListener;
import io.rdma.srq.verbs.CompletionChannel;
import io.rdma.srq.verbs.CompletionQueue;
import io.rdma.srq.verbs.Context;
import io.rdma.srq.verbs.MemoryRegion;
import io.rdma.srq.verbs.ProtectionDomain;
import io.rdma.srq.verbs.QpInitAttributes;
import io.rdma.srq.verbs.QueuePair;
import io.rdma.srq.verbs.RcEndpoint;
import io.rdma.srq.verbs.ReceiveWorkRequests;
import io.rdma.srq.verbs.RpmaConnection;
import io.rdma.srq.verbs.RpmaEndpoint;
import io.rdma.srq.verbs.RpmaMemory;
import io.rdma.srq.verbs.RpmaPeer;
import io.rdma.srq.verbs.RpmaSrq;
import io.rdma.srq.verbs.SharedReceiveQueue;
import io.rdma.srq.verbs.VerbsObject;
import io.rdma.srq.verbs.WorkCompletionArray;
import io.rdma.srq.verbs.XrcDomain;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Use after close, swept by reflection: every public method of every verbs noun of the soft
 * provider, called on a closed object with live arguments, throws {@link IllegalStateException}
 * (VerbsObject's lifecycle rule), whether the object was closed itself or by its context; so do the
 * native arrays {@link ReceiveWorkRequests} and {@link WorkCompletionArray}.
 *
 * <p>Safe after close, and only these: {@link VerbsObject#close()} (idempotent) and
 * {@link VerbsObject#isClosed()}; {@code close()} of the two arrays (idempotent). The librpma nouns
 * are not swept here: the soft device has no librpma peer ({@link Context#openRpmaPeer()} is ENOSYS).
 */
class UseAfterCloseSweepTest {
    private static final Duration WAIT = Duration.ofSeconds(5);
    /** The methods a closed verbs noun still answers. */
    private static final Set<String> SAFE_AFTER_CLOSE = Set.of("close()", "isClosed()");
    /** Verbs nouns the soft device cannot make. */
    private static final Set<Class<?>> IBVERBS_ONLY = Set.of(RpmaPeer.class, RpmaSrq.class, RpmaMemory.class,
            RpmaEndpoint.class, RpmaConnection.class);

    private final SoftProvider provider = new SoftProvider();
    private final Arena arena = Arena.ofShared();
    private int liveBefore;
    /** Where the live arguments come from. */
    private Context live;
    private Map<Class<?>, Object> arguments;

    @BeforeEach
    void openLiveArguments() throws VerbsException {
        liveBefore = SoftProvider.liveObjects();
        live = provider.open(SoftProfile.MLX5);
        ProtectionDomain pd = live.allocPd();
        CompletionQueue cq = live.createCq(16, null);
        SharedReceiveQueue srq = pd.createSrq(new SrqAttributes(16, 1, 0));
        QueuePair qp = pd.createQp(QpInitAttributes.rcOnSrq(cq, srq, 4));
        arguments = new LinkedHashMap<>();
        arguments.put(int.class, 1);
        arguments.put(long.class, 0L);
        arguments.put(boolean.class, false);
        arguments.put(Integer.class, null);
        arguments.put(String.class, "127.0.0.1");
        arguments.put(Duration.class, Duration.ZERO);
        arguments.put(byte[].class, new byte[0]);
        arguments.put(InetSocketAddress.class, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        arguments.put(Set.class, EnumSet.of(AccessFlag.LOCAL_WRITE));
        arguments.put(MemorySegment.class, arena.allocate(4096, 4096));
        arguments.put(SrqAttributes.class, new SrqAttributes(1, 1, 0));
        arguments.put(io.rdma.srq.verbs.ConnectionParameters.class, io.rdma.srq.verbs.ConnectionParameters.RDMA_CM_DEFAULTS);
        arguments.put(WorkCompletionArray.class, new WorkCompletionArray(1));
        arguments.put(ReceiveWorkRequests.class, new ReceiveWorkRequests(1));
        arguments.put(CompletionChannel.class, live.createCompletionChannel());
        arguments.put(CompletionQueue.class, cq);
        arguments.put(QueuePair.class, qp);
        arguments.put(MemoryRegion.class, pd.allocateRegistered(4096, EnumSet.of(AccessFlag.LOCAL_WRITE)));
        arguments.put(XrcDomain.class, live.openXrcd());
        arguments.put(QpInitAttributes.class, QpInitAttributes.rcOnSrq(cq, srq, 4));
        arguments.put(RcEndpoint.class, qp.localEndpoint(1, 0));
    }

    @AfterEach
    void closeLiveArguments() throws VerbsException {
        ((WorkCompletionArray) arguments.get(WorkCompletionArray.class)).close();
        ((ReceiveWorkRequests) arguments.get(ReceiveWorkRequests.class)).close();
        live.close();
        arena.close();
        assertEquals(liveBefore, SoftProvider.liveObjects(), "soft objects leaked");
    }

    @Test
    void everyPublicMethodOfANounClosedByItselfThrowsIllegalStateException() throws Exception {
        Context ctx = provider.open(SoftProfile.MLX5);
        Map<Class<?>, VerbsObject> nouns = everyNoun(ctx);
        List<VerbsObject> childrenFirst = new ArrayList<>(nouns.values());
        for (VerbsObject o : childrenFirst.reversed()) {
            o.close();
        }
        assertEquals(List.of(), sweep(nouns));
        assertClosedStaysClosed(nouns.values());
    }

    @Test
    void everyPublicMethodOfANounClosedByItsContextThrowsIllegalStateException() throws Exception {
        Context ctx = provider.open(SoftProfile.MLX5);
        Map<Class<?>, VerbsObject> nouns = everyNoun(ctx);
        ctx.close();
        assertEquals(List.of(), sweep(nouns));
        assertClosedStaysClosed(nouns.values());
    }

    @Test
    void everyVerbsNounIsSweptOrHasNoSoftImplementation() throws IOException, URISyntaxException {
        Set<String> nouns = new TreeSet<>();
        Path dir = Path.of(VerbsObject.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve(VerbsObject.class.getPackageName().replace('.', '/'));
        try (Stream<Path> files = Files.list(dir)) {
            files.map(f -> f.getFileName().toString())
                    .filter(n -> n.endsWith(".class") && !n.contains("$"))
                    .map(n -> load(VerbsObject.class.getPackageName() + "." + n.substring(0, n.length() - 6)))
                    .filter(c -> c.isInterface() && c != VerbsObject.class && VerbsObject.class.isAssignableFrom(c))
                    .filter(c -> !IBVERBS_ONLY.contains(c))
                    .forEach(c -> nouns.add(c.getSimpleName()));
        }
        Set<String> swept = new TreeSet<>();
        sweptKinds().forEach(c -> swept.add(c.getSimpleName()));
        assertEquals(nouns, swept, "a verbs noun the sweep does not make");
    }

    @Test
    void theNativeArraysThrowIllegalStateExceptionAfterClose() throws Exception {
        ReceiveWorkRequests wrs = new ReceiveWorkRequests(2);
        WorkCompletionArray wcs = new WorkCompletionArray(2);
        wrs.close();
        wcs.close();
        List<String> failures = new ArrayList<>();
        failures.addAll(sweep(ReceiveWorkRequests.class, wrs));
        failures.addAll(sweep(WorkCompletionArray.class, wcs));
        assertEquals(List.of(), failures);
        assertDoesNotThrow(wrs::close, "close stays idempotent");
        assertDoesNotThrow(wcs::close, "close stays idempotent");
    }

    /** The interfaces {@link #everyNoun} makes one object of. */
    private static List<Class<?>> sweptKinds() {
        return List.of(Context.class, ProtectionDomain.class, CompletionChannel.class, CompletionQueue.class,
                XrcDomain.class, SharedReceiveQueue.class, MemoryRegion.class, QueuePair.class, CmListener.class,
                CmConnection.class);
    }

    /**
     * One open object of every verbs noun on {@code ctx} (soft_mlx5_0: it has SRQs, RC and XRC), in
     * creation order, so that closing them in reverse never meets EBUSY. The CM connection is the
     * passive side of a connection whose active side is on {@link #live}.
     */
    private Map<Class<?>, VerbsObject> everyNoun(Context ctx) throws Exception {
        Map<Class<?>, VerbsObject> nouns = new LinkedHashMap<>();
        nouns.put(Context.class, ctx);
        ProtectionDomain pd = ctx.allocPd();
        nouns.put(ProtectionDomain.class, pd);
        nouns.put(CompletionChannel.class, ctx.createCompletionChannel());
        CompletionQueue cq = ctx.createCq(16, null);
        nouns.put(CompletionQueue.class, cq);
        XrcDomain xrcd = ctx.openXrcd();
        nouns.put(XrcDomain.class, xrcd);
        nouns.put(MemoryRegion.class, pd.registerMemory(arena.allocate(4096, 4096), EnumSet.of(AccessFlag.LOCAL_WRITE)));
        SharedReceiveQueue srq = pd.createSrq(new SrqAttributes(16, 1, 0));
        nouns.put(SharedReceiveQueue.class, srq);
        QueuePair qp = pd.createQp(QpInitAttributes.rcOnSrq(cq, srq, 4));
        nouns.put(QueuePair.class, qp);
        CmListener listener = ctx.listen(new InetSocketAddress("0.0.0.0", 0), 4);
        nouns.put(CmListener.class, listener);
        nouns.put(CmConnection.class, acceptOne(listener, qp));
        assertEquals(Set.copyOf(sweptKinds()), nouns.keySet());
        return nouns;
    }

    /** Connects a QP of {@link #live} to {@code listener} and returns the accepted (passive) connection. */
    private CmConnection acceptOne(CmListener listener, QueuePair qp) throws Exception {
        ProtectionDomain pd = live.allocPd();
        CompletionQueue cq = live.createCq(16, null);
        QueuePair client = pd.createQp(QpInitAttributes.rcOnSrq(cq, pd.createSrq(new SrqAttributes(16, 1, 0)), 4));
        InetSocketAddress target = new InetSocketAddress("10.77.1.2", listener.localAddress().getPort());
        CompletableFuture<CmConnection> connecting = CompletableFuture.supplyAsync(() -> {
            try {
                return live.connect(client, target, WAIT);
            } catch (VerbsException e) {
                throw new IllegalStateException(e);
            }
        });
        CmEvent request = listener.nextEvent(WAIT).orElseThrow();
        CmConnection accepted = request.request().accept(qp);
        connecting.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        return accepted;
    }

    private List<String> sweep(Map<Class<?>, VerbsObject> nouns) {
        List<String> failures = new ArrayList<>();
        nouns.forEach((kind, object) -> failures.addAll(sweep(kind, object)));
        return failures;
    }

    /** Calls every public instance method of {@code kind} but the safe ones on {@code closed}. */
    private List<String> sweep(Class<?> kind, Object closed) {
        List<String> failures = new ArrayList<>();
        Method[] methods = kind.isInterface() ? kind.getMethods() : kind.getDeclaredMethods();
        for (Method m : methods) {
            String name = m.getName() + "(" + String.join(", ",
                    Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName).toList()) + ")";
            if (Modifier.isStatic(m.getModifiers()) || !Modifier.isPublic(m.getModifiers())
                    || SAFE_AFTER_CLOSE.contains(name) || m.getDeclaringClass() == Object.class) {
                continue;
            }
            String where = kind.getSimpleName() + "." + name;
            try {
                Object result = m.invoke(closed, arguments(m));
                failures.add(where + " returned " + result);
            } catch (InvocationTargetException e) {
                if (!(e.getCause() instanceof IllegalStateException)) {
                    failures.add(where + " threw " + e.getCause());
                }
            } catch (ReflectiveOperationException e) {
                failures.add(where + ": " + e);
            }
        }
        return failures;
    }

    private Object[] arguments(Method m) {
        Object[] args = new Object[m.getParameterCount()];
        for (int i = 0; i < args.length; i++) {
            Class<?> type = m.getParameterTypes()[i];
            assertTrue(arguments.containsKey(type), () -> "no live argument of type " + type.getName() + " for " + m);
            args[i] = arguments.get(type);
        }
        return args;
    }

    private static void assertClosedStaysClosed(Iterable<VerbsObject> closed) {
        for (VerbsObject o : closed) {
            assertDoesNotThrow(o::close, () -> "close of a closed " + o + " is idempotent");
            assertTrue(o.isClosed(), () -> o + " reads closed");
        }
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
