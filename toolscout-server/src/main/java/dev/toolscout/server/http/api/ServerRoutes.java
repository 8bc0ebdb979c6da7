package dev.toolscout.server.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.mcp.McpActions;
import dev.toolscout.mcp.ServerRegistry;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.ServerStatus;
import dev.toolscout.server.StdioCommands;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET|POST /v1/servers}, {@code DELETE /v1/servers/{name}} and {@code POST /v1/servers/{name}/disable|enable}:
 * the upstream MCP servers, for admins, as {@code toolscout mcp list|add|remove|disable|enable}. A new server is checked the same way (its name's tool prefix, its
 * command, its URL), connected first, and stored (secrets sealed) only once it answered, unless {@code
 * allow_offline}. A command line (a stdio server runs on this host) is refused unless the server runs with
 * {@code --allow-remote-stdio}. No answer ever holds a header, key or environment value.
 */
final class ServerRoutes implements RouteGroup {
    private static final Set<String> FIELDS = Set.of(
            "name",
            "url",
            "transport",
            "command",
            "args",
            "env",
            "headers",
            "api_key",
            "timeout_seconds",
            "allow_offline",
            "secret_args",
            "secret_headers",
            "secret_env");
    private static final int MAX_ENTRIES = 64;

    private final HttpApi.Options options;

    ServerRoutes(HttpApi.Options options) {
        this.options = options;
    }

    @Override
    public List<Endpoint> routes() {
        return List.of(
                Endpoint.get("/v1/servers", "listServers")
                        .tag("servers")
                        .access(Endpoint.Access.ADMIN)
                        .summary("The upstream MCP servers and their status (toolscout mcp list)")
                        .response(200, "Every server; never a secret", "ServerList")
                        .problem(404, "This server manages no upstream MCP servers")
                        .handle(this::list),
                Endpoint.post("/v1/servers", "addServer")
                        .tag("servers")
                        .access(Endpoint.Access.ADMIN)
                        .summary("Register an upstream MCP server (toolscout mcp add)")
                        .description(
                                "Connects it first and stores it only once it answered (ready or degraded), unless "
                                        + "allow_offline. A command line runs on this host: refused unless serve --allow-remote-stdio.")
                        .request("ServerRequest")
                        .response(201, "Registered; stored", "Server")
                        .problem(403, "A command line, and the server does not run with --allow-remote-stdio")
                        .problem(404, "This server manages no upstream MCP servers")
                        .problem(409, "The name's tool prefix is reserved or taken")
                        .problem(502, "The server did not answer; nothing was stored")
                        .handle(this::add),
                Endpoint.delete("/v1/servers/{name}", "removeServer")
                        .tag("servers")
                        .access(Endpoint.Access.ADMIN)
                        .summary("Remove an upstream MCP server and its tools (toolscout mcp remove)")
                        .pathParam(
                                "name", "The server's name", OpenApi.schema("{\"type\": \"string\", \"minLength\": 1}"))
                        .response(204, "Removed", null, null)
                        .problem(404, "No server of that name is registered")
                        .handle(this::remove),
                Endpoint.post("/v1/servers/{name}/disable", "disableServer")
                        .tag("servers")
                        .access(Endpoint.Access.ADMIN)
                        .summary("Disable an upstream MCP server: disconnect it and take its tools out of the catalog")
                        .description(
                                "The flag is stored: the server stays disabled across restarts until it is enabled. "
                                        + "Idempotent.")
                        .pathParam(
                                "name", "The server's name", OpenApi.schema("{\"type\": \"string\", \"minLength\": 1}"))
                        .response(200, "Disabled", "Server")
                        .problem(404, "No server of that name is registered")
                        .handle(this::disable),
                Endpoint.post("/v1/servers/{name}/enable", "enableServer")
                        .tag("servers")
                        .access(Endpoint.Access.ADMIN)
                        .summary("Enable a disabled upstream MCP server: connect it again")
                        .description(
                                "Waits for the first connect attempt (at most the server's timeout and 5 s). A server "
                                        + "that is not disabled is left as it is.")
                        .pathParam(
                                "name", "The server's name", OpenApi.schema("{\"type\": \"string\", \"minLength\": 1}"))
                        .response(200, "Enabled; its status after the first attempt", "Server")
                        .problem(404, "No server of that name is registered")
                        .problem(409, "Another server took its tool prefix meanwhile; it stays disabled")
                        .handle(this::enable));
    }

