package io.rdma.srq.it;

import io.rdma.srq.it.mdb.TrafficServlet;
import org.jboss.as.arquillian.container.ManagementClient;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client side of {@link TrafficServlet}: the streams of one client-side IT's application, its
 * MDBs' tallies and statistics, read over HTTP.
 */
final class Traffic {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final ManagementClient management;
    private final String app;

    /**
     * @param management the server's client (its web URI)
     * @param app        the application's context root
     */
    Traffic(ManagementClient management, String app) {
        this.management = management;
        this.app = app;
    }

    /**
     * @param name   the MDB's srqName (and tally name)
     * @param port   its listenPort
     * @param marker its payload marker
     * @return the stream's {@code op=start} term
     */
    static String stream(String name, int port, byte marker) {
        return name + ":" + port + ":" + (char) marker;
    }

    /** Starts one sender per stream ({@link #stream} terms). */
    void start(String... streams) throws Exception {
        get("/traffic?op=start&streams=" + String.join(",", streams));
    }

    /** @return messages acknowledged so far, per stream */
    List<Integer> acked() throws Exception {
        return get("/traffic?op=acked").lines().map(Integer::parseInt).toList();
    }

    /** @return messages the MDBs recorded so far, per stream */
    List<Long> delivered() throws Exception {
        return get("/traffic?op=delivered").lines().map(Long::parseLong).toList();
    }

    /** @return the statistics of the running activation with that srqName, or {@code none} */
    String stats(String srqName) throws Exception {
        return get("/traffic?op=stats&name=" + srqName);
    }

    /** @return one report line per stream ({@link io.rdma.srq.it.mdb.StreamSender#report}) once every MDB is idle */
    String stop() throws Exception {
        return get("/traffic?op=stop");
    }

    /**
     * Polls op=acked until every one of {@code streams} streams has {@code more} acknowledged messages
     * beyond {@code base}.
     *
     * @param streams how many streams run
     * @param base    earlier counts, or null for 0
     * @param more    how many more
     * @return the counts now
     */
    List<Integer> awaitAcked(int streams, List<Integer> base, int more) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            List<Integer> now = acked();
            boolean enough = now.size() == streams;
            for (int i = 0; enough && i < streams; i++) {
                enough = now.get(i) >= (base == null ? 0 : base.get(i)) + more;
            }
            if (enough) {
                return now;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("acknowledged so far " + now + ", from " + base + "\n" + stop());
            }
            Thread.sleep(100);
        }
    }

    /**
     * Polls the statistics of an activation until they satisfy {@code until}.
     *
     * @param srqName the activation
     * @param until   the condition on {@link #stats}
     * @param timeout the longest wait
     * @return the statistics then
     */
    String awaitStats(String srqName, Predicate<String> until, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        String s = stats(srqName);
        while (!until.test(s)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("statistics of " + srqName + " never got there: " + s);
            }
            Thread.sleep(50);
            s = stats(srqName);
        }
        return s;
    }

    /** @return the number after {@code key=} in {@code line} (a report or a statistics line) */
    static long number(String line, String key) {
        Matcher m = Pattern.compile("\\b" + key + "=(\\d+)").matcher(line);
        assertTrue(m.find(), key + " in " + line);
        return Long.parseLong(m.group(1));
    }

    /** @return the word after {@code key=} in {@code line} */
    static String word(String line, String key) {
        Matcher m = Pattern.compile("\\b" + key + "=(\\w+)").matcher(line);
        assertTrue(m.find(), key + " in " + line);
        return m.group(1);
    }

    private String get(String path) throws Exception {
        URI uri = URI.create(management.getWebUri() + "/" + app + path);
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(90)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), uri + ": " + r.body());
        return r.body().strip();
    }
}
