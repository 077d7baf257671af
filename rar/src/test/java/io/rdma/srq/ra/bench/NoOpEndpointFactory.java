package io.rdma.srq.ra.bench;

import io.rdma.srq.api.ReceiveCompletion;
import io.rdma.srq.api.SrqReceiveListener;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;

import javax.transaction.xa.XAResource;
import java.lang.reflect.Method;

/** Endpoints whose onReceive does nothing: what the adapter's own path costs, without the application. */
public final class NoOpEndpointFactory implements MessageEndpointFactory {

    @Override
    public MessageEndpoint createEndpoint(XAResource xa) {
        return new Endpoint();
    }

    @Override
    public MessageEndpoint createEndpoint(XAResource xa, long timeout) {
        return new Endpoint();
    }

    @Override
    public boolean isDeliveryTransacted(Method method) {
        return false;
    }

    @Override
    public String getActivationName() {
        return "NoOp";
    }

    @Override
    public Class<?> getEndpointClass() {
        return Endpoint.class;
    }

    /** A no-op listener. */
    public static final class Endpoint implements MessageEndpoint, SrqReceiveListener {
        @Override
        public void onReceive(ReceiveCompletion c) {
            // nothing: the benchmark measures the adapter
        }

        @Override
        public void beforeDelivery(Method method) {
        }

        @Override
        public void afterDelivery() {
        }

        @Override
        public void release() {
        }
    }
}
