package io.rdma.srq.verbs.fabric;

/**
 * A second process for {@link LibfabricTwoProcessesTest}: connects to a tcp listener on 127.0.0.1
 * with private data, sends its messages with remote CQ data, waits for their completions, says
 * {@code SENT n} on stdout, then waits to be killed.
 *
 * <p>Arguments: port, hello (private data), fill byte, count, size.
 */
public final class FabricSenderProcess {
    private FabricSenderProcess() {
    }

    /**
     * Runs the sender.
     *
     * @param args port, hello, fill, count, size
     * @throws InterruptedException when interrupted while it waits to be killed
     */
    public static void main(String[] args) throws InterruptedException {
        int port = Integer.parseInt(args[0]);
        String hello = args[1];
        byte fill = Byte.parseByte(args[2]);
        int count = Integer.parseInt(args[3]);
        int size = Integer.parseInt(args[4]);
        if (!FabricLibrary.load()) {
            System.out.println("NO-LIBFABRIC");
            return;
        }
        FabricTestKit kit = new FabricTestKit();
        FabricTestKit.Client client = kit.new Client(port, hello);
        FabricTestKit.await(client::connected, "FI_CONNECTED");
        System.out.println("CONNECTED " + new String(client.welcome).replace("\0", ""));
        for (int i = 0; i < count; i++) {
            client.send(fill, size, ((long) fill << 32) + i);
        }
        FabricTestKit.await(() -> {
            client.reapSends();
            return client.sendsCompleted == count;
        }, "the sends completed");
        System.out.println("SENT " + count);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE); // killed by the test (SIGKILL), its endpoint never closed
    }
}
