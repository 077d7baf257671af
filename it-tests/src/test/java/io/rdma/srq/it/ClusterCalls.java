package io.rdma.srq.it;

import io.rdma.srq.it.cluster.ClusterCallServlet;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One run of {@link ClusterCallServlet}'s calls by name, as the *Cluster*IT read it: every call
 * counted (ok + failed = issued) and none answered with another's reply, asserted on every run.
 *
 * @param issued     calls issued
 * @param ok         calls answered with their own reply
 * @param failed     calls that ended with an exception
 * @param wrong      calls answered with another call's reply
 * @param nodes      answers per node
 * @param failoverMs from the first failure to the first success after the last failure
 * @param gapMs      the longest time between two successful calls
 * @param first      the first failure
 * @param line       the servlet's line
 */
record ClusterCalls(long issued, long ok, long failed, long wrong, Map<String, Long> nodes, long failoverMs, long gapMs,
                    String first, String line) {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Pattern RESULT = Pattern.compile(
            "issued=(\\d+) ok=(\\d+) failed=(\\d+) wrong=(\\d+) nodes=\\{(.*)} failover_ms=(\\d+) gap_ms=(\\d+) first=(.*)");

    /** {@return the answers from that node} @param node a jboss.node.name */
    long on(String node) {
        return nodes.getOrDefault(node, 0L);
    }

    /**
     * Calls {@code service} by name for {@code ms} milliseconds from the caller deployment at {@code caller}.
     *
     * @param caller  the caller war's URL
     * @param service the service name
     * @param ms      how long
     * @param label   the IT, for the printed line
     * @return the run
     * @throws Exception HTTP failure
     */
    static ClusterCalls run(URL caller, String service, long ms, String label) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(caller + "calls?ms=" + ms + "&service=" + service))
                .timeout(Duration.ofMillis(ms + 60_000)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        Matcher m = RESULT.matcher(r.body().trim());
        assertTrue(m.matches(), r.body());
        Map<String, Long> nodes = new LinkedHashMap<>();
        for (String e : m.group(5).split(", ")) {
            if (!e.isEmpty()) {
                nodes.put(e.substring(0, e.indexOf('=')), Long.parseLong(e.substring(e.indexOf('=') + 1)));
            }
        }
        ClusterCalls c = new ClusterCalls(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                Long.parseLong(m.group(4)), nodes, Long.parseLong(m.group(6)), Long.parseLong(m.group(7)), m.group(8),
                r.body().trim());
        assertEquals(c.issued(), c.ok() + c.failed(), "every call counted: " + c.line());
        assertEquals(0, c.wrong(), "no call answered with another's reply: " + c.line());
        System.out.println(label + ": " + c.line());
        return c;
    }

    /** {@link #run} on another thread. */
    static CompletableFuture<ClusterCalls> inBackground(URL caller, String service, long ms, String label) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return run(caller, service, ms, label);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** SIGKILLs a server JVM found by its jboss.node.name (no kill(1) needed); returns its pid. */
    static long kill(String node) throws Exception {
        ProcessHandle p = ProcessHandle.allProcesses()
                .filter(h -> h.info().commandLine().map(c -> c.contains("-Djboss.node.name=" + node)
                        && c.contains("jboss-modules")).orElse(false))
                .findFirst().orElseThrow(() -> new AssertionError(node + "'s server process not found"));
        assertTrue(p.destroyForcibly(), "SIGKILL sent"); // ProcessHandle.destroyForcibly: kill(pid, SIGKILL) on Linux
        p.onExit().get();
        return p.pid();
    }
}
