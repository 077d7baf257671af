package io.rdma.srq.ra.fabric;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A main of the test sources in a JVM of its own (this JVM's java and class path), for the tests
 * whose peer is another process: its stdout read line by line, its stderr inherited.
 */
final class ChildJvm implements AutoCloseable {
    private final Process process;
    private final BufferedReader out;

    private ChildJvm(Process process) {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
    }

    /**
     * @param main the main class
     * @param args its arguments
     * @return the started JVM
     * @throws IOException when it cannot start
     */
    static ChildJvm start(Class<?> main, String... args) throws IOException {
        String javaCommand = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(javaCommand,
                "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-cp", classPath, main.getName()));
        command.addAll(List.of(args));
        return new ChildJvm(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
    }

    /** {@return a TCP port free on this machine just now} */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /**
     * @param timeout the longest wait
     * @return its next stdout line, or null at its end or after {@code timeout}
     */
    String nextLine(Duration timeout) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                return null;
            }
        }).completeOnTimeout(null, timeout.toMillis(), TimeUnit.MILLISECONDS).get();
    }

    /** SIGKILL: the application sends nothing more, the kernel closes its sockets. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
