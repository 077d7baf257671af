package io.rdma.srq.ra.support;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * An anonymous WildFly MSC service, installed by the adapter at start, that requires one capability
 * service of the server and hands its value to the adapter while it is up: {@code onStart} when MSC
 * starts the service (the required service is UP, and started for it if it is on demand), {@code
 * onStop} when MSC stops it (the required service goes away) or at {@link #close()}.
 *
 * <p>Why: a server capability's value (the suspend controller, a clustering registrar) cannot be
 * read from its {@code ServiceController}; MSC gives it to a service that requires it. On-demand
 * services (WildFly's clustering registrars) also start only for a dependent that demands them — a
 * global JNDI lookup alone finds them not started. An ACTIVE service of ours is that dependent.
 *
 * <p>How: through {@code org.jboss.as.server.CurrentServiceContainer} and {@code org.jboss.msc}
 * (modules the rar's {@code jboss-deployment-structure.xml} and the Galleon module add), all by
 * reflection, so the adapter neither compiles against nor needs WildFly: elsewhere {@link #install}
 * throws and the caller does without.
 */
public final class MscRequirement implements AutoCloseable {
    private final Object controller;
    private final Method setMode;
    private final Object removeMode;
    private final Runnable onStop;

    private MscRequirement(Object controller, Method setMode, Object removeMode, Runnable onStop) {
        this.controller = controller;
        this.setMode = setMode;
        this.removeMode = removeMode;
        this.onStop = onStop;
    }

    /**
     * Whether the server has a service of that name (installed, in any state).
     *
     * @param serviceName the MSC service name, dotted (a capability's: {@code org.wildfly.…})
     * @param cl          the class loader that sees org.jboss.msc and org.jboss.as.server
     * @return true when it exists
     * @throws ReflectiveOperationException outside WildFly (no such classes) and the like
     */
    public static boolean exists(String serviceName, ClassLoader cl) throws ReflectiveOperationException {
        Class<?> name = Class.forName("org.jboss.msc.service.ServiceName", false, cl);
        Object container = container(cl);
        return Class.forName("org.jboss.msc.service.ServiceRegistry", false, cl).getMethod("getService", name)
                .invoke(container, name.getMethod("parse", String.class).invoke(null, serviceName)) != null;
    }

    /**
     * Installs the service (mode ACTIVE).
     *
     * @param serviceName the capability service it requires, dotted
     * @param description what {@code toString} of the service says (MSC's dumps)
     * @param onStart     given the required service's value when the service starts (MSC's thread;
     *                    an exception fails the service's start)
     * @param onStop      run when the service stops or at {@link #close()}, once per start
     * @param cl          the class loader that sees org.jboss.msc and org.jboss.as.server
     * @return the installed service
     * @throws ReflectiveOperationException outside WildFly, or when MSC refuses the service
     */
    public static MscRequirement install(String serviceName, String description, Consumer<Object> onStart,
                                         Runnable onStop, ClassLoader cl) throws ReflectiveOperationException {
        Class<?> name = Class.forName("org.jboss.msc.service.ServiceName", false, cl);
        Class<?> builderType = Class.forName("org.jboss.msc.service.ServiceBuilder", false, cl);
        Class<?> serviceType = Class.forName("org.jboss.msc.Service", false, cl);
        Object builder = Class.forName("org.jboss.msc.service.ServiceTarget", false, cl).getMethod("addService")
                .invoke(container(cl));
        Supplier<?> value = (Supplier<?>) builderType.getMethod("requires", name)
                .invoke(builder, name.getMethod("parse", String.class).invoke(null, serviceName));
        Object instance = service(description, () -> onStart.accept(value.get()), onStop, cl);
        builderType.getMethod("setInstance", serviceType).invoke(builder, instance);
        Object controller = builderType.getMethod("install").invoke(builder);
        Method setMode = setMode(cl);
        return new MscRequirement(controller, setMode, removeMode(setMode), onStop);
    }

    /**
     * @param cl the class loader that sees org.jboss.msc and org.jboss.as.server
     * @return the server's MSC service container (a ServiceTarget and a ServiceRegistry)
     * @throws ReflectiveOperationException outside WildFly
     */
    public static Object container(ClassLoader cl) throws ReflectiveOperationException {
        return Class.forName("org.jboss.as.server.CurrentServiceContainer", false, cl)
                .getMethod("getServiceContainer").invoke(null);
    }

    /**
     * Removes an installed MSC service (its mode REMOVE: MSC stops it, then removes it).
     *
     * @param controller the service's ServiceController
     * @param cl         the class loader that sees org.jboss.msc
     * @throws ReflectiveOperationException when MSC refuses
     */
    public static void remove(Object controller, ClassLoader cl) throws ReflectiveOperationException {
        Method setMode = setMode(cl);
        setMode.invoke(controller, removeMode(setMode));
    }

    /**
     * Waits until an MSC service is removed ({@code ServiceController.getState()} REMOVED), so that a
     * service of the same name can be installed again (MSC refuses a duplicate name until then).
     *
     * @param controller the service's ServiceController, set to REMOVE before
     * @param timeout    the longest wait
     * @param cl         the class loader that sees org.jboss.msc
     * @return whether it was removed in time
     * @throws ReflectiveOperationException when MSC cannot be asked
     */
    public static boolean awaitRemoved(Object controller, java.time.Duration timeout, ClassLoader cl)
            throws ReflectiveOperationException {
        Method getState = Class.forName("org.jboss.msc.service.ServiceController", false, cl).getMethod("getState");
        long end = System.nanoTime() + timeout.toNanos();
        while (!"REMOVED".equals(String.valueOf(getState.invoke(controller)))) {
            if (System.nanoTime() - end > 0) {
                return false;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    private static Method setMode(ClassLoader cl) throws ReflectiveOperationException {
        Class<?> controllerType = Class.forName("org.jboss.msc.service.ServiceController", false, cl);
        return controllerType.getMethod("setMode", Class.forName(controllerType.getName() + "$Mode", false, cl));
    }

    private static Object removeMode(Method setMode) {
        return Enum.valueOf(setMode.getParameterTypes()[0].asSubclass(Enum.class), "REMOVE");
    }

    /**
     * An MSC {@code org.jboss.msc.Service} whose start and stop run the given actions.
     *
     * @param description what its {@code toString} says
     * @param start       run at start (MSC's thread; an exception fails the start)
     * @param stop        run at stop
     * @param cl          the class loader that sees org.jboss.msc
     * @return the service
     * @throws ClassNotFoundException outside WildFly
     */
    public static Object service(String description, Runnable start, Runnable stop, ClassLoader cl)
            throws ClassNotFoundException {
        Class<?> serviceType = Class.forName("org.jboss.msc.Service", false, cl);
        return Proxy.newProxyInstance(cl, new Class<?>[]{serviceType}, (proxy, m, args) -> switch (m.getName()) {
            case "start" -> {
                start.run();
                yield null;
            }
            case "stop" -> {
                stop.run();
                yield null;
            }
            case "equals" -> proxy == args[0];
            case "hashCode" -> System.identityHashCode(proxy);
            default -> description;
        });
    }

    /**
     * @param e a failure of {@link #install} or {@link #exists}
     * @return what it says: the cause of an InvocationTargetException, else the failure itself
     */
    public static String describe(Throwable e) {
        return String.valueOf(e instanceof InvocationTargetException i ? i.getCause() : e);
    }

    /**
     * Runs {@code onStop} (the adapter lets go of the value now, not when MSC gets to it) and
     * removes the service.
     *
     * @throws ReflectiveOperationException when MSC refuses the removal
     */
    @Override
    public void close() throws ReflectiveOperationException {
        onStop.run();
        setMode.invoke(controller, removeMode);
    }
}
