package io.rdma.srq.demo;

import io.rdma.srq.api.SrqLimitReached;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/**
 * Observes the adapter's {@link SrqLimitReached} CDI events, both synchronous and asynchronous. A
 * singleton EJB so that the ejb3 subsystem's statistics count the calls: jboss-cli shows the number
 * of events as the invocations of {@code onLimit} (see deployment/README.md).
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class LimitEventObserver {
    private static final Logger LOG = Logger.getLogger(LimitEventObserver.class);

    @Inject
    DemoCounters counters;

    /** @param event fired synchronously on the adapter's control thread */
    public void onLimit(@Observes SrqLimitReached event) {
        counters.limitEvent(event);
        LOG.debugf("SRQ limit reached: %s", event);
    }

    /** @param event fired asynchronously */
    public void onLimitAsync(@ObservesAsync SrqLimitReached event) {
        counters.limitEventAsync(event);
    }
}
