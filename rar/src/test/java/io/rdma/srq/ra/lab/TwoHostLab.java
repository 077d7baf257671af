package io.rdma.srq.ra.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The two-host rxe lab as a test on the receiver host sees it: this guest's device and address, and
 * the other guest (the sender host), which runs whatever shell command this side hands it.
 *
 * <p>The two guests share one host directory (the control directory, 9p without caching). This side
 * writes {@code cmd.N} (a bash script, renamed into place); the sender host's agent
 * ({@code it-tests/lab/tests/twohost-suite.sh sender}) runs each new one in the background with its
 * output in {@code out.N}, its process id in {@code pid.N} (a script that ends in {@code exec} makes it
 * the program's own) and its exit code in {@code rc.N}, and stops when {@code stop} appears. The
 * scripts see {@code SEQ_SEND} (the counting sender, {@code tests/twohost/seq_send.c}),
 * {@code LAB_JAVA} and {@code LAB_CP} (the test class path). The agent also starts
 * {@link TwoHostPeerSender} at boot as command {@value #PEER} (a JVM starts slowly under emulation:
 * it warms up while this side starts), which waits for {@code peer.go}. The control path does not
 * use the link under test, so it keeps working while that link is down.
 *
 * @param device  this host's rxe device ({@code -Dverbs.device}, rxe0)
 * @param address this host's address on the link ({@code -Dverbs.listenAddress}, 10.78.0.1)
 * @param netdev  the NIC under the device ({@code -Dlab.twohost.netdev}, eth0)
 * @param peer    the sender host's address ({@code -Dlab.twohost.peer}, 10.78.0.2)
 * @param control the shared control directory ({@code -Dlab.twohost.control})
 */
record TwoHostLab(String device, String address, String netdev, String peer, Path control) {
    /** The skip reason of a two-host test elsewhere (also in the one-host lab). */
    static final String HOW = "needs the two-host rxe lab (two qemu guests on one virtual link): it-tests/lab/run-lab.sh "
            + "runs it after the one-host part (-Dverbs.provider=ibverbs -Dlab.twohost.control=DIR -Dlab.twohost.peer=10.78.0.2)";

    /** The name of the {@link TwoHostPeerSender} command the agent starts at boot. */
    static final String PEER = "peer";

    /** @return the lab; skips the test with {@link #HOW} outside the two-host lab */
    static TwoHostLab get() {
        assumeTrue("ibverbs".equals(System.getProperty("verbs.provider")), HOW);
        String control = System.getProperty("lab.twohost.control");
        String peer = System.getProperty("lab.twohost.peer");
        String device = System.getProperty("verbs.device");
        String address = System.getProperty("verbs.listenAddress");
        assumeTrue(control != null && peer != null && device != null && address != null, HOW);
        assumeTrue(Files.isDirectory(Path.of(control)), HOW + ": no control directory " + control);
        return new TwoHostLab(device, address, System.getProperty("lab.twohost.netdev", "eth0"), peer, Path.of(control));
    }

    /**
     * Hands a command to the sender host.
     *
     * @param script bash, run there from its own file
     * @return its name (its number), for {@link #awaitExit}, {@link #output} and {@link #kill}
     */
    synchronized String start(String script) throws IOException {
        int n = 1;
        while (Files.exists(control.resolve("cmd." + n))) {
            n++;
        }
        Path tmp = control.resolve("cmd." + n + ".tmp");
        Files.writeString(tmp, script + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, control.resolve("cmd." + n), StandardCopyOption.ATOMIC_MOVE);
        return Integer.toString(n);
    }

    /** Lets the waiting {@link TwoHostPeerSender} ({@value #PEER}) send {@code count} messages as {@code sender} to {@code port}. */
    void startPeerSender(int port, long count, int sender) throws IOException {
        Path tmp = control.resolve("peer.go.tmp");
        Files.writeString(tmp, port + " " + count + " " + sender + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, control.resolve("peer.go"), StandardCopyOption.ATOMIC_MOVE);
    }

    /** @return the exit code of command {@code n} once it ended within {@code timeout}; empty if it still runs */
    OptionalInt awaitExit(String n, Duration timeout) throws IOException, InterruptedException {
        Path rc = control.resolve("rc." + n);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Files.exists(rc)) {
            if (System.nanoTime() > deadline) {
                return OptionalInt.empty();
            }
            Thread.sleep(100);
        }
        return OptionalInt.of(Integer.parseInt(Files.readString(rc).trim()));
    }

    /** @return what command {@code n} printed so far (stdout and stderr) */
    String output(String n) throws IOException {
        Path out = control.resolve("out." + n);
        return Files.exists(out) ? Files.readString(out, StandardCharsets.ISO_8859_1) : "";
    }

    /** Sends SIGKILL to command {@code n} (its process id from {@code pid.N}) and waits for it to end. */
    void kill(String n) throws IOException, InterruptedException {
        Path pid = control.resolve("pid." + n);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(pid) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        String k = start("kill -KILL " + Files.readString(pid).trim());
        if (awaitExit(k, Duration.ofSeconds(30)).orElse(-1) != 0) {
            throw new AssertionError("kill of command " + n + " failed: " + output(k));
        }
        if (awaitExit(n, Duration.ofSeconds(30)).isEmpty()) {
            throw new AssertionError("command " + n + " still runs after SIGKILL");
        }
    }

    /** Runs {@code command} on this host (root in the guest); its output goes to the test's. */
    static int here(List<String> command, Duration timeout) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(command + " still running after " + timeout);
        }
        return p.exitValue();
    }

    /** @return the output of {@code command} on this host */
    static String hereOutput(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        return out;
    }
}