    private Reply disable(Call c) {
        String name = c.path("name");
        ServerRegistry r = registry(c);
        return Reply.json(json(r, r.disable(name).orElseThrow(() -> notRegistered(name))));
    }

    private Reply enable(Call c) {
        String name = c.path("name");
        ServerRegistry r = registry(c);
        Duration wait = r.manager()
                .config(name)
                .map(ServerConfig::timeout)
                .orElse(ServerConfig.DEFAULT_TIMEOUT)
                .plusSeconds(5);
        try {
            return Reply.json(json(r, r.enable(name, wait).orElseThrow(() -> notRegistered(name))));
        } catch (IllegalArgumentException e) {
            throw ApiProblem.conflict(e.getMessage());
        }
    }

    private static ApiProblem notRegistered(String name) {
        return ApiProblem.notFound("no MCP server named '" + Fields.shown(name) + "' is registered");
    }

    /** A server as JSON: a disabled one has status {@code disabled}. */
    private static ObjectNode json(ServerRegistry r, ServerStatus s) {
        ObjectNode o = McpActions.statusJson(s, s.tools());
        boolean off = r.isDisabled(s.name());
        if (off) {
            o.put("status", "disabled");
        }
        o.put("disabled", off);
        return o;
    }

    private static ServerRegistry registry(Call c) {
        ServerRegistry r = c.backend().servers();
        if (r == null) {
            throw ApiProblem.notFound("this server manages no upstream MCP servers");
        }
        return r;
    }

    private Reply list(Call c) {
        ServerRegistry r = registry(c);
        List<ServerStatus> all = r.servers();
        ArrayNode arr = JsonNodeFactory.instance.arrayNode();
        all.forEach(s -> arr.add(json(r, s)));
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("count", all.size());
        o.set("servers", arr);
        return Reply.json(o);
    }

