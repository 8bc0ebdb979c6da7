package dev.toolscout.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.access.AccessControl;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.mcp.upstream.SecretText;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.ServerStatus;
import dev.toolscout.mcp.upstream.UpstreamException;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.Principal;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The seed's MCP integration: {@code mcp__register_server} (proposed for approval), {@code
 * mcp__list_servers} (never shows a secret) and {@code mcp__call_tool}. Every action runs under the access
 * policy and {@link AiAccess}: a tool the principal may not see, or a {@code BLOCKED} one, is "not found",
 * exactly like a missing one; a {@code PROPOSE} tool runs only when the caller says the approval was given.
 * Results and errors are MCP tool results, errors flagged so the model can act on them. Thread-safe.
 */
public final class McpActions {
    public static final String SOURCE = "mcp";
    public static final String REGISTER = "mcp__register_server";
    public static final String LIST = "mcp__list_servers";
    public static final String CALL = "mcp__call_tool";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ServerRegistry registry;
    private final Catalog catalog;
    private final AccessControl access;
    private final Duration registerWait;

    public McpActions(ServerRegistry registry, Catalog catalog, AccessControl access, Duration registerWait) {
        this.registry = registry;
        this.catalog = catalog;
        this.access = access;
        this.registerWait = registerWait;
    }

    private static final List<ToolSpec> SPECS = buildSpecs();

    /** The catalog tools of the {@code mcp} integration. */
    public static List<ToolSpec> specs() {
        return SPECS;
    }

    private static List<ToolSpec> buildSpecs() {
        return List.of(
                ToolSpec.builder(
                                REGISTER,
                                "Register a new MCP (Model Context Protocol) server, local or remote, so its "
                                        + "tools become available. Needs the user's approval.")
                        .category("mcp")
                        .tags(List.of("mcp", "server", "install", "connect"))
                        .parameters(schema("""
                {"type":"object","properties":{
                 "name":{"type":"string","description":"Display name for this MCP server (e.g. 'Web Research')"},
                 "endpoint":{"type":"string","description":"Server endpoint: an http(s) URL for a remote server, or the command line that starts a local one"},
                 "api_key":{"type":"string","description":"Optional API key if the server requires authentication"}},
                 "required":["name","endpoint"]}"""))
                        .aiAccess(AiAccess.PROPOSE)
                        .sideEffect(SideEffect.WRITE)
                        .build(),
                ToolSpec.builder(
                                LIST,
                                "List all registered MCP servers: their status, transport, endpoint and tool count.")
                        .category("mcp")
                        .tags(List.of("mcp", "servers", "status"))
                        .parameters(schema("{\"type\":\"object\",\"properties\":{}}"))
                        .aiAccess(AiAccess.EXECUTE)
                        .sideEffect(SideEffect.READ)
                        .build(),
                ToolSpec.builder(CALL, "Call a tool provided by a registered MCP server, by server name and tool name.")
                        .category("mcp")
                        .tags(List.of("mcp", "call", "tool"))
                        .parameters(schema("""
                {"type":"object","properties":{
                 "server_name":{"type":"string","description":"Name of the MCP server"},
                 "tool_name":{"type":"string","description":"Tool name on that server"},
                 "params":{"type":"object","description":"Tool parameters"}},
                 "required":["server_name","tool_name"]}"""))
                        .aiAccess(AiAccess.EXECUTE)
                        .sideEffect(SideEffect.READ)
                        .build());
    }

