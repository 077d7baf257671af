package io.rdma.srq.it.twoservers;

/** Where the two servers' listeners are: what both servers' applications share. */
public final class TwoServers {
    /** The loopback both servers share. */
    public static final String ADDRESS = "127.0.0.1";
    /** The responder's listenPort (not shifted by the server's port offset: the adapter's own listener). */
    public static final int PORT = 7591;
    /** Where the first server's publisher listens for the second server's subscribing activation. */
    public static final int PUBLISHER_PORT = 7596;

    private TwoServers() {
    }
}
