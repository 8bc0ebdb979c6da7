package dev.toolscout.server.http.api;

import dev.toolscout.mcp.ServerRegistry;
import dev.toolscout.mcp.upstream.ServerStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * What {@code GET /metrics} shows, in the Prometheus text format (names as Prometheus sees them):
 *
 * <ul>
 *   <li>{@code toolscout_http_server_requests_seconds} (histogram): every request, by {@code method}, {@code
 *       route} (the template, e.g. {@code /v1/tools/{name}}, or {@code unmatched}) and {@code status};
 *   <li>{@code toolscout_select_seconds} (histogram): the selection itself, inside {@code POST /v1/select};
 *   <li>{@code toolscout_catalog_tools} (gauge): the tools in the catalog, all principals together;
 *   <li>{@code toolscout_texts_embedded} (gauge): the texts this process sent to the embedding model since it
 *       started (0 for a replica that found every vector in the shared store);
 *   <li>{@code toolscout_store_connected} (gauge): 1 while the store is reachable (for a replica: its change feed
 *       is connected), else 0;
 *   <li>{@code toolscout_upstream_servers} (gauge): upstream MCP servers by {@code state} (connecting, ready,
 *       degraded, down, stopped, disabled);
 *   <li>{@code toolscout_index_queue} (gauge): changes waiting to be indexed, by {@code indexer} (e.g. {@code
 *       indexer.tools});
 *   <li>{@code toolscout_index_lag} (gauge): versions durable in the store but not yet searchable, by {@code
 *       indexer} (0 when current);
 *   <li>{@code toolscout_replica_catchup_seconds} (histogram, finer buckets: 0.5 ms to 10 s): for a replica on a
 *       shared store, how it caught up with each catalog change another replica made, by {@code stage}: {@code
 *       delivery}, {@code log_read}, {@code store_read}, {@code queue}, {@code vectors}, {@code index_write}, {@code
 *       refresh} and {@code total} (the writer's append to searchable here; {@link
 *       dev.toolscout.engine.ReplicaCatchUp} says what each holds);
 *   <li>{@code toolscout_replica_catchup_embedded_total} (counter): texts those catch-ups embedded (0 when every
 *       writer stored its vectors);
 *   <li>the JVM's memory, threads, CPU and uptime ({@code jvm_*}, {@code process_*}, {@code system_*}).
 * </ul>
 *
 * Histogram buckets are fixed (1 ms to 10 s), so the series per route stay few. Thread-safe.
 */
public final class ApiMetrics {
    /** The Prometheus text exposition format. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private static final Duration[] BUCKETS = {
        Duration.ofMillis(1),
        Duration.ofMillis(2),
        Duration.ofMillis(5),
        Duration.ofMillis(10),
        Duration.ofMillis(20),
        Duration.ofMillis(50),
        Duration.ofMillis(100),
        Duration.ofMillis(200),
        Duration.ofMillis(500),
        Duration.ofSeconds(1),
        Duration.ofSeconds(2),
        Duration.ofSeconds(5),
        Duration.ofSeconds(10)
    };

    /** A replica's catch-up stages take from under a millisecond to seconds: finer buckets than requests'. */
    private static final Duration[] STAGE_BUCKETS = java.util.stream.DoubleStream.of(
                    0.5, 1, 2, 3, 5, 7.5, 10, 15, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000, 3000,
                    5000, 10000)
            .mapToObj(ms -> Duration.ofNanos((long) (ms * 1_000_000)))
            .toArray(Duration[]::new);

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Timer select;

    ApiMetrics() {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        select = Timer.builder("toolscout.select")
                .description("Time to select the tools for one message")
                .serviceLevelObjectives(BUCKETS)
                .register(registry);
    }

