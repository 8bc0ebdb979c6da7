package dev.toolscout.server.http.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.engine.SelectRequest;
import dev.toolscout.mcp.gateway.GatewayAuth;
import jakarta.servlet.http.HttpServlet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP API: the route groups, the OpenAPI document built from them, the metrics, and the engine once it is
 * open. {@link #servlet()} serves it. Before {@link #open} the routes that need the engine answer 503, and
 * {@code /readyz} answers 503 until a first selection after {@link #open} has run (the embedding model loaded,
 * the index searched). Thread-safe.
 *
 * <p>To add a route, add it to a group's {@link RouteGroup#routes()} with its OpenAPI entry (see {@link Endpoint});
 * to add a group, add it to {@link #groups}.
 */
public final class HttpApi {
    private static final Logger LOG = LoggerFactory.getLogger(HttpApi.class);
    /** The document's version: the API's major version is in its paths ({@code /v1}); this counts its revisions. */
    static final String API_VERSION = "1.0";

    /**
     * How the API behaves.
     *
     * @param metricsPublic {@code GET /metrics} without a key (default false: an admin key)
     * @param allowRemoteStdio {@code POST /v1/servers} may register command lines (stdio servers), which run on
     *     this host (default false: http(s) URLs only; {@code serve --allow-remote-stdio})
     * @param runs the most agent runs in progress per key and in all ({@link RunLimits#DEFAULT}; {@code serve
     *     --max-runs-per-principal}, {@code --max-runs})
     */
    public record Options(boolean metricsPublic, boolean allowRemoteStdio, RunLimits runs) {
        public static final Options DEFAULT = new Options(false, false);

        public Options {
            Objects.requireNonNull(runs, "runs");
        }

        /** With the default run limits. */
        public Options(boolean metricsPublic, boolean allowRemoteStdio) {
            this(metricsPublic, allowRemoteStdio, RunLimits.DEFAULT);
        }

        public Options withRuns(RunLimits r) {
            return new Options(metricsPublic, allowRemoteStdio, r);
        }
    }

    private final GatewayAuth auth;
    private final Options options;
    private final ApiMetrics metrics = new ApiMetrics();
    private final List<Endpoint> routes;
    private final byte[] openapi;
    private volatile ApiBackend backend;
    private volatile boolean ready;
    private final List<dev.toolscout.indexing.Indexer> indexers = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The repository {@code serve --git-repo} indexes, searched by {@code POST /v1/git/search}; null for none. */
    private volatile dev.toolscout.git.GitIndexer git;

    public HttpApi(GatewayAuth auth, Options options) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.options = Objects.requireNonNull(options, "options");
        List<Endpoint> all = new ArrayList<>();
        Map<String, JsonNode> schemas = new HashMap<>();
        Set<String> seen = new HashSet<>();
        for (RouteGroup g : groups()) {
            for (Endpoint r : g.routes()) {
                if (!seen.add(r.method() + " " + r.path()) || !seen.add(r.operationId())) {
                    throw new IllegalStateException("route declared twice: " + r.method() + " " + r.path());
                }
                all.add(r);
            }
            g.schemas().forEach((k, v) -> {
                if (schemas.put(k, v) != null) {
                    throw new IllegalStateException("schema declared twice: " + k);
                }
            });
        }
        this.routes = List.copyOf(all);
        try {
            this.openapi = Call.JSON
                    .writerWithDefaultPrettyPrinter()
                    .writeValueAsBytes(OpenApi.document(routes, schemas, API_VERSION));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every group of routes, in the order the document lists their tags. */
    private List<RouteGroup> groups() {
        return List.of(
                new SelectRoutes(metrics),
                new ToolRoutes(),
                new SkillRoutes(),
                new VerbRoutes(),
                new MemoryRoutes(),
                new PolicyRoutes(auth),
                new ServerRoutes(options),
                new AgentRoutes(options.runs()),
                new GitRoutes(() -> git),
                new ConsoleRoutes(this),
                new OpsRoutes(this));
    }

    /**
     * Serves the engine from now on, and warms it: one selection on another thread loads the embedding model and
     * searches the index, after which {@code /readyz} answers 200.
     */
    public void open(ApiBackend b) {
        this.backend = Objects.requireNonNull(b, "backend");
        metrics.catalog(b.scout()::size);
        dev.toolscout.engine.Maintenance m = b.scout().maintenance();
        metrics.engine(m::embeddedCount, m::storeReady);
        m.onReplicaCatchUp(metrics::catchUp);
        addIndexer(m.indexer());
        if (b.servers() != null) {
            metrics.servers(b.servers());
        }
        if (b.agent() != null) {
            metrics.agent(b.agent());
        }
        Thread.ofVirtual().name("api-warm-up").start(() -> {
            try {
                b.scout().select(SelectRequest.of("warm up the embedding model and the search index"));
                ready = true;
            } catch (RuntimeException e) {
                LOG.warn("the first selection failed; /readyz stays 503", e);
            }
        });
    }

    /** Shows {@code indexer}'s queue and lag in {@code /metrics} and {@code /readyz} (the tool indexer is added by open). */
    public void addIndexer(dev.toolscout.indexing.Indexer indexer) {
        indexers.add(indexer);
        metrics.indexer(indexer);
    }

    /**
     * Serves {@code git}'s repository at {@code POST /v1/git/search} (to callers the access policy lets use {@code
     * git__search}), and shows its indexing in {@code /metrics} and {@code /readyz}.
     */
    public void gitRepository(dev.toolscout.git.GitIndexer g) {
        addIndexer(g);
        this.git = Objects.requireNonNull(g, "git");
    }

    /** The indexers shown in {@code /readyz}, in the order added. */
    List<dev.toolscout.indexing.Indexer> indexers() {
        return List.copyOf(indexers);
    }

    /** Whether a selection has run since {@link #open}: the model is loaded and the index open. */
    public boolean ready() {
        return ready;
    }

    /**
     * Whether the engine's store is reachable: always for a data directory's own store; for a replica on a shared
     * (PostgreSQL) store, whether it follows it (else it serves reads from its last state and refuses writes).
     */
    public boolean storeReady() {
        ApiBackend b = backend;
        return b == null || b.scout().maintenance().storeReady();
    }

    public HttpServlet servlet() {
        return new ApiServlet(this);
    }

    /** The OpenAPI 3.1 document, as served at {@code /openapi.json}. */
    public byte[] openApiDocument() {
        return openapi.clone();
    }

    /** The problem document for an error Jetty answers itself, before any route (a request it cannot parse). */
    public static byte[] problemBody(int status, String detail) {
        ApiProblem p = status >= 500
                ? ApiProblem.of(status, "internal", "Internal error", "Internal error")
                : ApiProblem.of(status, "bad-request", "Bad request", detail);
        try {
            return Call.JSON.writeValueAsBytes(p.body(null));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    ApiBackend backend() {
        return backend;
    }

    List<Endpoint> routes() {
        return routes;
    }

    GatewayAuth auth() {
        return auth;
    }

    Options options() {
        return options;
    }

    ApiMetrics metrics() {
        return metrics;
    }

    byte[] openapi() {
        return openapi;
    }
}
