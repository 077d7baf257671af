package io.rdma.srq.ra.support;

/**
 * How a call and its reply are numbered in imm_data, both sides of the adapter: a request carries
 * {@link #CALL_BIT} | a 30-bit sequence; the reply echoes it; a reply that also has
 * {@link #NOT_RUN_BIT} says the provider did not run the request (its endpoint refused the delivery
 * before the listener ran — a WildFly MDB that is stopping), so the caller may send it elsewhere.
 */
public final class CallNumbers {
    /** Set in every call's number (and its reply's imm_data). */
    public static final int CALL_BIT = 0x8000_0000;
    /** Set in a reply's imm_data: the request was not run. */
    public static final int NOT_RUN_BIT = 0x4000_0000;
    /** The sequence part of a call's number. */
    public static final int SEQUENCE = 0x3FFF_FFFF;
    /** What the caller's exception says of a request that was not run (errno ECANCELED). */
    public static final String NOT_RUN = "not run: the provider's endpoint refused the delivery before it ran (it is "
            + "stopping); the request may be sent again elsewhere";

    private CallNumbers() {
    }

    /**
     * @param hasImm  whether the message has immediate data
     * @param immData its immediate data
     * @return whether it is a call of this adapter (a reply is expected)
     */
    public static boolean isCall(boolean hasImm, int immData) {
        return hasImm && (immData & CALL_BIT) != 0;
    }
}
