package io.rdma.srq.verbs.testing;

import java.text.MessageFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The log lines a test caused: a java.util.logging handler (JBoss Logging's backend in the tests) on
 * one logger and its children, each record as {@code LEVEL message}, parameters filled in. Close it
 * to remove the handler.
 */
public final class LogLines implements AutoCloseable {
    private final Logger logger;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord r) {
            Object[] params = r.getParameters();
            String message = params == null || params.length == 0 ? r.getMessage() : MessageFormat.format(r.getMessage(), params);
            lines.add(r.getLevel() + " " + message);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private LogLines(String loggerName) {
        this.logger = Logger.getLogger(loggerName);
        logger.addHandler(handler);
    }

    /**
     * @param loggerName e.g. {@code io.rdma.srq.ra}
     * @return the capture, started
     */
    public static LogLines capture(String loggerName) {
        return new LogLines(loggerName);
    }

    /** @return the lines so far, oldest first (a live, thread-safe list) */
    public List<String> lines() {
        return lines;
    }

    /** @return the lines that contain {@code text} */
    public List<String> containing(String text) {
        return lines.stream().filter(l -> l.contains(text)).toList();
    }

    /** Forgets the lines so far. */
    public void clear() {
        lines.clear();
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
