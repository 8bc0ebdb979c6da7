package dev.toolscout.server.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * What operators and tools call: {@code /healthz} (alive), {@code /readyz} (the engine
 * open and warm), {@code /metrics} (Prometheus) and {@code /openapi.json} (this API). None needs the engine.
 */
final class OpsRoutes implements RouteGroup {
    private final HttpApi api;

    OpsRoutes(HttpApi api) {
        this.api = api;
    }

    @Override
    public List<Endpoint> routes() {
        return List.of(
                Endpoint.get("/healthz", "health")
                        .tag("operations")
                        .access(Endpoint.Access.PUBLIC)
                        .withoutEngine()
                        .summary("Liveness: the process answers")
                        .response(200, "Alive", "Health")
                        .handle(c ->
                                Reply.json(JsonNodeFactory.instance.objectNode().put("status", "alive"))),
                Endpoint.get("/readyz", "ready")
                        .tag("operations")
                        .access(Endpoint.Access.PUBLIC)
                        .withoutEngine()
                        .summary("Readiness: the embedding model and the search index are open, the store reachable")
                        .description(
                                "503 while the engine opens (which includes catching the search index up with the store) and "
                                        + "until a first selection has run, and while a replica cannot reach its shared (PostgreSQL) store: "
                                        + "it then serves reads from its last state and refuses writes (docs/DEPLOYMENT.md). Then 200 with "
                                        + "each indexer's queue, lag (catalog versions durable but not yet searchable) and last error: a lag "
                                        + "during a large upstream sync is normal and does not make the server unready (docs/INDEXING.md).")
                        .response(200, "Ready", "Ready")
                        .problem(503, "Not ready yet")
                        .handle(c -> {
                            if (!api.ready()) {
                                throw ApiProblem.of(
                                                503,
                                                "not-ready",
                                                "Not ready",
                                                api.backend() == null
                                                        ? "the engine is still opening"
                                                        : "the embedding model is still loading")
                                        .withHeader("Retry-After", "2");
                            }
                            if (!api.storeReady()) {
                                throw ApiProblem.of(
                                                503,
                                                "store-unreachable",
                                                "Not ready",
                                                "the shared store cannot be reached: "
                                                        + "reads are served from this replica's last state, writes are refused until it is back")
                                        .withHeader("Retry-After", "2");
                            }
                            ObjectNode body =
                                    JsonNodeFactory.instance.objectNode().put("status", "ready");
                            var list = body.putArray("indexers");
                            for (dev.toolscout.indexing.Indexer i : api.indexers()) {
                                dev.toolscout.indexing.Indexer.Status st = i.status();
                                ObjectNode o = list.addObject()
                                        .put("name", i.name())
                                        .put("queued", st.queued())
                                        .put("lag", st.lag())
                                        .put("indexed_version", st.indexedVersion())
                                        .put("source_version", st.sourceVersion());
                                if (st.lastError() != null) {
                                    // /readyz answers without a key: the error's text (hosts, paths, SQL) stays in the
                                    // server's log
                                    o.put("failing", true);
                                }
                            }
                            return Reply.json(body);
                        }),
                Endpoint.get("/metrics", "metrics")
                        .tag("operations")
                        .access(Endpoint.Access.METRICS)
                        .withoutEngine()
                        .summary("Metrics in the Prometheus text format")
                        .description(
                                "Request counts and latency histograms per route, the selection latency histogram, the "
                                        + "catalog's size, upstream MCP servers by state, and the JVM's. Admin only by default: the "
                                        + "catalog's size counts tools some callers may not see.")
                        .response(
                                200,
                                "Prometheus text format 0.0.4",
                                "text/plain",
                                OpenApi.schema("{\"type\": \"string\"}"))
                        .handle(c -> Reply.text(
                                ApiMetrics.CONTENT_TYPE, api.metrics().scrape())),
                Endpoint.get("/openapi.json", "openapi")
                        .tag("operations")
                        .access(Endpoint.Access.PUBLIC)
                        .withoutEngine()
                        .summary("This API's OpenAPI 3.1 document")
                        .response(
                                200,
                                "The document",
                                "application/json",
                                OpenApi.schema(
                                        "{\"type\": \"object\", \"required\": [\"openapi\", \"info\", \"paths\"]}"))
                        .handle(c -> new Reply(200, Reply.JSON, api.openapi())));
    }

    @Override
    public Map<String, JsonNode> schemas() {
        return Map.of(
                "Health", OpenApi.schema("""
            {"type": "object", "required": ["status"],
             "properties": {"status": {"type": "string", "enum": ["alive", "ready"]}},
             "additionalProperties": false}"""),
                "Ready", OpenApi.schema("""
            {"type": "object", "required": ["status", "indexers"],
             "properties": {"status": {"type": "string", "enum": ["ready"]},
               "indexers": {"type": "array", "items": {"type": "object",
                 "required": ["name", "queued", "lag", "indexed_version", "source_version"],
                 "properties": {"name": {"type": "string"}, "queued": {"type": "integer", "minimum": 0},
                   "lag": {"type": "integer", "minimum": 0}, "indexed_version": {"type": "integer"},
                   "source_version": {"type": "integer"}, "failing": {"type": "boolean"}},
                 "additionalProperties": false}}},
             "additionalProperties": false}"""));
    }
}