    void request(String method, String route, int status, long nanos) {
        Timer.builder("toolscout.http.server.requests")
                .description("HTTP requests, by route, method and status")
                .tags("method", method, "route", route, "status", Integer.toString(status))
                .serviceLevelObjectives(BUCKETS)
                .register(registry)
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Records one selection's duration. */
    public void select(long nanos) {
        select.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Shows the catalog's size from now on. */
    void catalog(IntSupplier size) {
        Gauge.builder("toolscout.catalog.tools", size::getAsInt)
                .description("Tools in the catalog")
                .register(registry);
    }

    /** Shows how many texts were embedded, and whether the store is reachable, from now on. */
    void engine(java.util.function.LongSupplier embedded, java.util.function.BooleanSupplier storeConnected) {
        Gauge.builder("toolscout.texts.embedded", embedded::getAsLong)
                .description("Texts sent to the embedding model since the process started")
                .register(registry);
        Gauge.builder("toolscout.store.connected", () -> storeConnected.getAsBoolean() ? 1 : 0)
                .description("1 while the store is reachable (a replica's change feed connected), else 0")
                .register(registry);
    }

    /** Records how this replica caught up with another's catalog change, by stage. */
    void catchUp(dev.toolscout.engine.ReplicaCatchUp c) {
        c.stages()
                .forEach((stage, d) -> Timer.builder("toolscout.replica.catchup")
                        .description("A replica's catch-up with another replica's catalog change, by stage")
                        .tag("stage", stage)
                        .serviceLevelObjectives(STAGE_BUCKETS)
                        .register(registry)
                        .record(d));
        registry.counter("toolscout.replica.catchup.embedded").increment(c.embedded());
    }

    /** Shows an indexer's queue length and lag from now on. */
    void indexer(dev.toolscout.indexing.Indexer indexer) {
        Gauge.builder("toolscout.index.queue", indexer, i -> i.status().queued())
                .description("Changes waiting to be indexed")
                .tag("indexer", indexer.name())
                .register(registry);
        Gauge.builder("toolscout.index.lag", indexer, i -> i.status().lag())
                .description("Versions durable in the store but not yet searchable")
                .tag("indexer", indexer.name())
                .register(registry);
    }

    /** Shows the upstream servers' states from now on. */
    void servers(ServerRegistry servers) {
        for (ServerStatus.State s : ServerStatus.State.values()) {
            Gauge.builder(
                            "toolscout.upstream.servers",
                            servers,
                            r -> r.manager().servers().stream()
                                    .filter(x -> x.state() == s)
                                    .count())
                    .description("Upstream MCP servers, by state")
                    .tag("state", s.name().toLowerCase(Locale.ROOT))
                    .register(registry);
        }
        Gauge.builder(
                        "toolscout.upstream.servers",
                        servers,
                        r -> r.servers().stream()
                                .filter(x -> r.isDisabled(x.name()))
                                .count())
                .description("Upstream MCP servers, by state")
                .tag("state", "disabled")
                .register(registry);
    }

    /**
     * Counts the agent loop's usage records from now on: {@code toolscout_agent_requests_total} (by status), {@code
     * toolscout_agent_tool_calls_total} (by origin: selected, discovery, skill, other, meta; the pre-selected share
     * is selected over the others but meta), {@code toolscout_agent_discovery_calls_total} (by found: yes, no),
     * {@code toolscout_agent_not_found_total}, {@code toolscout_agent_approvals_total} (by outcome), {@code
     * toolscout_agent_tokens_total} (by kind: input, output, saved). A paused request is counted when it ends.
     */
    void agent(dev.toolscout.agent.Agent agent) {
        agent.onUsage(r -> {
            if (r.status().equals("awaiting_approval")) {
                return;
            }
            var j = r.json();
            registry.counter("toolscout.agent.requests", "status", r.status()).increment();
            for (var c : j.path("calls")) {
                if (c.path("outcome").asText().equals("not_found")) {
                    registry.counter("toolscout.agent.not.found").increment();
                    continue;
                }
                registry.counter(
                                "toolscout.agent.tool.calls",
                                "origin",
                                c.path("origin").asText())
                        .increment();
                if (c.path("tool").asText().equals("tool_discovery__find")) {
                    registry.counter(
                                    "toolscout.agent.discovery.calls",
                                    "found",
                                    c.path("found").asInt(0) > 0 ? "yes" : "no")
                            .increment();
                }
            }
            for (var a : j.path("approvals")) {
                registry.counter(
                                "toolscout.agent.approvals",
                                "outcome",
                                a.path("outcome").asText())
                        .increment();
            }
            for (String k : new String[] {"input", "output", "saved"}) {
                registry.counter("toolscout.agent.tokens", "kind", k)
                        .increment(j.path("tokens").path(k).asLong());
            }
        });
    }

    String scrape() {
        return registry.scrape();
    }
}