    private Reply add(Call c) {
        Fields f = Fields.of(c.json(), "", FIELDS);
        String name = f.text("name", true, ServerConfig.MAX_NAME);
        String url = f.text("url", false, 2048);
        String command = f.text("command", false, 4096);
        if ((url == null) == (command == null)) {
            throw ApiProblem.invalid(
                    url == null ? "url" : "command",
                    "exactly one of url and command",
                    (JsonNode) null,
                    "give url (an http(s) server) or command (a stdio server), exactly one of them");
        }
        String transport = f.oneOf("transport", List.of("http", "sse"), "http");
        if (command != null && f.node("transport") != null) {
            throw ApiProblem.invalid(
                    "transport",
                    "only with url",
                    transport,
                    "transport (http or sse) applies to a url; a command is a stdio server");
        }
        List<String> args = strings(f, "args");
        Map<String, String> env = map(f, "env");
        Map<String, String> headers = map(f, "headers");
        if (command != null && !headers.isEmpty() || url != null && (!env.isEmpty() || !args.isEmpty())) {
            throw ApiProblem.invalid(
                    command != null ? "headers" : !env.isEmpty() ? "env" : "args",
                    "headers with url; args and env with command",
                    (JsonNode) null,
                    "headers apply to a url; args and env to a command");
        }
        String apiKey = f.text("api_key", false, 4096);
        Integer timeout = f.integer("timeout_seconds", 1, (int) ServerConfig.MAX_TIMEOUT.toSeconds());
        boolean allowOffline = f.bool("allow_offline", false);
        ServerRegistry registry = registry(c);
        ServerConfig config;
        if (url != null) {
            URI uri;
            try {
                uri = new URI(url);
            } catch (URISyntaxException e) {
                // not the URI itself: it may hold a password
                throw ApiProblem.invalid(
                        "url", "an http(s) URL", (JsonNode) null, "url is not a valid URI: " + e.getReason());
            }
            config = new ServerConfig(
                    name,
                    transport.equals("sse") ? ServerConfig.Transport.SSE : ServerConfig.Transport.HTTP,
                    null,
                    null,
                    null,
                    null,
                    uri,
                    headers,
                    apiKey,
                    null);
        } else {
            if (!options.allowRemoteStdio()) {
                throw ApiProblem.of(
                        403,
                        "forbidden",
                        "Forbidden",
                        "a command line would start '" + Fields.shown(command)
                                + "' on this host; registering stdio servers over HTTP is off (serve --allow-remote-stdio turns it on, "
                                + "or run `toolscout mcp add` on the host); nothing was stored");
            }
            config = new ServerConfig(
                    name, ServerConfig.Transport.STDIO, command, args, env, null, null, null, apiKey, null);
        }
        if (timeout != null) {
            config = config.withTimeout(Duration.ofSeconds(timeout));
        }
        config = config.withSecretMarks(marks(f));
        String problem = StdioCommands.problem(config);
        if (problem != null) {
            throw ApiProblem.invalid(
                    "command",
                    "a command found on PATH, or an executable file",
                    command,
                    "server '" + config.name() + "': " + problem + "; nothing was stored");
        }
        Duration wait = config.timeout().plusSeconds(5);
        ServerStatus s;
        try {
            s = registry.add(config, wait, allowOffline);
        } catch (IllegalArgumentException e) {
            // the name's tool prefix is reserved (ToolScout's own tools) or another server's
            throw ApiProblem.conflict(e.getMessage());
        }
        if (!ServerRegistry.reachable(s) && !allowOffline) {
            throw ApiProblem.of(
                    502,
                    "upstream-unreachable",
                    "Upstream did not answer",
                    "server '" + s.name() + "' ("
                            + s.transport() + ") did not answer"
                            + (s.state() == ServerStatus.State.CONNECTING ? " within " + wait.toSeconds() + " s" : "")
                            + (s.lastError() == null ? "" : ": " + s.lastError())
                            + "; nothing was stored (allow_offline stores it anyway, to be retried at every start)");
        }
        return Reply.json(201, json(registry, s));
    }

    private Reply remove(Call c) {
        String name = c.path("name");
        if (!registry(c).remove(name)) {
            throw ApiProblem.notFound("no MCP server named '" + Fields.shown(name) + "' is registered");
        }
        return Reply.noContent();
    }

    private static List<String> strings(Fields f, String field) {
        List<JsonNode> items = f.array(field, MAX_ENTRIES);
        for (int i = 0; i < items.size(); i++) {
            if (!items.get(i).isTextual()) {
                throw ApiProblem.invalid(
                        field + "[" + i + "]",
                        "a string",
                        items.get(i),
                        field + "[" + i + "] must be a string, got: " + Fields.kind(items.get(i)));
            }
        }
        return items.stream().map(JsonNode::textValue).toList();
    }

    /** {@code secret_args} (flags, or 0-based positions as integers), {@code secret_headers}, {@code secret_env}. */
    private static ServerConfig.SecretMarks marks(Fields f) {
        List<String> args = new java.util.ArrayList<>();
        List<JsonNode> items = f.array("secret_args", MAX_ENTRIES);
        for (int i = 0; i < items.size(); i++) {
            JsonNode n = items.get(i);
            if (n.isIntegralNumber() && n.intValue() >= 0 && n.intValue() < MAX_ENTRIES) {
                args.add(Integer.toString(n.intValue()));
            } else if (n.isTextual()
                    && n.textValue().startsWith("-")
                    && n.textValue().length() <= 128) {
                args.add(n.textValue());
            } else {
                throw ApiProblem.invalid(
                        "secret_args[" + i + "]",
                        "a flag (--conn) or an argument position (0-63)",
                        n,
                        "secret_args[" + i + "] must be a flag such as \"--conn\" or an argument position 0-63, got: "
                                + Fields.kind(n));
            }
        }
        try {
            return new ServerConfig.SecretMarks(args, strings(f, "secret_headers"), strings(f, "secret_env"));
        } catch (IllegalArgumentException e) {
            throw ApiProblem.invalid("secret_args", "names of 1-128 characters", (JsonNode) null, e.getMessage());
        }
    }

