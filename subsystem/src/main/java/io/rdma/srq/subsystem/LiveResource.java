package io.rdma.srq.subsystem;

import io.rdma.srq.ra.management.ActivationControl;
import io.rdma.srq.ra.management.ActivationDirectory;
import io.rdma.srq.ra.management.ActivationView;
import io.rdma.srq.ra.management.DefinitionControl;
import io.rdma.srq.ra.management.DefinitionDirectory;
import org.jboss.as.controller.PathAddress;
import org.jboss.as.controller.PathElement;
import org.jboss.as.controller.registry.PlaceholderResource;
import org.jboss.as.controller.registry.Resource;
import org.jboss.dmr.ModelNode;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A resource ({@code /subsystem=rdma-srq}, or a deployment's {@code subsystem=rdma-srq}) some of whose
 * children are read from the adapter each time they are asked for: {@code activation=<srqName>} for every
 * running activation, and at the subsystem {@code connection-definition=<pool>} for every bound
 * connection definition. An MDB deployed or undeployed shows or vanishes at once, with no add or remove
 * operation and no reload. Everything else (the model, other children) is the wrapped resource's.
 */
final class LiveResource implements Resource {

    /** One type of live children. */
    interface Children {
        /** @return the child type, e.g. {@code activation} */
        String type();

        /** @return the children now, by name */
        Map<String, ? extends ResourceEntry> now();
    }

    /** Which activations a resource shows. */
    @FunctionalInterface
    interface Scope {
        /** Every activation of the server's adapters. */
        Scope SERVER = control -> true;

        /**
         * @param control an activation
         * @return whether it belongs here
         */
        boolean contains(ActivationControl control);

        /**
         * @param deploymentLoader a deployment's class loader
         * @return the activations whose endpoint (MDB) class that deployment defines
         */
        static Scope deployment(ClassLoader deploymentLoader) {
            return control -> control.endpointClass().getClassLoader() == deploymentLoader;
        }
    }

    /**
     * @param scope which activations
     * @return the running activations of that scope by srqName (the first of a name when two adapters run one each)
     */
    static Children activations(Scope scope) {
        return new Children() {
            @Override
            public String type() {
                return ActivationDefinition.PATH.getKey();
            }

            @Override
            public Map<String, LiveEntry<ActivationControl>> now() {
                Map<String, LiveEntry<ActivationControl>> byName = new LinkedHashMap<>();
                for (ActivationView v : ActivationDirectory.all()) {
                    if (v.control() != null && scope.contains(v.control())) {
                        byName.putIfAbsent(v.statistics().srqName(), new LiveEntry<>(type(), v.statistics().srqName(), v.control()));
                    }
                }
                return byName;
            }
        };
    }

    /** @return the bound connection definitions by pool name (those the container names) */
    static Children definitions() {
        return new Children() {
            @Override
            public String type() {
                return DefinitionResourceDefinition.PATH.getKey();
            }

            @Override
            public Map<String, LiveEntry<DefinitionControl>> now() {
                Map<String, LiveEntry<DefinitionControl>> byName = new LinkedHashMap<>();
                for (DefinitionControl d : DefinitionDirectory.all()) {
                    String pool = d.poolName();
                    if (pool != null) {
                        byName.putIfAbsent(pool, new LiveEntry<>(type(), pool, d));
                    }
                }
                return byName;
            }
        };
    }

    private final Resource model;
    private final List<Children> live;

    /**
     * @param model the resource's own model and configured children
     * @param live  its live child types
     */
    LiveResource(Resource model, List<Children> live) {
        this.model = model;
        this.live = List.copyOf(live);
    }

    private Children live(String type) {
        for (Children c : live) {
            if (c.type().equals(type)) {
                return c;
            }
        }
        return null;
    }

    @Override
    public ModelNode getModel() {
        return model.getModel();
    }

    @Override
    public void writeModel(ModelNode newModel) {
        model.writeModel(newModel);
    }

    @Override
    public boolean isModelDefined() {
        return model.isModelDefined();
    }

    @Override
    public boolean hasChild(PathElement element) {
        return getChild(element) != null;
    }

    @Override
    public Resource getChild(PathElement element) {
        Children c = live(element.getKey());
        return c != null ? c.now().get(element.getValue()) : model.getChild(element);
    }

    @Override
    public Resource requireChild(PathElement element) {
        Resource child = getChild(element);
        if (child == null) {
            throw new NoSuchResourceException(element);
        }
        return child;
    }

    @Override
    public boolean hasChildren(String childType) {
        Children c = live(childType);
        return c != null ? !c.now().isEmpty() : model.hasChildren(childType);
    }

    @Override
    public Resource navigate(PathAddress address) {
        return Tools.navigate(this, address);
    }

    @Override
    public Set<String> getChildTypes() {
        Set<String> types = new LinkedHashSet<>(model.getChildTypes());
        live.forEach(c -> types.add(c.type()));
        return types;
    }

    @Override
    public Set<String> getChildrenNames(String childType) {
        Children c = live(childType);
        return c != null ? new LinkedHashSet<>(c.now().keySet()) : model.getChildrenNames(childType);
    }

    @Override
    public Set<ResourceEntry> getChildren(String childType) {
        Children c = live(childType);
        return c != null ? new LinkedHashSet<>(c.now().values()) : model.getChildren(childType);
    }

    @Override
    public void registerChild(PathElement address, Resource resource) {
        refuseActivation(address);
        model.registerChild(address, resource);
    }

    @Override
    public void registerChild(PathElement address, int index, Resource resource) {
        refuseActivation(address);
        model.registerChild(address, index, resource);
    }

    private void refuseActivation(PathElement address) {
        if (live(address.getKey()) != null) {
            throw new UnsupportedOperationException(address.getKey() + " resources come and go with what they show; none can be added");
        }
    }

    @Override
    public Resource removeChild(PathElement address) {
        return live(address.getKey()) != null ? null : model.removeChild(address);
    }

    @Override
    public Set<String> getOrderedChildTypes() {
        return model.getOrderedChildTypes();
    }

    @Override
    public boolean isRuntime() {
        return model.isRuntime();
    }

    @Override
    public boolean isProxy() {
        return false;
    }

    @Override
    @SuppressWarnings("MethodDoesntCallSuperMethod")
    public Resource clone() {
        return new LiveResource(model.clone(), live);
    }

    /** Operations read a shallow copy: still live, still of this scope. */
    @Override
    public Resource shallowCopy() {
        return new LiveResource(model.shallowCopy(), live);
    }

    /**
     * One live child — a running activation, a bound definition: a runtime resource with no model of its
     * own whose attributes are read live from what it shows. Immutable: an operation that reads it gets
     * this very object (clone and shallow copy are itself), and so what it addresses.
     *
     * @param <C> what it shows ({@link ActivationControl}, {@link DefinitionControl})
     */
    static final class LiveEntry<C> extends PlaceholderResource.PlaceholderResourceEntry {
        private final C control;

        LiveEntry(String type, String name, C control) {
            super(type, name);
            this.control = control;
        }

        /** @return what it shows */
        C control() {
            return control;
        }

        @Override
        @SuppressWarnings("MethodDoesntCallSuperMethod")
        public LiveEntry<C> clone() {
            return this;
        }

        @Override
        public Resource shallowCopy() {
            return this;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof LiveEntry<?> e && e.getPathElement().equals(getPathElement()) && e.control == control;
        }

        @Override
        public int hashCode() {
            return getPathElement().hashCode();
        }
    }
}
