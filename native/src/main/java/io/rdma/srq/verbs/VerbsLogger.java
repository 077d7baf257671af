package io.rdma.srq.verbs;

import org.jboss.logging.BasicLogger;
import org.jboss.logging.Logger;
import org.jboss.logging.annotations.LogMessage;
import org.jboss.logging.annotations.Message;
import org.jboss.logging.annotations.MessageLogger;

import java.lang.invoke.MethodHandles;
import java.util.List;

/**
 * The verbs layer's numbered log messages ({@code SRQVB0001:} …), its own project code so that this
 * module needs nothing of the adapter (whose messages are {@code SRQRA}). jboss-logging-processor
 * writes the implementation at compile time. Ids are never reused or renumbered; 1–99: provider and
 * device choice, the life of native objects.
 */
@MessageLogger(projectCode = "SRQVB", length = 4)
public interface VerbsLogger extends BasicLogger {

    /** The verbs layer's one logger, category {@code io.rdma.srq.verbs}. */
    VerbsLogger LOG = Logger.getMessageLogger(MethodHandles.lookup(), VerbsLogger.class, "io.rdma.srq.verbs");

    /**
     * Provider {@code auto} chose libibverbs.
     *
     * @param devices the device names libibverbs lists (ibv_get_device_list(3))
     */
    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 1, value = "verbs provider auto: ibverbs, libibverbs lists %s")
    void autoChoseIbverbs(List<String> devices);

    /**
     * Provider {@code auto} fell back to the embedded soft device.
     *
     * @param why why ibverbs could not be used
     */
    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 2, value = "verbs provider auto: soft (the embedded soft device: reachable only from this JVM, no "
            + "remote peer can connect), because the kernel has no RDMA device and %s; set provider=soft to choose it "
            + "explicitly")
    void autoChoseSoft(String why);

    /**
     * ibv_dereg_mr(3) failed: the MR's memory is kept, never freed, since the device may still write there.
     *
     * @param mr    the MR
     * @param bytes its length
     */
    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 3, value = "ibv_dereg_mr of %s failed: its %d bytes stay allocated and pinned for the life of the "
            + "process, never freed (the device may still write there)")
    void memoryKeptAfterFailedDeregistration(String mr, long bytes);
}
