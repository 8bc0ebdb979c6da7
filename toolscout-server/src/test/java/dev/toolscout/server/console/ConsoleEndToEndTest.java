package dev.toolscout.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.agent.FakeProvider;
import dev.toolscout.server.cli.ToolScoutCli;
import dev.toolscout.server.mcp.NodeClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web console end to end, as a person uses it: a real {@code toolscout serve} in its own process (API keys
 * for an admin, a user and a reader; a policy denying the reader's group the gmail source; two real MCP servers
 * from npm over stdio; the agent loop against a local fake LLM provider, {@link FakeProvider}, replaying recorded
 * Anthropic wire fixtures), and Debian's headless Chromium driven by Playwright ({@code playwright-core}, pinned in
 * {@code src/test/console/package-lock.json}, which downloads no browser) through {@code console-driver.mjs}: one
 * scenario per test, whose JSON says what the page showed. The screenshots go to {@code
 * target/console-screenshots}, or to the folder {@code -Dconsole.screenshots=DIR} names ({@code docs/console}
 * for docs/CONSOLE.md).
 */
class ConsoleEndToEndTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Path CONSOLE = Path.of("src/test/console").toAbsolutePath();
    static final Path PEERS =
            Path.of("../toolscout-mcp/src/test/node").toAbsolutePath().normalize();
    static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium"));
    static final String ADMIN = "ada-admin-key-0123456789";
    static final String USER = "ulf-user-key-01234567890";
    static final String READER = "rita-reader-key-01234567";
    static final Pattern LISTENING = Pattern.compile("HTTP API on (http://127\\.0\\.0\\.1:\\d+)/v1");
    static final Pattern REQUEST_ID = Pattern.compile("Approval request (ap-[0-9a-f]{10})");

    @TempDir
    static Path tmp;

    static Process serve;
    static Path log;
    static String base;
    static Path everythingWrapper;
    static Path shots;
    static FakeProvider fake;

    @BeforeAll
    static void start() throws Exception {
        assertThat(CONSOLE.resolve("node_modules/playwright-core"))
                .as("playwright-core missing: run ./run-tests (it runs npm ci in " + CONSOLE + ")")
                .isDirectory();
        assertThat(PEERS.resolve("node_modules/@modelcontextprotocol/server-memory"))
                .as("MCP servers missing: run ./run-tests (it runs npm ci in " + PEERS + ")")
                .isDirectory();
        assertThat(CHROMIUM)
                .as("Chromium missing: apt-get install chromium (.ci/run does)")
                .isExecutable();
        shots = Path.of(System.getProperty("console.screenshots", "target/console-screenshots"))
                .toAbsolutePath();
        Path keys = tmp.resolve("keys.json");
        Files.writeString(keys, """
        {"keys": [
          {"key": "%s", "user": "ada", "group": "staff", "role": "admin"},
          {"key": "%s", "user": "ulf", "group": "staff"},
          {"key": "%s", "user": "rita", "group": "kids", "role": "reader"}
        ]}""".formatted(ADMIN, USER, READER));
        Path policy = tmp.resolve("policy.json");
        Files.writeString(policy, "{\"rules\": [{\"effect\": \"deny\", \"source\": \"gmail\", \"group\": \"kids\"}]}");
        // the everything server through a one-line wrapper, which the kill test removes so that the server stays down
        everythingWrapper = tmp.resolve("everything.mjs");
        Files.writeString(
                everythingWrapper,
                "import '" + PEERS.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js")
                        + "';\n");
        Path servers = tmp.resolve("servers.json");
        Files.writeString(servers, """
        {"mcpServers": {
          "everything": {"command": "node", "args": ["%s", "stdio"]},
          "kg": {"command": "node", "args": ["%s"], "env": {"MEMORY_FILE_PATH": "%s"}}
        }}""".formatted(
                        everythingWrapper,
                        PEERS.resolve("node_modules/@modelcontextprotocol/server-memory/dist/index.js"),
                        tmp.resolve("kg.jsonl")));
        log = tmp.resolve("serve.log");
        fake = new FakeProvider();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb = new ProcessBuilder(List.of(
                        java.toString(),
                        "--enable-native-access=ALL-UNNAMED",
                        "--add-modules",
                        "jdk.incubator.vector",
                        "-cp",
                        System.getProperty("java.class.path"),
                        ToolScoutCli.class.getName(),
                        "serve",
                        "--port",
                        "0",
                        "--data-dir",
                        tmp.resolve("data").toString(),
                        "--api-keys",
                        keys.toString(),
                        "--policy",
                        policy.toString(),
                        "--servers",
                        servers.toString(),
                        "--provider",
                        "anthropic",
                        "--provider-url",
                        fake.baseUrl()))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().put("ANTHROPIC_API_KEY", "sk-ant-test");
        serve = pb.start();
        base = awaitListening();
        awaitReady();
        agentRuns();
    }

    /**
     * The usage records the Usage page charts, made by the agent loop itself: two requests of the user ulf, run
     * by {@code serve} against the fake provider on the real MCP servers (one calls a selected tool; one asks
     * tool_discovery__find first). The approval test adds a third.
     */
    static void agentRuns() throws Exception {
        fake.toolCall("anthropic", "everything__echo", "{\"message\":\"hello console\"}")
                .text("anthropic", "It echoed hello console.");
        assertThat(message(USER, "c-echo", "Echo back the message 'hello console'")
                        .path("status")
                        .asText())
                .isEqualTo("done");
        fake.toolCall("anthropic", "tool_discovery__find", "{\"query\":\"read the whole knowledge graph\"}")
                .toolCall("anthropic", "kg__read_graph", "{}")
                .text("anthropic", "The graph is empty.");
        assertThat(message(USER, "c-graph", "What is in my knowledge graph?")
                        .path("status")
                        .asText())
                .isEqualTo("done");
    }

    /** One message through the agent loop of serve ({@code POST /v1/conversations/{id}/messages}). */
    static JsonNode message(String key, String conversation, String text) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create(base + "/v1/conversations/" + conversation + "/messages"))
                .timeout(Duration.ofSeconds(120))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("message", text))))
                .build();
        HttpResponse<String> res = HttpClient.newHttpClient().send(r, HttpResponse.BodyHandlers.ofString());
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        return JSON.readTree(res.body());
    }

    @AfterAll
    static void stop() throws Exception {
        if (serve != null) {
            List<ProcessHandle> children = serve.descendants().toList();
            serve.destroy();
            if (!serve.waitFor(60, TimeUnit.SECONDS)) {
                serve.destroyForcibly();
            }
            children.forEach(ProcessHandle::destroyForcibly);
        }
        if (fake != null) {
            fake.close();
        }
    }

    private static String awaitListening() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (true) {
            String out = Files.exists(log) ? Files.readString(log) : "";
            Matcher m = LISTENING.matcher(out);
            if (m.find()) {
                return m.group(1);
            }
            if (!serve.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("serve did not start; its output:\n" + out);
            }
            Thread.sleep(100);
        }
    }

    /** Until the engine answers and both MCP servers are ready. */
    private static void awaitReady() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (true) {
            HttpResponse<String> ready = http("/readyz", null);
            HttpResponse<String> servers = http("/v1/servers", ADMIN);
            if (ready.statusCode() == 200
                    && servers.statusCode() == 200
                    && JSON.readTree(servers.body())
                            .path("servers")
                            .findValuesAsText("status")
                            .equals(List.of("ready", "ready"))) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("serve was not ready within 180 s: " + ready.body() + " " + servers.body()
                        + "\n" + Files.readString(log));
            }
            Thread.sleep(250);
        }
    }

    static HttpResponse<String> http(String path, String key) throws IOException, InterruptedException {
        return http(path, key, null);
    }

    /** A GET, or with {@code body} a POST of it as JSON. */
    static HttpResponse<String> http(String path, String key, String body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
        if (body != null) {
            b.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        }
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Runs one scenario of console-driver.mjs in headless Chromium and returns what it read. */
    static JsonNode browse(String key, String scenario, String... options) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                "node",
                CONSOLE.resolve("console-driver.mjs").toString(),
                "--base",
                base,
                "--key",
                key,
                "--scenario",
                scenario,
                "--shots",
                shots.toString()));
        cmd.addAll(List.of(options));
        Path out = Files.createTempFile(tmp, scenario, ".json");
        Path err = Files.createTempFile(tmp, scenario, ".err");
        Process p = new ProcessBuilder(cmd)
                .directory(CONSOLE.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(
                    "console-driver " + scenario + " did not finish; stderr:\n" + Files.readString(err));
        }
        assertThat(p.exitValue())
                .as("console-driver " + scenario + " failed; stderr:\n" + Files.readString(err))
                .isZero();
        JsonNode r = JSON.readTree(Files.readString(out));
        assertThat(r.path("page_errors")).as("script errors on the page").isEmpty();
        assertThat(r.path("unlabelled")).as("controls without a label or name").isEmpty();
        assertThat(r.path("stray_text"))
                .as("null, undefined or [object Object] shown as text")
                .isEmpty();
        return r;
    }

    /** One MCP session with {@code key} (the official TypeScript client): find {@code query}, call {@code tool}. */
    static String mcpCall(String key, String query, String tool, String args) throws Exception {
        return NodeClient.text(NodeClient.call(tmp, base + "/mcp", key, query, tool, args));
    }

    static List<String> column(JsonNode rows, int index) {
        List<String> out = new ArrayList<>();
        rows.forEach(r -> out.add(r.path(index).asText()));
        return out;
    }

    @Test
    void an_admin_searches_the_catalog_opens_a_tool_and_sees_who_can_see_it() throws Exception {
        JsonNode r = browse(ADMIN, "catalog");

        List<String> names = column(r.path("rows"), 0);
        assertThat(names).contains("gmail__send_email");
        assertThat(column(r.path("rows"), 7)).allMatch(score -> score.matches("[01](\\.\\d+)?"));
        assertThat(r.path("definition").asText())
                .contains("\"name\": \"gmail__send_email\"")
                .contains("\"parameters\"");
        // the policy made visible: rita (group kids) may not see it, ada and ulf may
        assertThat(r.path("who").toString())
                .contains("[\"user rita, group kids\",\"no\"]")
                .contains("[\"user ada, group staff\",\"yes\"]")
                .contains("[\"user ulf, group staff\",\"yes\"]");
        assertThat(r.path("as_reader_heading").asText()).contains("visible to user rita, group kids");
        assertThat(column(r.path("as_reader_rows"), 0)).isNotEmpty().noneMatch(n -> n.startsWith("gmail__"));
    }

    @Test
    void the_console_shows_a_loading_indicator_until_its_data_arrives_never_an_empty_catalog() throws Exception {
        JsonNode r = browse(ADMIN, "loading");

        // before the server said who the key is
        assertThat(r.path("first_load").path("main").asText()).as(r.toString()).isEqualTo("Loading…");
        assertThat(r.path("first_load").path("busy").asInt()).isPositive();
        // the catalog page drawn, its data not there yet: a busy indicator, no table, no "0 items"
        JsonNode during = r.path("catalog_while");
        assertThat(during.path("results").asText()).as(during.toString()).isEqualTo("Loading the catalog…");
        assertThat(during.path("tables").asInt()).isZero();
        assertThat(during.path("heading").asText()).isEmpty();
        assertThat(during.path("busy").asInt()).isEqualTo(1);
        // and once it arrived, the indicator is gone
        JsonNode after = r.path("catalog_after");
        assertThat(after.path("heading").asText()).matches("[1-9]\\d* items visible to .+");
        assertThat(after.path("busy").asInt()).isZero();
        assertThat(after.path("tables").asInt()).isPositive();
    }

    @Test
    void a_denied_tool_is_absent_for_a_reader_who_also_gets_no_admin_actions() throws Exception {
        JsonNode r = browse(READER, "reader-catalog");

        assertThat(r.path("who").asText()).contains("user rita").contains("reader");
        assertThat(column(r.path("rows"), 0)).isNotEmpty().noneMatch(n -> n.startsWith("gmail__"));
        assertThat(r.path("rows").toString()).doesNotContain("gmail");
        assertThat(r.path("has_view_as").asInt()).isZero();
        assertThat(r.path("approve_buttons").asInt()).isZero();
        assertThat(r.path("approvals_text").asText()).contains("decided by admin keys");
    }

    @Test
    void the_demo_message_shows_its_selection_with_scores_reasons_tokens_and_the_rendered_forms() throws Exception {
        JsonNode r = browse(ADMIN, "try");

        assertThat(r.path("message").asText()).isEqualTo("Schedule a meeting for tomorrow at 2pm");
        assertThat(r.path("reason").asText()).startsWith("Selected 10 of ");
        assertThat(column(r.path("selected"), 1))
                .hasSize(10)
                .contains("calendar__create_event", "calendar__list_events");
        assertThat(column(r.path("selected"), 2)).allMatch(score -> score.matches("[01](\\.\\d+)?"));
        assertThat(column(r.path("selected"), 3)).anyMatch(why -> why.contains("matches 'meeting'"));
        assertThat(r.path("tokens").asText())
                .matches("[\\d,]+ for the selected definitions, [\\d,]+ for all visible " + "tools: [\\d.]+% saved");
        assertThat(r.path("anthropic").asText()).contains("\"input_schema\"").contains("calendar__create_event");
        assertThat(r.path("openai").asText()).contains("\"type\": \"function\"");
    }

    @Test
    void a_server_whose_process_is_killed_shows_as_down_with_its_error() throws Exception {
        ProcessHandle everything = serve.descendants()
                .filter(h -> h.info().commandLine().orElse("").contains(everythingWrapper.toString()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no process of the everything server"));
        // it cannot start again: the server stays down instead of coming back within a second
        Files.delete(everythingWrapper);

        JsonNode r = browse(ADMIN, "servers", "--server", "everything", "--kill-pid", Long.toString(everything.pid()));

        assertThat(r.path("before").path(1).asText()).isEqualTo("ready");
        assertThat(r.path("before").path(4).asInt()).isPositive();
        assertThat(r.path("after").path(1).asText()).isIn("down", "connecting", "degraded");
        assertThat(r.path("after").path(6).asText()).as("last error").isNotBlank();
        assertThat(everything.isAlive()).isFalse();
        assertThat(r.path("rows").toString()).contains("[\"kg\",\"ready\"");
        assertThat(r.path("add_form_labels").toString()).contains("Name").contains("URL or command line");
    }

    @Test
    void an_admin_approves_a_held_call_in_the_console_and_the_call_then_runs_once() throws Exception {
        mcpCall(
                USER,
                "create entities",
                "kg__create_entities",
                "{\"entities\": [{\"name\": \"Console\", \"entityType\": \"note\", \"observations\": []}]}");
        String held = mcpCall(USER, "delete entities", "kg__delete_entities", "{\"entityNames\": [\"Console\"]}");
        Matcher m = REQUEST_ID.matcher(held);
        assertThat(m.find()).as(held).isTrue();
        String id = m.group(1);

        JsonNode r = browse(ADMIN, "approve", "--approval", id);

        assertThat(r.path("pending").path(1).asText()).isEqualTo("kg__delete_entities");
        assertThat(r.path("pending").path(2).asText()).isEqualTo("key:ulf");
        assertThat(r.path("pending").path(3).asText()).isEqualTo("gateway");
        assertThat(r.path("pending").path(4).asText()).contains("\"Console\"");
        assertThat(r.path("decided").path(3).asText()).isEqualTo("approved");
        assertThat(r.path("decided").path(4).asText()).isEqualTo("key:ada");
        assertThat(r.path("still_pending").asInt()).isZero();
        // the requester's same call now runs, once; the audit trail shows the approval used
        assertThat(mcpCall(USER, "delete entities", "kg__delete_entities", "{\"entityNames\": [\"Console\"]}"))
                .containsIgnoringCase("deleted");
        JsonNode audit = browse(ADMIN, "audit", "--approval", id, "--status", "used");
        assertThat(audit.path("decided").path(3).asText()).isEqualTo("used");
    }

    @Test
    void the_pages_work_from_the_keyboard_alone() throws Exception {
        JsonNode r = browse(ADMIN, "keyboard");

        assertThat(r.path("first_focus").asText()).isEqualTo("Skip to the page");
        assertThat(r.path("visited").toString()).contains("Catalog").contains("Try a message");
        assertThat(r.path("button_focus").asText()).isEqualTo("Select tools");
        assertThat(column(r.path("selected"), 1)).contains("calendar__create_event");
        assertThat(r.path("focus_visible").asText()).isNotEqualTo("none");
    }

    @Test
    void every_page_fits_a_narrow_window_and_the_usage_page_charts_the_success_metrics() throws Exception {
        JsonNode narrow = browse(ADMIN, "narrow");
        JsonNode usage = browse(ADMIN, "usage");

        assertThat(narrow.path("pages").size()).isEqualTo(5);
        narrow.path("pages")
                .properties()
                .forEach(p -> assertThat(p.getValue().path("overflow").asInt())
                        .as(p.getKey() + " scrolls sideways")
                        .isLessThanOrEqualTo(0));
        // the page counts the agent loop's own records as the server's UsageReport does
        JsonNode summary = JSON.readTree(http("/v1/usage", ADMIN).body());
        assertThat(usage.path("charts").asInt()).isEqualTo(5);
        assertThat(usage.path("requests").asText())
                .isEqualTo(summary.path("requests").asText());
        assertThat(summary.path("requests").asInt()).isGreaterThanOrEqualTo(2);
        assertThat(usage.path("recall").asText())
                .isEqualTo(percent(summary.path("recall").asDouble()));
        assertThat(usage.path("precision").asText())
                .isEqualTo(percent(summary.path("precision").asDouble()));
        // both measured, not empty: the scripted requests used tools their selections held and left others unused
        assertThat(summary.path("used_selected").asInt()).isPositive();
        assertThat(summary.path("precision").asDouble()).isBetween(0.0, 0.99);
        assertThat(usage.path("discovery").asText())
                .isEqualTo(percent(summary.path("discovery_rate").asDouble()));
        assertThat(summary.path("discovery_calls").asInt()).isPositive();
        assertThat(column(usage.path("recent"), 2))
                .contains("What is in my knowledge graph?", "Echo back the message 'hello console'");
        assertThat(column(usage.path("recent"), 4))
                .anyMatch(calls -> calls.contains("everything__echo"))
                .anyMatch(calls -> calls.contains("tool_discovery__find"));
    }

    /** A share as the Usage page shows it: a percentage with at most one decimal, e.g. 80% or 66.7%. */
    static String percent(double share) {
        java.text.NumberFormat f = java.text.NumberFormat.getNumberInstance(java.util.Locale.US);
        f.setMaximumFractionDigits(1);
        return f.format(share * 100) + "%";
    }

    @Test
    void an_admin_approves_an_agent_runs_pending_call_in_the_console_and_sees_the_run_complete() throws Exception {
        // the user's run calls a PROPOSE tool of the real memory server and pauses for an approver
        fake.toolCall(
                        "anthropic",
                        "kg__create_entities",
                        "{\"entities\":[{\"name\":\"Agenda\",\"entityType\":\"note\",\"observations\":[]}]}")
                .text("anthropic", "Created it.");
        message(USER, "c-make", "Add a note entity called Agenda to the knowledge graph");
        fake.toolCall("anthropic", "kg__delete_entities", "{\"entityNames\":[\"Agenda\"]}");
        JsonNode paused = message(USER, "c-delete", "Delete the entity Agenda from the knowledge graph");
        assertThat(paused.path("status").asText()).isEqualTo("awaiting_approval");
        String approval = paused.path("approval").path("id").asText();
        String run = paused.path("run_id").asText();
        fake.text("anthropic", "Deleted Agenda.");

        JsonNode r = browse(ADMIN, "approve-run", "--approval", approval, "--run", run);

        assertThat(r.path("pending").path(1).asText()).isEqualTo("kg__delete_entities");
        assertThat(r.path("pending").path(2).asText()).isEqualTo("key:ulf");
        assertThat(r.path("pending").path(3).asText()).isEqualTo("agent (" + run + ")");
        assertThat(r.path("pending").path(6).asText()).isEqualTo(run + " awaiting_approval");
        assertThat(r.path("decided").path(3).asText()).isIn("approved", "used");
        assertThat(r.path("decided").path(4).asText()).isEqualTo("key:ada");
        // the loop went on by itself after the decision: the console shows the run done, as the API does
        assertThat(r.path("decided").path(6).asText()).isEqualTo(run + " done");
        assertThat(r.path("run_link").asText()).isEqualTo("#usage?run=" + run);
        assertThat(r.path("linked_row").path(2).asText())
                .isEqualTo("Delete the entity Agenda from the knowledge graph");
        assertThat(r.path("linked_row").path(5).asText()).isEqualTo("done");
        JsonNode done = JSON.readTree(http("/v1/runs/" + run, USER).body());
        assertThat(done.path("status").asText()).isEqualTo("done");
        assertThat(done.path("text").asText()).isEqualTo("Deleted Agenda.");
        assertThat(lastToolResult()).containsIgnoringCase("deleted");
    }

    /** The last tool result the fake provider was sent (Anthropic tool_result blocks). */
    static String lastToolResult() {
        List<JsonNode> all = fake.requests();
        String out = "";
        for (JsonNode m : all.get(all.size() - 1).path("messages")) {
            for (JsonNode c : m.path("content")) {
                if (c.path("type").asText().equals("tool_result")) {
                    out = c.path("content").isTextual()
                            ? c.path("content").asText()
                            : c.path("content").toString();
                }
            }
        }
        return out;
    }

    @Test
    void an_admin_disables_a_server_in_the_console_its_tools_leave_and_enabling_brings_them_back() throws Exception {
        String query = "{\"query\": \"add a note entity to the knowledge graph\", \"limit\": 5}";
        assertThat(http("/v1/servers/kg/disable", READER, "").statusCode())
                .as("a reader may not")
                .isEqualTo(403);

        JsonNode off = browse(ADMIN, "server-toggle", "--server", "kg", "--action", "Disable", "--expect", "disabled");

        assertThat(off.path("row").path(1).asText()).isEqualTo("disabled");
        assertThat(off.path("row").path(4).asText()).isEqualTo("0");
        assertThat(JSON.readTree(http("/v1/tools/search", USER, query).body())
                        .path("tools")
                        .findValuesAsText("name"))
                .isNotEmpty()
                .noneMatch(n -> n.startsWith("kg__"));
        assertThat(serve.descendants()
                        .filter(h -> h.info().commandLine().orElse("").contains("server-memory")))
                .as("its process ended")
                .isEmpty();

        JsonNode on = browse(ADMIN, "server-toggle", "--server", "kg", "--action", "Enable", "--expect", "ready");

        assertThat(on.path("row").path(1).asText()).isEqualTo("ready");
        assertThat(on.path("row").path(4).asInt()).isPositive();
        assertThat(JSON.readTree(http("/v1/tools/search", USER, query).body())
                        .path("tools")
                        .findValuesAsText("name"))
                .anyMatch(n -> n.startsWith("kg__"));
    }
}
