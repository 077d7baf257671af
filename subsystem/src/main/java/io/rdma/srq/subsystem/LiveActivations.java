package io.rdma.srq.subsystem;

import io.rdma.srq.ra.management.ActivationControl;
import io.rdma.srq.ra.management.ActivationDirectory;
import io.rdma.srq.ra.management.ActivationView;
import org.jboss.as.controller.PathAddress;
import org.jboss.as.controller.PathElement;
import org.jboss.as.controller.registry.PlaceholderResource;
import org.jboss.as.controller.registry.Resource;
import org.jboss.dmr.ModelNode;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A resource ({@code /subsystem=rdma-srq}, or a deployment's {@code subsystem=rdma-srq}) whose
 * {@code activation=<srqName>} children are read from the adapter each time they are asked for: an MDB
 * deployed or undeployed shows or vanishes at once, with no add or remove operation and no reload.
 * Everything else (the model, other children) is the wrapped resource's.
 */
final class LiveActivations implements Resource {
    private static final String TYPE = ActivationDefinition.PATH.getKey();

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

    private final Resource model;
    private final Scope scope;

    /**
     * @param model the resource's own model and configured children
     * @param scope the activations it shows
     */
    LiveActivations(Resource model, Scope scope) {
        this.model = model;
        this.scope = scope;
    }

    /** @return the activations of this scope by srqName, now (the first of a name when two adapters run one each) */
    private Map<String, ActivationView> activations() {
        Map<String, ActivationView> byName = new LinkedHashMap<>();
        for (ActivationView v : ActivationDirectory.all()) {
            if (v.control() != null && scope.contains(v.control())) {
                byName.putIfAbsent(v.statistics().srqName(), v);
            }
        }
        return byName;
    }

    private ActivationEntry activation(String name) {
        ActivationView v = activations().get(name);
        return v == null ? null : new ActivationEntry(name, v.control());
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
        return TYPE.equals(element.getKey()) ? activation(element.getValue()) != null : model.hasChild(element);
    }

    @Override
    public Resource getChild(PathElement element) {
        return TYPE.equals(element.getKey()) ? activation(element.getValue()) : model.getChild(element);
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
        return TYPE.equals(childType) ? !activations().isEmpty() : model.hasChildren(childType);
    }

    @Override
    public Resource navigate(PathAddress address) {
        return Tools.navigate(this, address);
    }

    @Override
    public Set<String> getChildTypes() {
        Set<String> types = new LinkedHashSet<>(model.getChildTypes());
        types.add(TYPE);
        return types;
    }

    @Override
    public Set<String> getChildrenNames(String childType) {
        return TYPE.equals(childType) ? new LinkedHashSet<>(activations().keySet()) : model.getChildrenNames(childType);
    }

    @Override
    public Set<ResourceEntry> getChildren(String childType) {
        if (!TYPE.equals(childType)) {
            return model.getChildren(childType);
        }
        Set<ResourceEntry> entries = new LinkedHashSet<>();
        activations().forEach((name, v) -> entries.add(new ActivationEntry(name, v.control())));
        return entries;
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

    private static void refuseActivation(PathElement address) {
        if (TYPE.equals(address.getKey())) {
            throw new UnsupportedOperationException("activation resources come and go with their MDBs; none can be added");
        }
    }

    @Override
    public Resource removeChild(PathElement address) {
        return TYPE.equals(address.getKey()) ? null : model.removeChild(address);
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
        return new LiveActivations(model.clone(), scope);
    }

    /** Operations read a shallow copy: still live, still of this scope. */
    @Override
    public Resource shallowCopy() {
        return new LiveActivations(model.shallowCopy(), scope);
    }

    /** One running activation: a runtime resource with no model of its own; its attributes are read live. */
    static final class ActivationEntry extends PlaceholderResource.PlaceholderResourceEntry {
        private final ActivationControl control;

        ActivationEntry(String name, ActivationControl control) {
            super(TYPE, name);
            this.control = control;
        }

        /** @return the activation */
        ActivationControl control() {
            return control;
        }

        /** Immutable: operations that read this resource get it, and so the activation it addresses. */
        @Override
        @SuppressWarnings("MethodDoesntCallSuperMethod")
        public ActivationEntry clone() {
            return this;
        }

        @Override
        public Resource shallowCopy() {
            return this;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ActivationEntry e && e.getPathElement().equals(getPathElement()) && e.control == control;
        }

        @Override
        public int hashCode() {
            return getPathElement().hashCode();
        }
    }
}
