package io.rdma.srq.ra;

import io.rdma.srq.ra.inbound.lifecycle.SrqActivation;
import io.rdma.srq.ra.support.MscRequirement;
import io.rdma.srq.ra.support.RaLogger;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Makes a WildFly suspend (and graceful shutdown) drain every activation at once instead of one
 * after another.
 *
 * <p>Why: on {@code :suspend} WildFly (wildfly-server 31, {@code SuspendController}) runs the
 * prepare phase of its activities group by group; within a group it calls each activity's
 * {@code prepare} on the management thread, and every MDB's activity (wildfly-ejb3 39,
 * {@code MessageDrivenComponent}) deactivates its endpoint there, synchronously
 * ({@code preSuspend → deactivate → endpointDeactivation}). So the drains of several MDBs add up,
 * and the suspend timeout only starts counting after all of them (the operation waits
 * {@code suspend-timeout} on the stage that {@code suspend} returns, which it returns after the
 * synchronous prepare calls). Measured in SuspendResumeIT: three MDBs with about 2 s of backlog each,
 * :suspend 7.3 s, the drains ending at 2.3, 4.4 and 7.1 s.
 *
 * <p>What: the adapter registers one legacy {@code ServerActivity} in the first execution group
 * ({@code LOWEST_EXECUTION_GROUP}, prepared before the default group of the MDBs). Its
 * {@code preSuspend} calls {@link SrqActivation#quiesce()} on every activation in parallel — each
 * stops accepting, moves its QPs to ERROR and delivers its CQ within its drainTimeout — and reports
 * done when all have; the MDBs' deactivations then only tear down. {@code resume} does nothing: each
 * MDB's own activity activates its endpoint again (should a suspend be cancelled between the
 * quiesce and an MDB's deactivation, that MDB's activation on resume replaces the quiesced one).
 *
 * <p>How it is reached: an {@link MscRequirement} on the capability
 * {@code org.wildfly.server.suspend-controller} registers the activity when MSC starts it. All by
 * reflection, so the adapter neither compiles against nor needs WildFly: elsewhere {@link #register}
 * returns null and deactivations drain one by one, as before.
 */
final class ServerSuspendDrain implements InvocationHandler {
    private static final String SERVICE = "org.wildfly.server.suspend-controller";

    private final Supplier<Collection<SrqActivation>> activations;
    private final Object activity;
    private final Method done;
    private final int group;
    private final Method register;
    private final Method unregister;
    /** The MSC service that holds the suspend controller while it is up. */
    private MscRequirement service;
    private volatile Object controller;

    private ServerSuspendDrain(Supplier<Collection<SrqActivation>> activations, ClassLoader cl) throws Exception {
        this.activations = activations;
        Class<?> controllerType = Class.forName("org.jboss.as.server.suspend.SuspendController", false, cl);
        Class<?> serverActivity = Class.forName("org.jboss.as.server.suspend.ServerActivity", false, cl);
        this.done = Class.forName("org.jboss.as.server.suspend.ServerActivityCallback", false, cl).getMethod("done");
        this.group = serverActivity.getField("LOWEST_EXECUTION_GROUP").getInt(null);
        this.register = controllerType.getMethod("registerActivity", serverActivity);
        this.unregister = controllerType.getMethod("unregisterActivity",
                Class.forName("org.jboss.as.server.suspend.SuspendableActivity", false, cl));
        this.activity = Proxy.newProxyInstance(cl, new Class<?>[]{serverActivity}, this);
    }

    /**
     * @param activations the adapter's activations now
     * @return the registration, to {@link #close()} at adapter stop; null outside WildFly (or when the
     *         controller cannot be reached), logged (SRQRA0062). Registered with the controller once
     *         MSC starts the service (SRQRA0060).
     */
    static ServerSuspendDrain register(Supplier<Collection<SrqActivation>> activations) {
        try {
            ClassLoader cl = ServerSuspendDrain.class.getClassLoader();
            ServerSuspendDrain drain = new ServerSuspendDrain(activations, cl);
            drain.service = MscRequirement.install(SERVICE, "rdma-srq suspend drain service", drain::registerWith,
                    drain::unregister, cl);
            return drain;
        } catch (Exception | LinkageError e) {
            RaLogger.LOG.noSuspendController(MscRequirement.describe(e));
            return null;
        }
    }

    private void registerWith(Object suspendController) {
        invoke(register, suspendController);
        controller = suspendController;
        RaLogger.LOG.suspendDrainRegistered();
    }

    /** Removes the activity from the server's suspend controller; idempotent. */
    private void unregister() {
        Object c = controller;
        controller = null;
        if (c != null) {
            invoke(unregister, c);
        }
    }

    private void invoke(Method m, Object suspendController) {
        try {
            m.invoke(suspendController, activity);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("SuspendController." + m.getName(), e);
        }
    }

    /** Removes the activity and the MSC service (adapter stop). */
    void close() {
        try {
            service.close();
        } catch (ReflectiveOperationException | RuntimeException e) {
            RaLogger.LOG.noSuspendController(e.toString());
        }
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        return switch (method.getName()) {
            case "getExecutionGroup" -> group;
            case "preSuspend" -> {
                drainAll(args[0]);
                yield null;
            }
            case "suspended" -> {
                done(args[0]);
                yield null;
            }
            case "resume" -> {
                if (args != null && args.length > 0) { // resume(ServerResumeContext): the default method
                    yield InvocationHandler.invokeDefault(proxy, method, args);
                }
                yield null;
            }
            case "equals" -> proxy == args[0];
            case "hashCode" -> System.identityHashCode(proxy);
            case "toString" -> "rdma-srq suspend drain";
            default -> InvocationHandler.invokeDefault(proxy, method, args); // prepare, suspend
        };
    }

    /** Quiesces every activation in parallel; calls back when all are drained (never on this thread). */
    private void drainAll(Object callback) {
        List<SrqActivation> all = List.copyOf(activations.get());
        if (!all.isEmpty()) {
            RaLogger.LOG.suspendDrainStarted(all.size());
        }
        CompletableFuture<?>[] drains = all.stream()
                .map(a -> CompletableFuture.runAsync(a::quiesce, r -> Thread.ofPlatform().name("srq-suspend-drain")
                        .daemon().start(r)))
                .toArray(CompletableFuture[]::new);
        CompletableFuture.allOf(drains).whenComplete((v, e) -> done(callback));
    }

    private void done(Object callback) {
        try {
            done.invoke(callback);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("ServerActivityCallback.done", e);
        }
    }
}