    private static Map<String, String> map(Fields f, String field) {
        JsonNode n = f.node(field);
        Map<String, String> out = new LinkedHashMap<>();
        if (n == null) {
            return out;
        }
        if (!n.isObject() || n.size() > MAX_ENTRIES) {
            throw ApiProblem.invalid(
                    field,
                    "an object of at most " + MAX_ENTRIES + " string values",
                    (JsonNode) null,
                    field + " must be an object of at most " + MAX_ENTRIES + " names to string values, got: "
                            + (n.isObject() ? n.size() + " entries" : Fields.kind(n)));
        }
        for (Map.Entry<String, JsonNode> e : n.properties()) {
            if (!e.getValue().isTextual()) {
                // not the value: it may be a secret
                throw ApiProblem.invalid(
                        field + "." + e.getKey(),
                        "a string",
                        (JsonNode) null,
                        field + "." + Fields.shown(e.getKey()) + " must be a string, got: "
                                + Fields.kind(e.getValue()));
            }
            out.put(e.getKey(), e.getValue().textValue());
        }
        return out;
    }

    @Override
    public Map<String, JsonNode> schemas() {
        return Map.of(
                "ServerRequest", OpenApi.schema("""
            {"type": "object", "required": ["name"], "additionalProperties": false,
             "description": "An upstream MCP server: a url (Streamable HTTP or SSE) or a command (stdio)",
             "properties": {
              "name": {"type": "string", "minLength": 1, "maxLength": 48,
                       "description": "Its tools are named <prefix>__<tool>, the prefix from the name"},
              "url": {"type": "string", "description": "http(s) URL of a Streamable HTTP or SSE server"},
              "transport": {"type": "string", "enum": ["http", "sse"], "default": "http"},
              "command": {"type": "string", "description": "The program of a stdio server (needs --allow-remote-stdio)"},
              "args": {"type": "array", "items": {"type": "string"}, "maxItems": 64},
              "env": {"type": "object", "additionalProperties": {"type": "string"}},
              "headers": {"type": "object", "additionalProperties": {"type": "string"}},
              "api_key": {"type": "string", "description": "Sent as Authorization: Bearer; stored sealed, never shown"},
              "timeout_seconds": {"type": "integer", "minimum": 1, "maximum": 600, "default": 30},
              "allow_offline": {"type": "boolean", "default": false},
              "secret_args": {"type": "array", "maxItems": 64,
                              "description": "Also secret: these flags' values, or the arguments at these positions",
                              "items": {"oneOf": [{"type": "string"},
                                                  {"type": "integer", "minimum": 0, "maximum": 63}]}},
              "secret_headers": {"type": "array", "maxItems": 64, "items": {"type": "string"},
                                 "description": "Also secret: these headers' values"},
              "secret_env": {"type": "array", "maxItems": 64, "items": {"type": "string"},
                             "description": "Also secret: these environment variables' values"}}}"""),
                "Server", OpenApi.schema("""
            {"type": "object", "additionalProperties": false,
             "required": ["name", "prefix", "status", "transport", "endpoint", "tools", "restarts", "since"],
             "properties": {
              "name": {"type": "string"}, "prefix": {"type": "string"},
              "status": {"type": "string",
                         "enum": ["connecting", "ready", "degraded", "down", "stopped", "disabled"]},
              "disabled": {"type": "boolean", "description": "An admin disabled it: not connected, no tools"},
              "transport": {"type": "string"},
              "endpoint": {"type": "string", "description": "URL or command line, secrets shown as ***"},
              "tools": {"type": "integer"}, "restarts": {"type": "integer"},
              "last_error": {"type": "string"}, "since": {"type": "string"}, "next_retry": {"type": "string"}}}"""),
                "ServerList", OpenApi.schema("""
            {"type": "object", "required": ["count", "servers"], "additionalProperties": false,
             "properties": {"count": {"type": "integer"},
                            "servers": {"type": "array", "items": {"$ref": "#/components/schemas/Server"}}}}"""));
    }
}
