package io.rdma.srq.bench;

/**
 * One throughput measurement.
 *
 * @param label            the case
 * @param senders          sender threads
 * @param messages         messages sent and delivered
 * @param size             bytes per message
 * @param elapsedNanos     first send to the last message's delivery
 * @param sendNanos        first send until every sender returned (SRQ: every message acknowledged)
 * @param meanBacklog      mean of the sampled sent − delivered
 * @param maxBacklog       largest sampled sent − delivered
 * @param backlogAtSendEnd messages not yet delivered when the last sender returned
 */
public record ThroughputResult(String label, int senders, long messages, int size, long elapsedNanos,
                               long sendNanos, long meanBacklog, long maxBacklog, long backlogAtSendEnd) {
    /** @return delivered messages per second, first send to last delivery */
    public long rate() {
        return Math.round(messages * 1e9 / elapsedNanos);
    }

    /** @return sent messages per second while the senders ran */
    public long sendRate() {
        return Math.round(messages * 1e9 / sendNanos);
    }

    /** @return {@code key=value} lines, as the script reads them */
    public String toText() {
        return "case=" + label + "\nsenders=" + senders + "\nmessages=" + messages + "\nsize=" + size
                + "\nelapsedMs=" + elapsedNanos / 1_000_000 + "\nrate=" + rate() + "\nsendMs=" + sendNanos / 1_000_000
                + "\nsendRate=" + sendRate() + "\nmeanBacklog=" + meanBacklog + "\nmaxBacklog=" + maxBacklog + "\nbacklogAtSendEnd=" + backlogAtSendEnd
                + "\n";
    }
}
