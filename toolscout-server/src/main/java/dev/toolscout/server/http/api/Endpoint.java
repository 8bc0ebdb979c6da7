package dev.toolscout.server.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One route of the HTTP API (a method and a path template) and its OpenAPI operation, declared together so that the
 * handler and the document cannot drift apart (named apart from {@link dev.toolscout.routing.Route}, the route a
 * message takes): {@link OpenApi} builds {@code /openapi.json} from the routes, and the test suite checks
 * every response against it. Adding a route is one builder chain in a {@link RouteGroup}:
 *
 * <pre>{@code
 * Endpoint.post("/v1/select", "select").summary("Select the tools for a message")
 *     .request("SelectRequest").response(200, "The selection", "SelectResult")
 *     .handle(this::select)
 * }</pre>
 *
 * <p>The problems every route can answer are added to its document from what it declares (see {@link
 * OpenApi}): 401 and 403 from its {@link Access}, 400, 413 and 415 for a request body, 400 for parameters, 503
 * for a route that needs the open engine, 500 always. Others (404, 409) are declared with {@link
 * Builder#problem}.
 *
 * @param path a template: literal segments and {@code {name}} segments, e.g. {@code /v1/tools/{name}}
 */
public record Endpoint(
        String method,
        String path,
        Access access,
        boolean needsEngine,
        String operationId,
        String tag,
        String summary,
        String description,
        String requestSchema,
        List<Param> params,
        Map<Integer, Response> responses,
        Handler handler) {

    /** Who may call a route. */
    public enum Access {
        /** Anyone, without a key: liveness, readiness, the API description, the index. */
        PUBLIC,
        /** Any caller with a valid key (reader, user or admin), or the local user when the server has no keys. */
        READ,
        /** A key with the role admin; nobody when the server has no keys. */
        ADMIN,
        /** A key with the role admin; anyone when the server runs with {@code --metrics-public} or without keys. */
        METRICS
    }

    /** Answers one call; throws {@link ApiProblem} for anything but success. */
    @FunctionalInterface
    public interface Handler {
        Reply handle(Call call) throws IOException;
    }

    /**
     * A path or query parameter.
     *
     * @param schema its JSON Schema (OpenAPI 3.1: JSON Schema 2020-12)
     */
    public record Param(String name, String in, boolean required, String description, JsonNode schema) {}

    /**
     * One declared answer.
     *
     * @param contentType {@code application/json}, {@code application/problem+json} or {@code text/plain}
     * @param schema a component schema name, an inline schema, or null for no body
     */
    public record Response(int status, String description, String contentType, Object schema, String streamType) {
        public Response(int status, String description, String contentType, Object schema) {
            this(status, description, contentType, schema, null);
        }
    }

    public Endpoint {
        Objects.requireNonNull(handler, "handler");
        params = List.copyOf(params);
        responses = Map.copyOf(responses);
    }

    /** The path's segments, {@code /v1/tools/{name}} → {@code [v1, tools, {name}]}. */
    List<String> segments() {
        return List.of(path.substring(1).split("/", -1));
    }

    public static Builder get(String path, String operationId) {
        return new Builder("GET", path, operationId);
    }

    public static Builder post(String path, String operationId) {
        return new Builder("POST", path, operationId);
    }

    public static Builder put(String path, String operationId) {
        return new Builder("PUT", path, operationId);
    }

    public static Builder delete(String path, String operationId) {
        return new Builder("DELETE", path, operationId);
    }

    /** Builds a route; the defaults: access READ, needs the engine, no body, no parameters. */
    public static final class Builder {
        private final String method;
        private final String path;
        private final String operationId;
        private Access access = Access.READ;
        private boolean needsEngine = true;
        private String tag = "tools";
        private String summary = "";
        private String description;
        private String requestSchema;
        private final List<Param> params = new ArrayList<>();
        private final Map<Integer, Response> responses = new LinkedHashMap<>();

        private Builder(String method, String path, String operationId) {
            if (!path.startsWith("/")) {
                throw new IllegalArgumentException("a route path starts with /, got: " + path);
            }
            this.method = method;
            this.path = path;
            this.operationId = operationId;
        }

        public Builder access(Access a) {
            this.access = a;
            return this;
        }

        /** A route that answers before the engine is open (health, readiness, the API description). */
        public Builder withoutEngine() {
            this.needsEngine = false;
            return this;
        }

        /** The OpenAPI tag that groups it (default {@code tools}). */
        public Builder tag(String t) {
            this.tag = t;
            return this;
        }

        public Builder summary(String s) {
            this.summary = s;
            return this;
        }

        public Builder description(String d) {
            this.description = d;
            return this;
        }

        /** A JSON request body (required) of this component schema. */
        public Builder request(String schema) {
            this.requestSchema = schema;
            return this;
        }

        public Builder pathParam(String name, String description, JsonNode schema) {
            params.add(new Param(name, "path", true, description, schema));
            return this;
        }

        public Builder query(String name, String description, JsonNode schema) {
            params.add(new Param(name, "query", false, description, schema));
            return this;
        }

        /** A JSON answer of this component schema. */
        public Builder response(int status, String description, String schema) {
            responses.put(status, new Response(status, description, "application/json", schema));
            return this;
        }

        /**
         * An answer of another content type, or with an inline schema, or none (null). Declared again for the same
         * status with another content type, it adds that type (a file of the web console: a script or a style sheet).
         */
        public Builder response(int status, String description, String contentType, Object schema) {
            int key = status;
            while (responses.containsKey(key)
                    && !Objects.equals(responses.get(key).contentType(), contentType)) {
                key += 1000;
            }
            responses.put(key, new Response(status, description, contentType, schema));
            return this;
        }

        /**
         * A JSON answer of this component schema, or, when the client asks {@code Accept: text/event-stream}, the
         * same as server-sent events (a text body).
         */
        public Builder responseOrStream(int status, String description, String schema) {
            responses.put(status, new Response(status, description, "application/json", schema, "text/event-stream"));
            return this;
        }

        /** A problem this route answers besides those added from its access, body and parameters. */
        public Builder problem(int status, String description) {
            responses.put(status, new Response(status, description, Reply.PROBLEM_JSON, OpenApi.PROBLEM));
            return this;
        }

        public Endpoint handle(Handler h) {
            return new Endpoint(
                    method,
                    path,
                    access,
                    needsEngine,
                    operationId,
                    tag,
                    summary,
                    description,
                    requestSchema,
                    params,
                    responses,
                    h);
        }
    }
}
