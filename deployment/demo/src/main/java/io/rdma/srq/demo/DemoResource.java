package io.rdma.srq.demo;

import io.rdma.srq.api.SrqConnectionFactory;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * <ul>
 *   <li>GET /api/device: the device, port and SRQ attributes ({@link DeviceInfo});</li>
 *   <li>POST /api/load?messages=100000&amp;connections=8&amp;size=64: starts a run (202), 409 while one
 *       is sending, 400 for a bad value;</li>
 *   <li>POST /api/calls?calls=20000&amp;threads=1&amp;size=64[&amp;to=peer|service|singleton]: the request/reply phase (to=singleton: the
 *       cluster singleton {@code demo-singleton}; to=service:
 *       by the service name {@value RoundTrip#SERVICE} through the cluster's registrar; to=peer:
 *       to the other server's responder over libfabric, run-demo.sh --two-servers): {@code threads}
 *       callers ({@link CallLoop}) each make calls/threads EJB → MDB → EJB round trips
 *       ({@link RoundTrip}); answers {@code key=value} lines: calls, threads, size, elapsedMs,
 *       callsPerSecond, p50Us, p99Us, p999Us, maxUs (HdrHistogram);</li>
 *   <li>GET /api/report: the last run (sent, delivered, limitEvents, elapsedMs, throughput msg/s), the
 *       totals since deployment and the adapter's activation statistics; JSON, or {@code key=value}
 *       lines with {@code Accept: text/plain} (what run-demo.sh reads).</li>
 * </ul>
 */
@Path("/")
@RequestScoped
public class DemoResource {

    @EJB
    DeviceInfo deviceInfo;

    @Inject
    LoadGenerator generator;

    @Inject
    DemoCounters counters;

    @Inject
    SrqConnectionFactory factory;

    @EJB
    CallLoop callLoop;

    @POST
    @Path("calls")
    @Produces(MediaType.TEXT_PLAIN)
    public Response calls(@QueryParam("calls") @DefaultValue("20000") int calls,
                          @QueryParam("threads") @DefaultValue("1") int threads,
                          @QueryParam("size") @DefaultValue("64") int size,
                          @QueryParam("to") @DefaultValue("local") String to) {
        to = java.util.Set.of("peer", "service", "singleton").contains(to) ? to : "local";
        if (calls < 1 || threads < 1 || threads > 8 || size < 1 || size > DemoReceiver.BUFFER_SIZE) {
            return Response.status(Response.Status.BAD_REQUEST).entity("error=calls >= 1, threads 1..8, size 1.."
                    + DemoReceiver.BUFFER_SIZE + "\n").build();
        }
        try {
            long start = System.nanoTime();
            List<java.util.concurrent.Future<org.HdrHistogram.Histogram>> loops = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                loops.add(callLoop.run(calls / threads, size, to));
            }
            org.HdrHistogram.Histogram all = new org.HdrHistogram.Histogram(3);
            for (java.util.concurrent.Future<org.HdrHistogram.Histogram> f : loops) {
                all.add(f.get());
            }
            long elapsedNs = System.nanoTime() - start;
            StringBuilder b = new StringBuilder();
            b.append("calls=").append(all.getTotalCount()).append('\n')
                    .append("to=").append(to).append('\n')
                    .append("threads=").append(threads).append('\n')
                    .append("size=").append(size).append('\n')
                    .append("elapsedMs=").append(elapsedNs / 1_000_000).append('\n')
                    .append("callsPerSecond=").append(all.getTotalCount() * 1_000_000_000L / Math.max(1, elapsedNs)).append('\n')
                    .append("p50Us=").append(micros(all.getValueAtPercentile(50))).append('\n')
                    .append("p99Us=").append(micros(all.getValueAtPercentile(99))).append('\n')
                    .append("p999Us=").append(micros(all.getValueAtPercentile(99.9))).append('\n')
                    .append("maxUs=").append(micros(all.getMaxValue())).append('\n');
            return Response.ok(b.toString()).build();
        } catch (Exception e) {
            return Response.serverError().entity("error=" + e + "\n").build();
        }
    }

    private static String micros(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1000.0);
    }

    @GET
    @Path("device")
    @Produces(MediaType.APPLICATION_JSON)
    public Response device() {
        try {
            return Response.ok(deviceInfo.describe()).build();
        } catch (Exception e) {
            return Response.serverError().entity(Map.of("error", String.valueOf(e))).build();
        }
    }

    @POST
    @Path("load")
    @Produces(MediaType.APPLICATION_JSON)
    public Response load(@QueryParam("messages") @DefaultValue("100000") int messages,
                         @QueryParam("connections") @DefaultValue("8") int connections,
                         @QueryParam("size") @DefaultValue("64") int size) {
        try {
            LoadRun run = generator.start(messages, connections, size);
            return Response.accepted(run.snapshot(counters)).build();
        } catch (IllegalArgumentException e) {
            return Response.status(Response.Status.BAD_REQUEST).entity(Map.of("error", e.getMessage())).build();
        } catch (IllegalStateException e) {
            return Response.status(Response.Status.CONFLICT).entity(Map.of("error", e.getMessage())).build();
        }
    }

    @GET
    @Path("report")
    @Produces("application/json;qs=1")
    public Map<String, Object> report() {
        Map<String, Object> m = new LinkedHashMap<>();
        generator.last().ifPresentOrElse(r -> m.putAll(r.snapshot(counters)), () -> m.put("state", "IDLE"));
        m.put("totalDelivered", counters.delivered());
        m.put("totalBytes", counters.bytes());
        m.put("totalLimitEvents", counters.limitEvents());
        m.put("totalLimitEventsAsync", counters.limitEventsAsync());
        if (counters.lastLimitEvent() != null) {
            m.put("lastLimitEvent", String.valueOf(counters.lastLimitEvent()));
        }
        m.put("adapter", AdapterStatistics.of(factory, DemoReceiver.SRQ_NAME));
        return m;
    }

    @GET
    @Path("report")
    @Produces("text/plain;qs=0.5")
    public String reportText() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Object> e : report().entrySet()) {
            if (e.getValue() instanceof Map<?, ?> nested) {
                nested.forEach((k, v) -> sb.append(e.getKey()).append('.').append(k).append('=').append(v).append('\n'));
            } else if (e.getValue() instanceof List<?> list) {
                sb.append(e.getKey()).append('=').append(list.stream().map(String::valueOf)
                        .collect(Collectors.joining(","))).append('\n');
            } else {
                sb.append(e.getKey()).append('=').append(e.getValue()).append('\n');
            }
        }
        return sb.toString();
    }
}