    private static ObjectNode schema(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether {@code name} is one of these actions. */
    public static boolean isAction(String name) {
        return REGISTER.equals(name) || LIST.equals(name) || CALL.equals(name);
    }

    /**
     * Runs an action.
     *
     * @param approved whether the user approved this call (a {@code PROPOSE} action or tool needs it)
     */
    public McpSchema.CallToolResult call(
            Principal principal, String action, Map<String, Object> args, boolean approved) {
        Map<String, Object> a = args == null ? Map.of() : args;
        ToolSpec spec = spec(action);
        if (spec == null || !visible(principal, spec)) {
            return error("Tool not found: " + action);
        }
        try {
            return switch (action) {
                case REGISTER -> register(a, approved);
                case LIST -> listServers(principal);
                case CALL -> callTool(principal, a, approved);
                default -> error("Tool not found: " + action);
            };
        } catch (UpstreamException e) {
            return error(e.getMessage());
        } catch (IllegalArgumentException e) {
            return error(e.getMessage());
        }
    }

    /**
     * The definition an action runs under: the catalog's when it holds one (so its access settings apply),
     * else the built-in one; {@code null} for a name that is not an action.
     */
    public ToolSpec spec(String action) {
        // never an upstream's tool of that name: the prefix is reserved, and an MCP tool must not set the rules
        Optional<CatalogEntry> e = catalog.get(action).filter(x -> x.spec().sourceKind() != SourceKind.MCP);
        if (e.isPresent()) {
            return e.get().spec();
        }
        for (ToolSpec s : SPECS) {
            if (s.fullName().equals(action)) {
                return s;
            }
        }
        return null;
    }

    private boolean visible(Principal principal, ToolSpec spec) {
        return spec.aiAccess() != AiAccess.BLOCKED && access.allows(principal, spec);
    }

    private McpSchema.CallToolResult register(Map<String, Object> a, boolean approved) {
        String name = string(a, "name");
        String endpoint = string(a, "endpoint");
        if (name == null || endpoint == null) {
            return error("name and endpoint are required, e.g. {\"name\": \"Web Research\", \"endpoint\": "
                    + "\"https://mcp.example.com/mcp\"}");
        }
        if (!approved) {
            return error(REGISTER + " needs the user's approval (ai_access: propose). Ask the user; once approved, "
                    + "register it with `toolscout mcp add " + shellWord(name) + " " + shellWord(shown(endpoint))
                    + "` or add it to the --servers file.");
        }
        ServerConfig config = !isCommandLine(endpoint)
                ? ServerConfig.http(name, URI.create(endpoint))
                : ServerConfig.stdio(name, first(endpoint), rest(endpoint));
        config = config.withApiKey(string(a, "api_key"));
        ServerStatus s = registry.add(config, registerWait);
        ObjectNode out = statusJson(s, s.tools());
        return ok(out);
    }

    /** Whether a {@code mcp__register_server} endpoint is a command line (run here) rather than an http(s) URL. */
    public static boolean isCommandLine(String endpoint) {
        String e = endpoint.strip();
        return !(e.startsWith("http://") || e.startsWith("https://"));
    }

    /**
     * The upstream tool a {@code mcp__call_tool} call names, if there is one. Whether the principal may see it
     * is for the caller to check.
     */
    public Optional<ToolSpec> target(Map<String, Object> args) {
        String server = args == null ? null : string(args, "server_name");
        String tool = args == null ? null : string(args, "tool_name");
        return server == null || tool == null
                ? Optional.empty()
                : registry.manager().toolOf(server, tool);
    }

    /** An endpoint as given, its secrets (a password in the URL, a token argument) redacted. */
    private static String shown(String endpoint) {
        return !isCommandLine(endpoint)
                ? SecretText.urlText(endpoint.strip())
                : first(endpoint)
                        + (rest(endpoint).isEmpty()
                                ? ""
                                : " "
                                        + String.join(
                                                " ",
                                                SecretText.args(
                                                        first(endpoint),
                                                        rest(endpoint),
                                                        ServerConfig.SecretMarks.NONE)));
    }

    private static String shellWord(String s) {
        return s.matches("[A-Za-z0-9_./:@-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }

    private static String first(String commandLine) {
        return commandLine.strip().split("\\s+")[0];
    }

    private static List<String> rest(String commandLine) {
        String[] parts = commandLine.strip().split("\\s+");
        return Arrays.asList(parts).subList(1, parts.length);
    }

    private McpSchema.CallToolResult listServers(Principal principal) {
        // one pass over the catalog: per server prefix, its tools and those the principal may see
        Map<String, int[]> counts = new java.util.HashMap<>();
        for (CatalogEntry e : catalog.snapshot().entries()) {
            if (e.spec().sourceKind() == SourceKind.MCP) {
                int[] c = counts.computeIfAbsent(e.spec().name().source(), k -> new int[2]);
                c[0]++;
                if (visible(principal, e.spec())) {
                    c[1]++;
                }
            }
        }
        ArrayNode servers = JSON.createArrayNode();
        for (ServerStatus s : registry.manager().servers()) {
            int[] c = counts.getOrDefault(s.prefix(), new int[2]);
            int total = c[0];
            int visible = c[1];
            if (total > 0 && visible == 0) {
                continue; // every tool of it is hidden from this principal, so is the server
            }
            servers.add(statusJson(s, visible));
        }
        ObjectNode out = JSON.createObjectNode();
        out.put("count", servers.size());
        out.set("servers", servers);
        return ok(out);
    }

    /** A server's status as JSON: no headers, keys or environment values, ever. */
    public static ObjectNode statusJson(ServerStatus s, int tools) {
        ObjectNode o = JSON.createObjectNode();
        o.put("name", s.name());
        o.put("prefix", s.prefix());
        o.put("status", s.state().name().toLowerCase(Locale.ROOT));
        o.put("transport", s.transport());
        o.put("endpoint", s.endpoint());
        o.put("tools", tools);
        o.put("restarts", s.restarts());
        if (s.lastError() != null) {
            o.put("last_error", s.lastError());
        }
        o.put("since", s.since().toString());
        if (s.nextRetry() != null) {
            o.put("next_retry", s.nextRetry().toString());
        }
        return o;
    }

    /**
     * The upstream tool an {@code mcp__call_tool} call with {@code args} names, when {@code principal} may see it;
     * empty when the arguments name none (the call then answers its own error).
     */
    public Optional<ToolSpec> callTarget(Principal principal, Map<String, Object> args) {
        Map<String, Object> a = args == null ? Map.of() : args;
        String server = string(a, "server_name");
        String tool = string(a, "tool_name");
        if (server == null || tool == null) {
            return Optional.empty();
        }
        return registry.manager().toolOf(server, tool).filter(spec -> visible(principal, spec));
    }

    private McpSchema.CallToolResult callTool(Principal principal, Map<String, Object> a, boolean approved) {
        String server = string(a, "server_name");
        String tool = string(a, "tool_name");
        if (server == null || tool == null) {
            return error("server_name and tool_name are required, e.g. {\"server_name\": \"memory\", \"tool_name\": "
                    + "\"read_graph\", \"params\": {}}");
        }
        Object params = a.get("params");
        if (params != null && !(params instanceof Map)) {
            return error("params must be an object, got: " + JSON.valueToTree(params));
        }
        ToolSpec spec = registry.manager().toolOf(server, tool).orElse(null);
        if (spec == null || !visible(principal, spec)) {
            return error("Tool not found: " + server + "/" + tool);
        }
        return callUpstream(principal, spec, cast(params), approved);
    }

    /**
     * Calls an upstream catalog tool the caller has already checked the principal may see; a {@code PROPOSE}
     * tool runs only with {@code approved}. The principal holds at most its share of the server's call slots
     * ({@code UpstreamLimits.maxCallsPerPrincipal}).
     */
    public McpSchema.CallToolResult callUpstream(
            Principal principal, ToolSpec spec, Map<String, Object> params, boolean approved) {
        if (spec.aiAccess() == AiAccess.PROPOSE && !approved) {
            return error(
                    spec.fullName() + " needs the user's approval before it runs (ai_access: propose, "
                            + "side_effect: " + spec.sideEffect().name().toLowerCase(Locale.ROOT)
                            + "), and none was given: the "
                            + "client declined or does not support approval requests (MCP elicitation). See docs/MCP.md, Approvals.");
        }
        try {
            return registry.manager().callCatalogTool(spec.fullName(), params == null ? Map.of() : params, principal);
        } catch (UpstreamException e) {
            return error(e.getMessage());
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Object params) {
        return params == null ? Map.of() : (Map<String, Object>) params;
    }

    private static String string(Map<String, Object> a, String key) {
        Object v = a.get(key);
        return v instanceof String s && !s.isBlank() ? s.strip() : null;
    }

    /** Cancels the upstream call {@code caller} is waiting for, if any (its client's session ended). */
    public boolean cancelUpstreamCallOf(Thread caller) {
        return registry.manager().cancelCallOf(caller);
    }

    /** A successful tool result carrying {@code out} as JSON text (the gateway's results too). */
    public static McpSchema.CallToolResult ok(JsonNode out) {
        return McpSchema.CallToolResult.builder()
                .addTextContent(out.toString())
                .isError(false)
                .build();
    }

    /** A tool error result carrying {@code message} (the gateway's errors too). */
    public static McpSchema.CallToolResult error(String message) {
        return McpSchema.CallToolResult.builder()
                .addTextContent(message)
                .isError(true)
                .build();
    }
}
