package dev.toolscout.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.server.http.api.HttpApi;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Claude's tool search over the HTTP API ({@code POST /v1/select} with format {@code anthropic-deferred}, {@code POST
 * /v1/tools/search} with format {@code tool_reference}), on the demo catalog with the real model, the reader (group
 * kids) denied the gmail source. Every answer is also checked against the served OpenAPI document ({@link ApiClient}).
 *
 * <p>The shapes checked are Anthropic's (the tool search tool page, "Custom tool search implementation",
 * platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool; the official Java SDK,
 * anthropics/anthropic-sdk-java: {@code com.anthropic.models.messages.Tool} with {@code defer_loading}, and {@code
 * ToolReferenceBlockParam}, {@code {"type": "tool_reference", "tool_name"}}). The SDK is not on this project's class
 * path (see {@code ClaudeToolSearchTest} in the engine), so fields are checked by name and type: a field Claude does
 * not define would fail here.
 */
class HttpClaudeToolSearchTest {
    private static final Pattern WIRE_NAME = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");
    private static final Set<String> TOOL_FIELDS = Set.of("name", "description", "input_schema", "defer_loading");

    @TempDir
    static Path tmp;

    static ApiServer server;
    static ApiClient reader;
    static ApiClient admin;

    @BeforeAll
    static void start() throws Exception {
        server = ApiServer.withKeys(tmp.resolve("data"), HttpApi.Options.DEFAULT);
        reader = server.client.as(ApiServer.READER);
        admin = server.client.as(ApiServer.ADMIN);
        server.awaitReady();
        HttpResponse<String> set = admin.put(
                "/v1/policy", "{\"rules\": [{\"effect\": \"deny\", \"source\": \"gmail\", \"group\": \"kids\"}]}");
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static JsonNode ok(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return ApiClient.json(r);
    }

    /** Each tool checked against Claude's shape; the loaded names, then the deferred ones, into the lists given. */
    private static void split(JsonNode answer, List<String> loaded, List<String> deferred) {
        List<String> top = new ArrayList<>();
        answer.fieldNames().forEachRemaining(top::add);
        assertThat(top).containsExactly("system", "tools");
        for (JsonNode t : answer.path("tools")) {
            List<String> fields = new ArrayList<>();
            t.fieldNames().forEachRemaining(fields::add);
            assertThat(TOOL_FIELDS).as(t.toString()).containsAll(fields);
            assertThat(t.path("name").asText()).matches(WIRE_NAME);
            assertThat(t.path("description").isTextual()).isTrue();
            assertThat(t.path("input_schema").path("type").asText()).isEqualTo("object");
            if (t.has("defer_loading")) {
                assertThat(t.path("defer_loading").isBoolean()
                                && t.path("defer_loading").booleanValue())
                        .isTrue();
                deferred.add(t.path("name").asText());
            } else {
                assertThat(deferred).as("loaded before deferred").isEmpty();
                loaded.add(t.path("name").asText());
            }
        }
    }

    private static List<String> visible(ApiClient c) {
        List<String> out = new ArrayList<>();
        ok(c.get("/v1/tools?limit=1000"))
                .path("tools")
                .forEach(t -> out.add(t.path("name").asText()));
        return out;
    }

    @Test
    void select_anthropic_deferred_sends_every_tool_the_caller_may_see_once_and_no_denied_one() {
        JsonNode answer = ok(reader.post(
                "/v1/select", "{\"message\": \"send an email to Ann\", \"k\": 5, \"format\": \"anthropic-deferred\"}"));
        List<String> loaded = new ArrayList<>();
        List<String> deferred = new ArrayList<>();
        split(answer, loaded, deferred);

        assertThat(loaded).contains("tool_discovery__find").hasSizeLessThanOrEqualTo(6);
        assertThat(deferred).isSortedAccordingTo(String::compareTo).doesNotContain("tool_discovery__find");
        List<String> all = new ArrayList<>(loaded);
        all.addAll(deferred);
        assertThat(all).doesNotHaveDuplicates().containsAll(visible(reader)).noneMatch(n -> n.startsWith("gmail__"));
        assertThat(answer.path("system").asText())
                .doesNotContain("gmail__")
                .contains(deferred.size() + " more tools are not loaded yet. Call tool_discovery__find");

        // a member of staff may see gmail: it is in their list
        List<String> staffLoaded = new ArrayList<>();
        List<String> staffDeferred = new ArrayList<>();
        split(
                ok(admin.post(
                        "/v1/select", "{\"message\": \"book a table\", \"k\": 3, \"format\": \"anthropic-deferred\"}")),
                staffLoaded,
                staffDeferred);
        assertThat(staffDeferred).contains("gmail__send_email");
    }

    @Test
    void search_as_tool_reference_names_only_tools_of_the_callers_deferred_list() {
        List<String> loaded = new ArrayList<>();
        List<String> deferred = new ArrayList<>();
        split(
                ok(reader.post(
                        "/v1/select",
                        "{\"message\": \"what is on my calendar today\", \"k\": 3, "
                                + "\"format\": \"anthropic-deferred\"}")),
                loaded,
                deferred);

        JsonNode refs = ok(reader.post(
                "/v1/tools/search",
                "{\"query\": \"send an email to a colleague\", \"limit\": 10, \"format\": \"tool_reference\"}"));

        assertThat(refs.isArray()).isTrue();
        assertThat(refs).isNotEmpty();
        List<String> named = new ArrayList<>();
        for (JsonNode b : refs) {
            List<String> fields = new ArrayList<>();
            b.fieldNames().forEachRemaining(fields::add);
            assertThat(fields).containsExactly("type", "tool_name");
            assertThat(b.path("type").asText()).isEqualTo("tool_reference");
            named.add(b.path("tool_name").asText());
        }
        assertThat(named)
                .allMatch(n -> deferred.contains(n) || loaded.contains(n), "in the caller's list")
                .noneMatch(n -> n.startsWith("gmail__"))
                .doesNotContain("tool_discovery__find");
        // the same search in JSON finds the same tools, in the same order (the search tool aside)
        List<String> json = new ArrayList<>();
        ok(reader.post("/v1/tools/search", "{\"query\": \"send an email to a colleague\", \"limit\": 10}"))
                .path("tools")
                .forEach(t -> json.add(t.path("name").asText()));
        assertThat(named)
                .isEqualTo(json.stream()
                        .filter(n -> !n.equals("tool_discovery__find"))
                        .toList());
        // staff may see gmail: their references name it
        assertThat(ok(admin.post(
                                "/v1/tools/search",
                                "{\"query\": \"send an email to a colleague\", \"format\": \"tool_reference\"}"))
                        .toString())
                .contains("{\"type\":\"tool_reference\",\"tool_name\":\"gmail__send_email\"}");
    }

    @Test
    void an_unknown_search_format_is_refused_naming_the_allowed_ones() {
        HttpResponse<String> r = reader.post("/v1/tools/search", "{\"query\": \"send email\", \"format\": \"xml\"}");

        assertThat(r.statusCode()).isEqualTo(400);
        JsonNode p = ApiClient.json(r);
        assertThat(p.path("input").asText()).isEqualTo("format");
        assertThat(p.path("rule").asText()).isEqualTo("one of json, tool_reference");
        assertThat(p.path("detail").asText()).isEqualTo("format must be one of json, tool_reference, got: \"xml\"");
    }
}
