package dev.toolscout.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.engine.ToolScout;
import dev.toolscout.git.GitIndexer;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.mcp.gateway.McpGateway;
import dev.toolscout.model.Principal;
import dev.toolscout.server.GitRepositories;
import dev.toolscout.server.ServeProcesses;
import dev.toolscout.server.http.GatewayHttpServer;
import dev.toolscout.testing.LogCapture;
import io.modelcontextprotocol.util.ToolInputValidator;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code git__search} through the MCP gateway, over Streamable HTTP with API keys (raw JSON-RPC, so the exact bytes
 * are compared): listed to a session once a selection for its caller offers it (a find whose query's nearest match is
 * in the repository), run through the call gate, and for a caller the policy denies it, answered byte for byte as a
 * missing tool, before and after the gateway holds it. A real repository made with the git CLI, the real model.
 */
@ResourceLock(LogCapture.LOGGERS)
class GitSearchGatewayTest {
    static final String STAFF_KEY = "staff-key-0123456789abcdef";
    static final String KID_KEY = "kid-key-0123456789abcdefgh";
    static final String ASKED = "Which commit changed the monthly invoice schedule of the billing job?";
    static final String POLICY = "{\"rules\": [{\"effect\": \"deny\", \"source\": \"git\", \"group\": \"kids\"}]}";

    @TempDir
    Path tmp;

    private static SecurityGateway.Raw session(GatewayHttpServer http, String key) throws Exception {
        SecurityGateway.Raw r = new SecurityGateway.Raw(URI.create(http.url()), key, null);
        HttpResponse<String> init = r.post(
                "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                        + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
        assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
        SecurityGateway.Raw s = new SecurityGateway.Raw(
                r.url(), key, init.headers().firstValue("mcp-session-id").orElseThrow());
        assertThat(s.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
                        .statusCode())
                .isEqualTo(202);
        return s;
    }

    private static String list(SecurityGateway.Raw s) throws Exception {
        return s.post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}")
                .body();
    }

    private static String find(SecurityGateway.Raw s, String query) throws Exception {
        return s.call("tool_discovery__find", "{\"query\": \"" + query + "\"}").body();
    }

    /** What a client sees of a call: status, content type and body. */
    private static String seen(SecurityGateway.Raw s, String tool, String args) throws Exception {
        return DeniedEqualsMissingSecurityTest.seen(s.call(tool, args));
    }

    /** The denied caller's calls of git__search read exactly as calls of a tool that does not exist. */
    private static void deniedReadsAsMissing(SecurityGateway.Raw kid) throws Exception {
        for (String args : List.of("{\"query\": \"invoice schedule\"}", "{\"query\": \"x\", \"limit\": 0}", "{}")) {
            String denied = seen(kid, GitIndexer.TOOL, args);
            assertThat(denied)
                    .as(args)
                    .isEqualTo(seen(kid, "git__zzz", args).replace("git__zzz", GitIndexer.TOOL))
                    .contains("Tool not found: git__search")
                    .doesNotContain("billing", "limit");
        }
    }

    @Test
    void git_search_is_listed_when_a_selection_offers_it_runs_through_the_gate_and_reads_as_missing_when_denied()
            throws Exception {
        Path repo = GitRepositories.billing(tmp);
        Path policy = tmp.resolve("policy.json");
        Files.writeString(policy, POLICY);
        McpRuntime opened;
        // the policy denies source git, which exists once the repository is registered: at open, it is said to
        // match nothing yet
        try (LogCapture log = LogCapture.of("dev.toolscout.engine.LocalToolScout")) {
            opened = McpRuntime.open(ToolScout.builder()
                    .preloadModel(false)
                    .dataDir(tmp.resolve("data"))
                    .policyFile(policy));
            assertThat(log.warnings()).containsExactly(policy + ": rules[0].source: 'git' matches no known source");
        }
        try (McpRuntime runtime = opened) {
            runtime.start(List.of(), Duration.ofSeconds(10));
            started(runtime, policy, repo);
        }
    }

