package dev.toolscout.server.cli;

import dev.toolscout.access.PolicyCheck;
import dev.toolscout.git.GitIndexer;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.mcp.gateway.McpGateway;
import dev.toolscout.mcp.gateway.SessionLimits;
import dev.toolscout.mcp.upstream.UpstreamLimits;
import dev.toolscout.server.http.GatewayHttpServer;
import dev.toolscout.server.http.api.ApiBackend;
import dev.toolscout.server.http.api.HttpApi;
import dev.toolscout.server.http.api.RunLimits;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code toolscout serve}: the MCP gateway over Streamable HTTP and the HTTP API, on one port. */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        description = "Serve the MCP gateway over Streamable HTTP at http://HOST:PORT/mcp (see docs/MCP.md) and the "
                + "HTTP API at http://HOST:PORT/v1 (see docs/HTTP_API.md).")
final class ServeCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

    @Option(
            names = "--host",
            paramLabel = "HOST",
            defaultValue = GatewayHttpServer.DEFAULT_HOST,
            description = "Interface to bind (default ${DEFAULT-VALUE}: this machine only). Without --api-keys only a "
                    + "loopback address is accepted.")
    String host;

    @Option(
            names = "--port",
            paramLabel = "PORT",
            defaultValue = "" + GatewayHttpServer.DEFAULT_PORT,
            description = "Port (default ${DEFAULT-VALUE}; 0 picks a free one).")
    int port;

    @Option(
            names = "--api-keys",
            paramLabel = "FILE",
            description = "API keys file mapping each key to a user, group, space and role (reader, user or admin; "
                    + "default user); without it every client is the local user given by --user/--group/--space.")
    Path apiKeys;

    @Option(
            names = "--session-idle-timeout",
            paramLabel = "DURATION",
            defaultValue = "30m",
            description = "Close an MCP session that sent no request for this long and free what it holds: a whole "
                    + "number and ms, s, m or h (default ${DEFAULT-VALUE}).")
    String sessionIdleTimeout;

    @Option(
            names = "--max-sessions",
            paramLabel = "N",
            defaultValue = "" + SessionLimits.DEFAULT_MAX_SESSIONS,
            description =
                    "The most MCP sessions open at once; a new one past it gets HTTP 503 (default ${DEFAULT-VALUE}).")
    int maxSessions;

    @Option(
            names = "--max-sessions-per-key",
            paramLabel = "N",
            description = "The most MCP sessions one API key (its user) may hold open at once; one more gets HTTP 429 "
                    + "(default " + SessionLimits.DEFAULT_MAX_SESSIONS_PER_KEY + ", or --max-sessions when less).")
    Integer maxSessionsPerKey;

    @Option(
            names = "--admin-session-reserve",
            paramLabel = "N",
            description =
                    "Of --max-sessions, how many only admin keys may open, so that an operator can always reach a "
                            + "full gateway (default " + SessionLimits.DEFAULT_ADMIN_RESERVE
                            + ", or a twentieth of --max-sessions "
                            + "when less).")
    Integer adminSessionReserve;

    @Option(
            names = "--allowed-hosts",
            paramLabel = "NAME",
            split = ",",
            description = "Host names (or addresses) requests may be addressed to besides this server's own: the Host "
                    + "header must be a loopback address or localhost (with --api-keys: any IP address, localhost or the "
                    + "--host name) or one of these, so that a web page cannot reach the server through DNS rebinding. Give "
                    + "the name clients and a load balancer use, e.g. tools.example.com.")
    java.util.List<String> allowedHosts = new java.util.ArrayList<>();

    @Option(
            names = "--allowed-origins",
            paramLabel = "ORIGIN",
            split = ",",
            description = "Origins (scheme://host[:port]) whose web pages may call this server besides its own, e.g. "
                    + "https://tools.example.com behind a TLS proxy; a request from any other page's Origin gets 403.")
    java.util.List<String> allowedOrigins = new java.util.ArrayList<>();

    @Option(
            names = "--max-upstream-calls",
            paramLabel = "N",
            defaultValue = "" + UpstreamLimits.DEFAULT_MAX_CONCURRENT_CALLS,
            description = "The most tool calls in progress on one upstream MCP server; one more fails at once as busy, "
                    + "so a server that hangs cannot hold every request thread (default ${DEFAULT-VALUE}).")
    int maxUpstreamCalls;

    @Option(
            names = "--max-upstream-calls-total",
            paramLabel = "N",
            defaultValue = "" + UpstreamLimits.DEFAULT_MAX_TOTAL_CALLS,
            description =
                    "The most tool calls in progress on all upstream MCP servers together; one more fails at once "
                            + "as busy, so several hanging servers still leave request threads for everything else "
                            + "(default ${DEFAULT-VALUE}, of the gateway's 64 request threads).")
    int maxUpstreamCallsTotal;

    @Option(
            names = "--max-runs",
            paramLabel = "N",
            defaultValue = "" + RunLimits.DEFAULT_MAX_RUNS,
            description =
                    "The most agent runs (POST /v1/conversations/{id}/messages) in progress at once; one more gets "
                            + "HTTP 429 with Retry-After (default ${DEFAULT-VALUE}). A run holds no request thread while it waits "
                            + "for its model.")
    int maxRuns;

    @Option(
            names = "--max-runs-per-principal",
            paramLabel = "N",
            defaultValue = "" + RunLimits.DEFAULT_MAX_RUNS_PER_PRINCIPAL,
            description = "The most agent runs in progress at once for one principal (the user an API key maps to; the "
                    + "local user without keys); one more gets HTTP 429 with Retry-After (default ${DEFAULT-VALUE}).")
    int maxRunsPerPrincipal;

    @Mixin
    ApprovalOptions approval;

    @Option(
            names = "--allow-remote-stdio",
            description = "Let HTTP clients register command lines (stdio servers) with mcp__register_server, which "
                    + "runs them on this host once approved, and admin keys with POST /v1/servers. Off by default: remote "
                    + "clients may register only http(s) URLs.")
    boolean allowRemoteStdio;

    @Option(
            names = "--metrics-public",
            description =
                    "Answer GET /metrics without an API key, for a scraper on a private network. Off by default with "
                            + "--api-keys: an admin key, since the metrics count tools and servers some callers may not see. Without "
                            + "--api-keys (loopback only) /metrics is always open to the local user.")
    boolean metricsPublic;

    @Option(
            names = "--index-resync",
            paramLabel = "DURATION",
            defaultValue = "1h",
            description =
                    "Catch the search index up with the store this often besides the change events: the safety net "
                            + "(docs/INDEXING.md); a whole number and ms, s, m or h, at least 1s (default ${DEFAULT-VALUE}).")
    String indexResync;

    @Option(
            names = "--git-repo",
            paramLabel = "PATH",
            description =
                    "Follow this git repository's commits and index what changed (commit messages, changed paths, "
                            + "text files of HEAD); its indexing shows in /readyz and /metrics; routes search it too, a selection whose nearest match "
                            + "is in it offers the tool git__search, and POST /v1/git/search and `toolscout git-search` "
                            + "search it, all as the tool git__search under the access policy (docs/INDEXING.md).")
    Path gitRepo;

    @Mixin
    AgentOptions agentOptions;

    @Mixin
    PrincipalOptions who;

    @Mixin
    EngineOptions engine;

    @Mixin
    ServersOptions servers;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        GatewayHttpServer.checkHost(host, apiKeys != null);
        var declared = servers.declared();
        McpGateway.Approval mode = apiKeys == null ? approval.mode() : approval.modeWithKeys();
        SessionLimits sessions = new SessionLimits(
                SessionLimits.parseDuration("--session-idle-timeout", sessionIdleTimeout),
                maxSessions,
                maxSessionsPerKey != null ? maxSessionsPerKey : SessionLimits.defaultPerKey(maxSessions),
                adminSessionReserve != null ? adminSessionReserve : SessionLimits.defaultAdminReserve(maxSessions));
        GatewayHttpServer.checkAllowed(allowedHosts, allowedOrigins);
        UpstreamLimits upstream = UpstreamLimits.DEFAULT
                .withMaxConcurrentCalls(maxUpstreamCalls)
                .withMaxTotalCalls(maxUpstreamCallsTotal);
        GatewayAuth auth = apiKeys == null ? GatewayAuth.local(who.principal()) : GatewayAuth.load(apiKeys);
        HttpApi api = new HttpApi(
                auth,
                new HttpApi.Options(metricsPublic, allowRemoteStdio, new RunLimits(maxRuns, maxRunsPerPrincipal)));
        java.time.Duration resync = SessionLimits.parseDuration("--index-resync", indexResync);
        if (resync.compareTo(java.time.Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("--index-resync must be at least 1s, got: " + indexResync);
        }
        // the policy is checked once the repository is registered, so that a rule on its tool (source git) is known
        try (McpRuntime e = new McpRuntime(EngineOptions.open(
                        engine.options()
                                .withModelPreload()
                                .withIndexResync(resync)
                                .builder()
                                .warnUnmatchedPolicy(false),
                        spec.commandLine().getErr()));
                GitIndexer git = gitRepo == null
                        ? null
                        : GitIndexer.open(
                                        gitRepo,
                                        e.scout().maintenance().store(),
                                        e.scout().rankingParts().model(),
                                        GitIndexer.Limits.DEFAULT)
                                .start()) {
            if (git != null) {
                // the router fans out to it and git__search is the engine's own tool, both under the access policy
                e.scout().register(git);
                api.gitRepository(git);
            }
            if (engine.policy != null) {
                // as the engine logs them at open for every other command (a rule that matches nothing denies nothing)
                for (PolicyCheck.Unmatched u : e.scout().checkPolicy(e.scout().policy(), null, null, null)) {
                    LOG.warn("{}: {}", engine.policy, u.message());
                }
            }
            e.upstreamLimits(upstream);
            servers.start(e, declared, spec.commandLine().getErr(), ServersOptions.Use.GATEWAY);
            try (McpGateway gateway = new McpGateway(e.scout(), e.actions(), who.principal())
                            .approval(mode)
                            .allowRemoteStdio(allowRemoteStdio)
                            .sessionLimits(sessions);
                    GatewayHttpServer http =
                            GatewayHttpServer.start(gateway, auth, host, port, api, allowedHosts, allowedOrigins)) {
                dev.toolscout.agent.Agent agent = null;
                try {
                    agent = dev.toolscout.server.AgentRuntime.agent(
                            e, agentOptions.provider(engine.resolveDataDir()), agentOptions.limits());
                    agent.resumeDecided(); // runs whose approval was decided while the server was down
                } catch (IllegalArgumentException noProvider) {
                    spec.commandLine()
                            .getErr()
                            .println("toolscout: the agent loop is off (POST /v1/conversations/{id}/messages "
                                    + "answers 409): " + noProvider.getMessage());
                }
                api.open(new ApiBackend(e.scout(), e.registry(), agent));
                spec.commandLine()
                        .getErr()
                        .println("toolscout: MCP gateway listening on " + http.url() + ", HTTP API on " + http.baseUrl()
                                + "/v1" + (auth.requiresKey() ? " (API key required)" : ""));
                spec.commandLine().getErr().flush();
                http.join();
            }
        }
        return 0;
    }
}
