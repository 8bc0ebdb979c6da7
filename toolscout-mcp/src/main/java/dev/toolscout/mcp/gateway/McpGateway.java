package dev.toolscout.mcp.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.access.AccessControl;
import dev.toolscout.approval.Approvals;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.catalog.CatalogEvent;
import dev.toolscout.conversation.Conversations;
import dev.toolscout.discovery.DiscoveryResult;
import dev.toolscout.discovery.DiscoveryTools;
import dev.toolscout.engine.GatewayParts;
import dev.toolscout.engine.SelectRequest;
import dev.toolscout.engine.SelectResult;
import dev.toolscout.engine.ToolCallResult;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.events.EventBus;
import dev.toolscout.execution.ToolCalls;
import dev.toolscout.mcp.McpActions;
import dev.toolscout.memory.MemoryTools;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.Origin;
import dev.toolscout.skills.SkillTools;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ToolScout as an MCP server. Every session starts with a short tool list: the discovery meta-tools, the
 * MCP actions (including the {@code mcp__call_tool} call-through) and the pinned core tools among the
 * upstream tools. The upstream tools that {@code tool_discovery__find} returns are added to that session's
 * list and the session gets {@code notifications/tools/list_changed} (progressive disclosure per session);
 * a client that follows it calls them directly, one that does not uses {@code mcp__call_tool}. Both reach
 * the upstream server.
 *
 * <p>Each request runs as a principal: over HTTP the one its API key maps to (see {@link GatewayAuth}),
 * over stdio the one the gateway was started for. Access control and {@code AiAccess} apply to listing,
 * finding and calling alike; a tool the principal may not see is never listed, and calling it gives the
 * same JSON-RPC error, byte for byte, as calling a missing one ({@link #notFound}). Every {@code tools/call}
 * goes through the call gate the agent loop uses too ({@link ToolCalls#call}): access before the role, the
 * arguments and any approval.
 *
 * <p>Each caller also has a {@link Role}: a reader is offered and runs only tools that read. A tool that needs
 * approval ({@code ai_access: propose}) is held, by default, as a request in the approval queue that someone
 * else entitled to approve decides out of band ({@link Approval#QUEUE}); the caller that asks never approves
 * its own call. A command line (stdio server) is never registered for a remote caller unless the operator
 * allowed it ({@link #allowRemoteStdio}).
 *
 * <p>Only tools the gateway can run are offered: upstream MCP tools and its own. Thread-safe.
 */
public final class McpGateway implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(McpGateway.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Transport context keys set by the HTTP context extractor. */
    static final String CTX_PRINCIPAL = "toolscout.principal";

    static final String CTX_SESSION = "toolscout.session";
    static final String CTX_CALLER = "toolscout.caller";
    private static final String STDIO_SESSION = "stdio";

    private final Catalog catalog;
    private final AccessControl access;
    private final DiscoveryTools discovery;
    private final McpActions actions;
    private final Set<String> coreTools;
    private final Principal localPrincipal;
    private final McpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper());
    /**
     * The largest HTTP request body the gateway reads (4 MiB; HTTP 413 past it): room for an upstream tool's
     * large argument (a file to write), while a find query is capped far lower, at {@code
     * InputLimits.MAX_MESSAGE_CHARS}.
     */
    public static final int MAX_REQUEST_BYTES = dev.toolscout.model.InputLimits.MAX_ARGUMENT_BYTES;
    /** The wire definition of every tool the server holds, and the argument checks against them. */
    private final WireTools wire = new WireTools();
    /** The most sessions whose conversation id is remembered; the least recently active one is forgotten first. */
    public static final int MAX_SESSIONS = 10_000;

    /**
     * The HTTP header that names the conversation a session belongs to (send it on every request, or at least the
     * first): a new session with the id of an earlier one resumes it, its disclosed tools and active skills
     * included. Without it, a session is a conversation of its own, named by its session id.
     */
    public static final String CONVERSATION_HEADER = "X-ToolScout-Conversation";

    static final String CTX_CONVERSATION = "toolscout.conversation";

    /** Per HTTP session, the conversation it belongs to (the header's, or its own id); bounded like the sessions. */
    private final Map<String, String> sessionConversations =
            java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<String, String>(64, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
                    return size() > MAX_SESSIONS;
                }
            });
    /**
     * Per principal and conversation, the tools it was disclosed or its active skills bring, read from the store
     * once per change (tools/list asks for every tool): valid while the conversations' and the skills' change
     * counters are those it was read at. Bounded like the sessions.
     */
    private final Map<String, Extra> extras =
            java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<String, Extra>(64, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Extra> eldest) {
                    return size() > MAX_SESSIONS;
                }
            });

    private record Extra(long conversations, long skills, Set<String> tools) {}

    private final SkillTools skills;
    private final Conversations conversations;
    private volatile String stdioConversation = "stdio-" + java.util.UUID.randomUUID();
    /** Per HTTP session, the threads running its tool calls now, so that a closed session's calls are cancelled. */
    private final Map<String, Set<Thread>> working = new ConcurrentHashMap<>();

    private final Set<String> registered = ConcurrentHashMap.newKeySet();
    private final Object syncLock = new Object();
    private final List<Runnable> closers = new ArrayList<>();
    private volatile McpSyncServer server;
    private volatile Function<String, Boolean> notifier;
    private volatile boolean stdio;
    private volatile Approval approval = Approval.QUEUE;
    private final Approvals queue;
    private volatile boolean allowRemoteStdio;
    private volatile SessionLimits sessionLimits = SessionLimits.DEFAULT;
    private volatile HttpSessions httpSessions;
    /** Finds the memory and index tools as every channel does ({@link ToolScout#ownTool}), to list and call alike. */
    private final ToolScout scout;

    private final GatewayParts parts;
    /** The index tools ({@code git__search}) the server holds: those registered at its start, then as offered. */
    private final Set<String> indexServed = ConcurrentHashMap.newKeySet();

    /**
     * How a {@code PROPOSE} tool or action (a destructive upstream tool, {@code mcp__register_server}) gets
     * approved.
     */
    public enum Approval {
        /**
         * The default: the call is held as a pending request in the approval queue and answered with its id; once
         * an admin other than the requester (or the local operator, {@code toolscout approvals approve ID})
         * approves it, the requester's identical call runs once.
         */
        QUEUE,
        /**
         * Single-user only: ask through an MCP elicitation to the same client. The client that asks is the one
         * asked, so anyone who can call the gateway can approve their own calls; refused with API keys.
         */
        ELICIT,
        /**
         * Single-user only: the client's own confirmation is the approval (Claude Desktop and Claude Code ask the
         * user before every tool call); refused with API keys.
         */
        CLIENT,
        /** Never: PROPOSE tools and actions do not run through the gateway. */
        NEVER
    }

    /** Sets how long HTTP sessions may idle and how many may be open, in all and per key (before httpTransport). */
    public McpGateway sessionLimits(SessionLimits limits) {
        this.sessionLimits = java.util.Objects.requireNonNull(limits, "limits");
        return this;
    }

    /**
     * The filter to put in front of {@link #httpTransport}'s servlet (after authentication and {@link
     * JsonRpcGuard#frames()}): it refuses a new session past the {@link SessionLimits}, answers a request naming
     * another caller's session as one naming no session, and notes each session's requests, so that idle ones
     * are closed.
     */
    public jakarta.servlet.Filter sessionFilter() {
        HttpSessions s = httpSessions;
        if (s == null) {
            throw new IllegalStateException("httpTransport was not created");
        }
        return s;
    }

    /** The HTTP sessions open now (0 before {@link #httpTransport}). */
    public int openSessions() {
        HttpSessions s = httpSessions;
        return s == null ? 0 : s.open();
    }

    /** Sets how PROPOSE tools are approved (before serving). */
    public McpGateway approval(Approval mode) {
        this.approval = mode;
        return this;
    }

    /** The approval queue {@link Approval#QUEUE} files requests in: the {@link ToolScout}'s. */
    public Approvals approvalQueue() {
        return queue;
    }

    /**
     * Whether a remote (HTTP) caller may register a command line as a stdio server, which runs it on this host
     * (off by default; even when on, the registration needs an approval).
     */
    public McpGateway allowRemoteStdio(boolean allow) {
        this.allowRemoteStdio = allow;
        return this;
    }

    /**
     * A gateway over {@code scout}'s catalog, access policy, discovery, skill and memory tools, approval queue and
     * core tools ({@link ToolScout#gatewayParts}), which it shares with every other user of {@code scout}: a tool an
     * upstream server lists is written to {@code scout}'s catalog and ranked by its next selection. Discovery and
     * skills are scoped here to the tools the gateway can run (a skill none of whose tools it can run is not offered);
     * the selector's core tools are pinned into every session's list when they are upstream tools the principal may
     * see. The gateway does not own {@code scout} (closing it is the caller's).
     *
     * @param localPrincipal who a stdio client is, and an HTTP client when no API keys are configured
     */
    public McpGateway(ToolScout scout, McpActions actions, Principal localPrincipal) {
        GatewayParts parts = scout.gatewayParts();
        SkillTools skills = parts.skillTools();
        this.catalog = parts.catalog();
        this.access = parts.access();
        this.discovery = parts.discovery().withSkills(skills).scoped(this::runnable);
        this.skills = skills.scoped(this::runnable);
        this.conversations = skills.conversations();
        this.actions = actions;
        this.coreTools = new LinkedHashSet<>(parts.coreTools());
        this.localPrincipal = localPrincipal;
        this.queue = scout.approvals();
        this.scout = scout;
        this.parts = parts;
        EventBus events = parts.events();
        events.subscribe(this::onCatalogEvents);
    }

    /**
     * Whether the gateway can run this catalog tool: an upstream tool that is not blocked and does not bear one
     * of the gateway's own names (the manager refuses such prefixes; this keeps a catalog that holds one anyway
     * from replacing {@code mcp__call_tool} for every session).
     */
    private boolean runnable(ToolSpec spec) {
        return spec.sourceKind() == SourceKind.MCP && spec.aiAccess() != AiAccess.BLOCKED && !isBase(spec.fullName());
    }

    /**
     * The conversation the stdio client belongs to (before {@link #serveStdio}); by default a new one per run.
     * Giving the id of an earlier run resumes it: its disclosed tools and active skills.
     *
     * @throws IllegalArgumentException when {@code id} is not 1-128 characters of {@code [A-Za-z0-9._:-]}
     */
    public McpGateway conversation(String id) {
        this.stdioConversation = Conversations.checkId(id);
        return this;
    }

    /** Serves one client over stdin/stdout until the input ends. */
    public McpSyncServer serveStdio(InputStream in, OutputStream out) {
        StdioServerTransportProvider provider = new StdioServerTransportProvider(json, in, out);
        stdio = true;
        notifier = session -> {
            provider.notifyClient(session, McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED, null)
                    .block();
            return true;
        };
        McpSyncServer s = build(McpServer.sync(provider));
        server = s;
        return s;
    }

    /**
     * The Streamable HTTP transport, a servlet to mount at {@code /mcp} (behind {@link GatewayAuth}'s
     * filter, which puts the principal on the request).
     */
    public HttpServletStreamableServerTransportProvider httpTransport(String endpoint) {
        HttpServletStreamableServerTransportProvider provider = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(json)
                .mcpEndpoint(endpoint)
                .maxRequestSize(MAX_REQUEST_BYTES)
                .contextExtractor(req -> {
                    Object p = req.getAttribute(GatewayAuth.PRINCIPAL_ATTRIBUTE);
                    String session = req.getHeader("mcp-session-id");
                    Map<String, Object> ctx = new java.util.HashMap<>();
                    ctx.put(CTX_PRINCIPAL, p instanceof Principal pr ? pr : localPrincipal);
                    if (req.getAttribute(GatewayAuth.CALLER_ATTRIBUTE) instanceof Caller c) {
                        ctx.put(CTX_CALLER, c);
                    }
                    if (session != null) {
                        ctx.put(CTX_SESSION, session);
                    }
                    String conversation = req.getHeader(CONVERSATION_HEADER);
                    if (conversation != null) {
                        ctx.put(CTX_CONVERSATION, conversation.strip());
                    }
                    return McpTransportContext.create(ctx);
                })
                .build();
        notifier = session -> {
            provider.notifyClient(session, McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED, null)
                    .block();
            return true;
        };
        // The servlet transport blocks the request's own Jetty thread until the answer is written, so the tool
        // handlers may run on that thread: it saves a hop to Reactor's boundedElastic pool and back on every call
        // (about 0.05 ms of the HTTP hop, docs/BENCHMARKS.md). Never over stdio: there one thread reads every
        // message, and a slow tool would hold up the session's other requests.
        server = build(McpServer.sync(provider).immediateExecution(true));
        HttpSessions sessions = new HttpSessions(provider, sessionLimits, this::sessionClosed);
        httpSessions = sessions;
        closers.add(sessions::close);
        closers.add(provider::closeGracefully);
        return provider;
    }

    private McpSyncServer build(McpServer.SyncSpecification<?> spec) {
        List<McpServerFeatures.SyncToolSpecification> tools = new ArrayList<>();
        for (ToolSpec s : baseTools()) {
            tools.add(new McpServerFeatures.SyncToolSpecification(wire.define(s), this::callBase));
        }
        for (ToolSpec s : upstreamTools()) {
            tools.add(upstreamSpec(s));
            registered.add(s.fullName());
        }
        for (ToolSpec s : parts.indexTools()) {
            indexServed.add(s.fullName());
            tools.add(new McpServerFeatures.SyncToolSpecification(wire.define(s), this::callBase));
        }
        return spec.serverInfo(McpSchema.Implementation.builder("toolscout", "0.1.0")
                        .title("ToolScout gateway")
                        .build())
                .instructions(
                        "ToolScout brokers many MCP servers. Call tool_discovery__find with what you need; the "
                                + "tools it finds are added to your tool list. mcp__call_tool calls any found tool by server and name.")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools(tools)
                .addToolFilter(this::isVisible)
                // the SDK checks arguments before the handler runs, which would tell a denied tool (its schema's
                // errors) from a missing one; the handlers check access first, then the arguments (checkArguments)
                .validateToolInputs(false)
                .build();
    }

    /** The tools every session starts with (before access control). */
    private List<ToolSpec> baseTools() {
        List<ToolSpec> out = new ArrayList<>(DiscoverySpecs.ALL);
        // one definition for every session, so its skill_name names no skills (find and list_all name them)
        out.add(SkillTools.SPEC);
        out.addAll(McpActions.specs());
        out.addAll(MemoryTools.SPECS);
        return out;
    }

    private List<ToolSpec> upstreamTools() {
        List<ToolSpec> out = new ArrayList<>();
        for (CatalogEntry e : catalog.snapshot().entries()) {
            if (runnable(e.spec())) {
                out.add(e.spec());
            }
        }
        return out;
    }

    private boolean isBase(String name) {
        return DiscoverySpecs.isDiscovery(name)
                || McpActions.isAction(name)
                || SkillTools.ACTIVATE.equals(name)
                || MemoryTools.isMemoryTool(name)
                || indexTool(name).isPresent();
    }

    /** The tool of a searchable index registered with the engine ({@code git__search}) by this name, or empty. */
    private Optional<ToolSpec> indexTool(String name) {
        return parts.indexTools().stream()
                .filter(t -> t.fullName().equals(name))
                .findFirst();
    }

    private boolean isVisible(McpTransportContext ctx, McpSchema.Tool tool) {
        Caller c = caller(ctx);
        Principal p = c.principal();
        String name = tool.name();
        if (isBase(name)) {
            // listed when the call gate would run it for this caller: found as tools/call finds it, then access,
            // BLOCKED and the role as the gate judges them; an index's tool once a selection offered it here
            return (indexTool(name).isEmpty() || extra(p, conversation(ctx)).contains(name))
                    && baseTarget(ctx, null, c, name)
                            .filter(own -> own.offeredTo(c.role()))
                            .isPresent();
        }
        ToolSpec spec = catalog.get(name).map(CatalogEntry::spec).orElse(null);
        if (spec == null || !runnable(spec) || !access.allows(p, spec) || !roleMayRun(c, spec)) {
            return false;
        }
        // a skill's own tool (kind skill) is listed through its skill only, never as a core tool on its own
        boolean core = coreTools.contains(name) && spec.sourceKind() != SourceKind.SKILL;
        return core || extra(p, conversation(ctx)).contains(name);
    }

    /**
     * The tools the conversation adds to the core tools: those discovery disclosed to it and those its active
     * skills bring (access and runnability are checked per tool by the caller).
     */
    private Set<String> extra(Principal p, String conversation) {
        if (conversation == null) {
            return Set.of();
        }
        String key = p + "\u0000" + conversation;
        long cv = conversations.changes();
        long sv = skills.skillsVersion();
        Extra e = extras.get(key);
        if (e != null && e.conversations() == cv && e.skills() == sv) {
            return e.tools();
        }
        Set<String> tools = new HashSet<>();
        conversations.get(p, conversation).ifPresent(c -> {
            Set<String> skillTools = new HashSet<>(skills.activeTools(p, c).keySet());
            for (String t : c.disclosedTools()) {
                // a skill's own tool found some other way is still its skill's to disclose
                ToolSpec spec = catalog.get(t).map(CatalogEntry::spec).orElse(null);
                if (spec != null
                        ? spec.sourceKind() != SourceKind.SKILL
                        : indexTool(t).isPresent()) {
                    tools.add(t);
                }
            }
            tools.addAll(skillTools);
        });
        Set<String> frozen = Set.copyOf(tools);
        extras.put(key, new Extra(cv, sv, frozen));
        return frozen;
    }

    /**
     * The conversation a request belongs to: over stdio the run's; over HTTP the one its session was given by the
     * {@link #CONVERSATION_HEADER} header (remembered from the first request that sent it), else the session's
     * own id; {@code null} before the session exists (initialize) or for an id that breaks the rule.
     */
    private String conversation(McpTransportContext ctx) {
        if (stdio) {
            return stdioConversation;
        }
        Object s = ctx == null ? null : ctx.get(CTX_SESSION);
        Object named = ctx == null ? null : ctx.get(CTX_CONVERSATION);
        if (s == null) {
            return null;
        }
        String session = s.toString();
        String id = named != null && Conversations.ID.matcher(named.toString()).matches() ? named.toString() : null;
        if (id != null) {
            sessionConversations.put(session, id);
            return id;
        }
        String known = sessionConversations.get(session);
        if (known != null) {
            return known;
        }
        return Conversations.ID.matcher(session).matches() ? session : null;
    }

    /** The error for a conversation header that breaks the rule, or {@code null}. */
    private static String badConversation(McpTransportContext ctx) {
        Object named = ctx == null ? null : ctx.get(CTX_CONVERSATION);
        if (named == null || Conversations.ID.matcher(named.toString()).matches()) {
            return null;
        }
        try {
            Conversations.checkId(named.toString());
            return null;
        } catch (IllegalArgumentException e) {
            return "the " + CONVERSATION_HEADER + " header is not a conversation id: " + e.getMessage();
        }
    }

    private Principal principal(McpTransportContext ctx) {
        Object p = ctx == null ? null : ctx.get(CTX_PRINCIPAL);
        return p instanceof Principal pr ? pr : localPrincipal;
    }

    /** The caller a request runs as: from its API key over HTTP, else the local user (remote over HTTP). */
    private Caller caller(McpTransportContext ctx) {
        Object c = ctx == null ? null : ctx.get(CTX_CALLER);
        return c instanceof Caller caller ? caller : Caller.local(principal(ctx), !stdio);
    }

    /** A reader runs only tools that read and need no approval. */
    private static boolean roleMayRun(Caller c, ToolSpec spec) {
        return ToolCalls.roleMayRun(c.role(), spec);
    }

    private boolean visible(Principal p, ToolSpec spec) {
        return spec != null && spec.aiAccess() != AiAccess.BLOCKED && access.allows(p, spec);
    }

    private String session(McpSyncServerExchange exchange) {
        return stdio ? STDIO_SESSION : exchange.sessionId();
    }

    /**
     * The answer to {@code tools/call} of a tool that the principal may not see or that does not exist: the
     * MCP SDK's own answer to an unknown tool, byte for byte ({@code McpAsyncServer}'s tools/call handler in
     * SDK 2.1), so the two cannot be told apart. {@code DeniedEqualsMissingSecurityTest} compares the bytes.
     */
    static McpError notFound(String name) {
        return McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS)
                .message("Unknown tool: invalid_tool_name")
                .data("Tool not found: " + name)
                .build();
    }

    /** {@code tools/call} of one of the gateway's own tools: through the call gate, as every call. */
    private McpSchema.CallToolResult callBase(McpSyncServerExchange exchange, McpSchema.CallToolRequest req) {
        Caller c = caller(exchange.transportContext());
        return answer(
                c,
                gated(
                        exchange,
                        c,
                        req.name(),
                        req.arguments(),
                        (p, name) -> baseTarget(exchange.transportContext(), exchange, c, name)));
    }

    /**
     * Runs a call through {@link ToolCalls#call}, the gate the agent loop uses too: access (a denied or BLOCKED tool
     * reads as a missing one), the role, the arguments (the schema), the approval as {@link #approval} says, then
     * the tool.
     */
    private ToolCalls.Outcome<McpSchema.CallToolResult> gated(
            McpSyncServerExchange exchange,
            Caller c,
            String name,
            Object args,
            ToolCalls.Tools<McpSchema.CallToolResult> tools) {
        try {
            return ToolCalls.call(
                    new ToolCalls.Request(
                            c.principal(), c.role(), c.id(), null, name, null, args == null ? Map.of() : args),
                    tools,
                    GatewayApproval.step(approval, queue, exchange));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ToolCalls.Outcome.Failed<>(name + " was not run: the request was cancelled");
        }
    }

    /** A call's outcome on the wire: a missing tool is the SDK's own unknown-tool error ({@link #notFound}). */
    private static McpSchema.CallToolResult answer(Caller c, ToolCalls.Outcome<McpSchema.CallToolResult> outcome) {
        return switch (outcome) {
            case ToolCalls.Outcome.Ran<McpSchema.CallToolResult> r -> {
                if (r.approval() != null) {
                    LOG.info(
                            "{} runs for {} under approval request {} (approved by {})",
                            r.tool().fullName(),
                            c.id(),
                            r.approval().id(),
                            r.approval().decidedBy());
                }
                yield r.result();
            }
            case ToolCalls.Outcome.NotFound<McpSchema.CallToolResult> nf -> throw notFound(nf.tool());
            case ToolCalls.Outcome.InvalidArguments<McpSchema.CallToolResult> ia -> McpActions.error(ia.message());
            case ToolCalls.Outcome.Refused<McpSchema.CallToolResult> rf -> McpActions.error(rf.message());
            case ToolCalls.Outcome.Failed<McpSchema.CallToolResult> f -> McpActions.error(f.message());
            case ToolCalls.Outcome.Held<McpSchema.CallToolResult> h -> {
                String id = h.approval().id();
                if (h.filed()) {
                    // WARN, the CLI's default level: the operator watching the gateway learns there is something to
                    // decide
                    LOG.warn(
                            "approval request {}: {} asks to run {}; decide with `toolscout approvals approve {}` or `deny {}`",
                            id,
                            c.id(),
                            h.tool().fullName(),
                            id,
                            id);
                }
                yield McpActions.error(h.tool().fullName() + " needs approval and was not run. Approval request " + id
                        + " (requested by " + c.id()
                        + ") is pending: someone else entitled to approve must approve it (the "
                        + "gateway's operator runs `toolscout approvals approve " + id
                        + "`). Once it is approved, make this same "
                        + "call again, with the same arguments, and it runs once.");
            }
            case ToolCalls.Outcome.Denied<McpSchema.CallToolResult> d -> McpActions.error(d.message());
        };
    }

    /**
     * The gateway's side of the call gate for its own tools: the one {@code c} may see by {@code name} and what runs
     * it. Access goes by the catalog's definition where it holds one (as listing does); the role and the approval
     * by the definition that runs (a memory tool's built-in one, as {@link ToolScout#ownTool} finds it; the reached
     * tool's for {@code mcp__call_tool}). Listing ({@link #isVisible}) looks its tools up here too, with no {@code
     * exchange}: what it lists and what the gate runs agree.
     */
    private Optional<ToolCalls.Target<McpSchema.CallToolResult>> baseTarget(
            McpTransportContext ctx, McpSyncServerExchange exchange, Caller c, String name) {
        Principal p = c.principal();
        if (SkillTools.ACTIVATE.equals(name)) {
            // offered to a principal that may see a skill the gateway can serve
            if (skills.activateTool(p).isEmpty() || !access.allows(p, SkillTools.SPEC)) {
                return Optional.empty();
            }
            return Optional.of(new ToolCalls.Target<>(
                    SkillTools.SPEC,
                    SkillTools.SPEC,
                    schema(name),
                    (t, args, approved) -> activate(exchange, p, args)));
        }
        if (MemoryTools.isMemoryTool(name) || indexTool(name).isPresent()) {
            // as every channel finds it (ToolScout.ownTool, which listing uses too), with the gateway's schema check:
            // empty for a principal the policy denies it, so it reads as missing
            return scout.ownTool(p, conversation(ctx), name)
                    .map(own -> new ToolCalls.Target<>(
                            own.spec(),
                            own.governs(),
                            schema(name),
                            (t, args, approved) -> remember(exchange, own, t, args, approved)));
        }
        if (McpActions.isAction(name)) {
            ToolSpec own = actions.spec(name);
            if (!access.allows(p, own)) {
                return Optional.empty();
            }
            if (McpActions.CALL.equals(name)) {
                // the tool it calls through is the one that needs a role and an approval, not the call-through itself
                return Optional.of(new ToolCalls.Target<>(
                        own, own, schema(name), (t, args, approved) -> callThrough(exchange, c, map(args))));
            }
            ToolCalls.ArgumentCheck check = McpActions.REGISTER.equals(name) ? register(c, schema(name)) : schema(name);
            return Optional.of(new ToolCalls.Target<>(
                    own,
                    own,
                    check,
                    (t, args, approved) -> working(exchange, () -> actions.call(p, name, map(args), approved))));
        }
        ToolSpec own = catalog.get(name).map(CatalogEntry::spec).orElse(null);
        if (own != null && !access.allows(p, own)) {
            return Optional.empty();
        }
        // a discovery tool; any other name reads as missing, never as a tool run with no access check
        return DiscoverySpecs.ALL.stream()
                .filter(s -> s.fullName().equals(name))
                .findFirst()
                .map(builtIn -> new ToolCalls.Target<>(
                        own != null ? own : builtIn,
                        builtIn,
                        schema(name),
                        (t, args, approved) -> discover(exchange, p, name, args)));
    }

    /** The gateway's side of the call gate for an upstream tool: as the catalog holds it now. */
    private Optional<ToolCalls.Target<McpSchema.CallToolResult>> upstreamTarget(
            McpSyncServerExchange exchange, Principal p, String name) {
        ToolSpec now = catalog.get(name).map(CatalogEntry::spec).orElse(null);
        if (now == null || !runnable(now) || !access.allows(p, now)) {
            return Optional.empty();
        }
        return Optional.of(new ToolCalls.Target<>(
                now,
                now,
                schema(name),
                (t, args, approved) -> working(exchange, () -> actions.callUpstream(p, now, map(args), approved))));
    }

    /** The schema check of a call's arguments, once access has been checked (the SDK would check them first). */
    private ToolCalls.ArgumentCheck schema(String name) {
        return wire.check(name);
    }

    /**
     * {@code mcp__register_server}'s checks after the schema's: a blank name or endpoint is its own argument error,
     * and a command line from a remote caller is refused unless the operator allowed it.
     */
    private ToolCalls.ArgumentCheck register(Caller c, ToolCalls.ArgumentCheck schema) {
        return a -> {
            String problem = schema.problem(a);
            if (problem != null) {
                return problem;
            }
            Map<String, Object> args = map(a);
            Object endpoint = args.get("endpoint");
            Object server = args.get("name");
            if (!(endpoint instanceof String e) || e.isBlank() || !(server instanceof String n) || n.isBlank()) {
                return WireTools.text(
                        actions.call(c.principal(), McpActions.REGISTER, args, false)); // nothing is queued
            }
            if (McpActions.isCommandLine(e) && c.remote() && !allowRemoteStdio) {
                return McpActions.REGISTER + " refused: the endpoint is a command line, which would start '"
                        + e.strip().split("\\s+")[0]
                        + "' on the gateway's host, and this gateway does not let remote clients "
                        + "register commands. Register an http(s) URL instead, or ask the gateway's operator to add the server "
                        + "(`toolscout mcp add NAME -- COMMAND`).";
            }
            return null;
        };
    }

    /** {@code mcp__call_tool}: the tool it reaches goes through the gate in its turn (role, approval). */
    private McpSchema.CallToolResult callThrough(McpSyncServerExchange exchange, Caller c, Map<String, Object> args) {
        Principal p = c.principal();
        ToolSpec target = actions.target(args).filter(t -> visible(p, t)).orElse(null);
        Object params = args.get("params");
        if (target == null || params != null && !(params instanceof Map)) {
            return actions.call(p, McpActions.CALL, args, false); // its own "not found" or argument error
        }
        return answer(
                c,
                gated(
                        exchange,
                        c,
                        target.fullName(),
                        params == null ? Map.of() : params,
                        (who, name) -> Optional.of(new ToolCalls.Target<>(
                                target,
                                (t, a, approved) ->
                                        working(exchange, () -> actions.call(p, McpActions.CALL, args, approved))))));
    }

    private McpSchema.CallToolResult discover(McpSyncServerExchange exchange, Principal p, String name, Object args) {
        DiscoveryResult r = discovery.call(p, name, JSON.valueToTree(args));
        return switch (r) {
            case DiscoveryResult.Error e -> McpActions.error(e.message());
            case DiscoveryResult.Ok ok -> {
                if (DiscoverySpecs.FIND.equals(name)) {
                    disclose(exchange, ok.output(), map(args).get("query"));
                }
                yield McpActions.ok(ok.output());
            }
        };
    }

    /** {@code skills__activate}, past the gate: recorded in the session's conversation; the client told its list changed. */
    private McpSchema.CallToolResult activate(McpSyncServerExchange exchange, Principal p, Object args) {
        String bad = badConversation(exchange.transportContext());
        if (bad != null) {
            return McpActions.error(bad);
        }
        return switch (skills.activate(p, conversation(exchange.transportContext()), JSON.valueToTree(args))) {
            case SkillTools.Result.Error e -> McpActions.error(e.message());
            case SkillTools.Result.Ok ok -> {
                // the skill's tools join this session's list (and any other session of the conversation, on its next
                // list)
                notifyListChanged(exchange);
                yield McpActions.ok(ok.output());
            }
        };
    }

    /** A memory or index tool, past the gate, run by {@code own}'s executor (a memory's scopes are the tool's to check). */
    private McpSchema.CallToolResult remember(
            McpSyncServerExchange exchange,
            ToolCalls.Target<ToolCallResult> own,
            ToolSpec tool,
            Object args,
            boolean approved)
            throws InterruptedException {
        String bad = badConversation(exchange.transportContext());
        if (bad != null) {
            return McpActions.error(bad);
        }
        ToolCallResult r = own.executor().run(tool, args, approved);
        return r.isError() ? McpActions.error(r.error()) : McpActions.ok(r.output());
    }

    private static Map<String, Object> map(Object args) {
        return WireTools.map(args);
    }

    /**
     * Records the found tools in the session's conversation, and the index tool ({@code git__search}) a selection for
     * the caller of the same query offers, and tells the client when its list grew.
     */
    private void disclose(McpSyncServerExchange exchange, JsonNode findOutput, Object query) {
        Principal p = caller(exchange.transportContext()).principal();
        String conversation = conversation(exchange.transportContext());
        if (conversation == null) {
            return;
        }
        Set<String> before = extra(p, conversation);
        List<String> found = new ArrayList<>();
        if (findOutput.path("tools").findValuesAsText("name").stream().anyMatch(n -> !registered.contains(n))) {
            // the catalog's events for tools an upstream just listed may reach this server after find saw them
            onCatalogEvents(List.of());
        }
        for (JsonNode t : findOutput.path("tools")) {
            String name = t.path("name").asText();
            if (registered.contains(name) && !coreTools.contains(name) && !before.contains(name)) {
                found.add(name);
            }
        }
        for (ToolSpec offered : offeredIndexTools(p, query)) {
            if (!before.contains(offered.fullName())) {
                serveIndexTool(offered);
                found.add(offered.fullName());
            }
        }
        if (!found.isEmpty()) {
            conversations.disclose(p, conversation, found);
            notifyListChanged(exchange);
        }
    }

    /** The index tools ({@code git__search}) a selection for {@code p} of {@code query} offers; none without an index. */
    private List<ToolSpec> offeredIndexTools(Principal p, Object query) {
        List<ToolSpec> tools = parts.indexTools();
        if (tools.isEmpty() || !(query instanceof String q) || q.isBlank()) {
            return List.of();
        }
        return scout.select(SelectRequest.of(q).withPrincipal(p)).selected().stream()
                .filter(t -> t.origin() == Origin.OFFERED && tools.contains(t.spec()))
                .map(SelectResult.SelectedTool::spec)
                .toList();
    }

    /** Puts an index tool on the server once: its index may be registered after the server was built. */
    private void serveIndexTool(ToolSpec s) {
        McpSyncServer srv = server;
        if (srv != null && indexServed.add(s.fullName())) {
            srv.addTool(new McpServerFeatures.SyncToolSpecification(wire.define(s), this::callBase));
        }
    }

    private void notifyListChanged(McpSyncServerExchange exchange) {
        Function<String, Boolean> n = notifier;
        if (n != null) {
            try {
                n.apply(exchange.sessionId());
            } catch (RuntimeException e) {
                LOG.debug("could not send tools/list_changed to session {}: {}", session(exchange), e.toString());
            }
        }
    }

    private McpServerFeatures.SyncToolSpecification upstreamSpec(ToolSpec s) {
        BiFunction<McpSyncServerExchange, McpSchema.CallToolRequest, McpSchema.CallToolResult> handler = (ex, req) -> {
            Caller c = caller(ex.transportContext());
            return answer(c, gated(ex, c, req.name(), req.arguments(), (p, name) -> upstreamTarget(ex, p, name)));
        };
        return new McpServerFeatures.SyncToolSpecification(wire.define(s), handler);
    }

    /** Runs a tool call noting its thread under the session, so {@link #sessionClosed} can cancel it. */
    private McpSchema.CallToolResult working(
            McpSyncServerExchange exchange, java.util.function.Supplier<McpSchema.CallToolResult> call) {
        if (stdio) {
            return call.get();
        }
        String session = exchange.sessionId();
        Thread me = Thread.currentThread();
        working.computeIfAbsent(session, k -> ConcurrentHashMap.newKeySet()).add(me);
        try {
            return call.get();
        } finally {
            working.computeIfPresent(session, (k, threads) -> {
                threads.remove(me);
                return threads.isEmpty() ? null : threads;
            });
        }
    }

    /**
     * An HTTP session ended (its client's DELETE, or idle too long): forget what it was shown and cancel
     * its upstream calls in progress, whose answers nobody would read.
     */
    private void sessionClosed(String session) {
        // the conversation stays in the store: a later session may resume it
        sessionConversations.remove(session);
        Set<Thread> threads = working.remove(session);
        if (threads != null) {
            threads.forEach(actions::cancelUpstreamCallOf);
        }
    }

    /** Keeps the server's tools in step with the catalog (upstream servers added, changed or removed). */
    private void onCatalogEvents(List<CatalogEvent> batch) {
        McpSyncServer s = server;
        if (s == null) {
            return;
        }
        synchronized (syncLock) {
            Set<String> want = new HashSet<>();
            Set<String> updatedNames = new HashSet<>();
            for (CatalogEvent ev : batch) {
                if (ev instanceof CatalogEvent.ActionUpdated u) {
                    updatedNames.add(u.after().name());
                }
            }
            boolean changed = false;
            for (ToolSpec spec : upstreamTools()) {
                want.add(spec.fullName());
                boolean updated = updatedNames.contains(spec.fullName());
                if (registered.add(spec.fullName()) || updated) {
                    if (updated) {
                        s.removeTool(spec.fullName());
                    }
                    s.addTool(upstreamSpec(spec));
                    changed = true;
                }
            }
            for (String name : List.copyOf(registered)) {
                if (!want.contains(name)) {
                    s.removeTool(name);
                    registered.remove(name);
                    wire.forget(name);
                    changed = true;
                }
            }
            if (changed) {
                s.notifyToolsListChanged();
            }
        }
    }

    @Override
    public void close() {
        McpSyncServer s = server;
        if (s != null) {
            s.closeGracefully();
        }
        closers.forEach(Runnable::run);
    }
}