    private void started(McpRuntime runtime, Path policy, Path repo) throws Exception {
        try (McpGateway gateway = new McpGateway(runtime.scout(), runtime.actions(), Principal.ANONYMOUS);
                GatewayHttpServer http = GatewayHttpServer.start(
                        gateway,
                        GatewayAuth.of(Map.of(
                                STAFF_KEY, new Principal("ann", "staff", null),
                                KID_KEY, new Principal("tim", "kids", null))),
                        "127.0.0.1",
                        0)) {
            SecurityGateway.Raw kid = session(http, KID_KEY);
            // the repository is followed after the gateway started (the server does not hold the tool yet)
            ToolScout scout = runtime.scout();
            try (GitIndexer git = GitIndexer.open(
                    repo, scout.maintenance().store(), scout.rankingParts().model(), GitIndexer.Limits.DEFAULT)) {
                scout.register(git);
                deniedReadsAsMissing(kid);

                SecurityGateway.Raw staff = session(http, STAFF_KEY);
                assertThat(list(staff)).doesNotContain(GitIndexer.TOOL);
                // a find about something else: no selection offers it
                assertThat(find(staff, "Send an email to Bob about lunch")).doesNotContain("isError\":true");
                assertThat(list(staff)).doesNotContain(GitIndexer.TOOL);
                // a find whose nearest match is in the repository: the selection for ann offers it, so it is listed
                assertThat(find(staff, ASKED)).doesNotContain("isError\":true");
                assertThat(list(staff)).contains("\"name\":\"" + GitIndexer.TOOL + "\"");
                assertThat(list(session(http, STAFF_KEY)))
                        .as("another session, another conversation")
                        .doesNotContain(GitIndexer.TOOL);

                String ran = staff.call(GitIndexer.TOOL, "{\"query\": \"invoice schedule\", \"limit\": 2}")
                        .body();
                assertThat(ran).contains("docs/billing.md").doesNotContain("\"isError\":true");
                // the MCP SDK checks the arguments against the tool's schema, and logs what it refuses
                try (LogCapture validator = LogCapture.of(ToolInputValidator.class)) {
                    assertThat(staff.call(GitIndexer.TOOL, "{\"query\": \"x\", \"limit\": 0}")
                                    .body())
                            .contains("\"isError\":true", "limit");
                    assertThat(validator.warnings())
                            .containsExactly(
                                    "Tool (" + GitIndexer.TOOL + ") input validation failed: Validation failed:"
                                            + " JSON schema validation errors: [/limit: must have a minimum value of 1]");
                }

                // the kid, whom the policy denies source git: the same find lists nothing new, and the tool, which
                // the gateway now holds, still reads as missing
                String kidListBefore = list(kid);
                assertThat(find(kid, ASKED)).doesNotContain(GitIndexer.TOOL);
                assertThat(list(kid)).isEqualTo(kidListBefore).doesNotContain(GitIndexer.TOOL);
                deniedReadsAsMissing(kid);
                deniedReadsAsMissing(session(http, KID_KEY));
            }
        }
    }

    @Test
    void serve_checks_a_policy_file_once_the_git_repository_is_registered() throws Exception {
        Path repo = GitRepositories.billing(tmp);
        Path policy = tmp.resolve("policy.json");
        // source git is known once the repository is followed; the misspelt 'gti' never is
        Files.writeString(
                policy,
                "{\"rules\": [{\"effect\": \"deny\", \"source\": \"git\", \"group\": \"kids\"},"
                        + " {\"effect\": \"deny\", \"source\": \"gti\", \"group\": \"kids\"}]}");
        Path log = tmp.resolve("serve.log");
        Process serve = ServeProcesses.start(
                log,
                ServeProcesses.command(
                        "serve",
                        "--port",
                        "0",
                        "--data-dir",
                        tmp.resolve("data").toString(),
                        "--policy",
                        policy.toString(),
                        "--git-repo",
                        repo.toString()));
        try {
            ServeProcesses.awaitOutput(serve, log, "MCP gateway listening on");
            assertThat(Files.readString(log))
                    .contains(policy + ": rules[1].source: 'gti' matches no known source")
                    .doesNotContain("'git' matches no known source");
        } finally {
            serve.destroy();
            serve.waitFor();
        }
    }
}
