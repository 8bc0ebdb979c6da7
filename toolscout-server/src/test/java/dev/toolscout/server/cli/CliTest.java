package dev.toolscout.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line end to end, on the real engine. */
class CliTest {
  @TempDir Path dir;
  private String out;
  private String err;

  private int run(String... args) {
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--data-dir";
    all[args.length + 1] = dir.toString();
    int code = ToolScoutCli.run(all, new PrintWriter(o, true), new PrintWriter(e, true));
    out = o.toString();
    err = e.toString();
    return code;
  }

  private static java.util.List<String> toolNames(JsonNode tools) {
    java.util.List<String> names = new java.util.ArrayList<>();
    tools.forEach(t -> names.add(t.get("name").asText()));
    return names;
  }

  @BeforeEach
  void noArgs() {
    out = "";
    err = "";
  }

  @Test
  void select_json_has_the_documented_fields() throws Exception {
    assertThat(run("select", "Schedule a meeting for tomorrow at 2pm", "--format", "json")).isZero();
    JsonNode n = Json.MAPPER.readTree(out);
    assertThat(n.get("selected")).hasSize(10);
    JsonNode first = n.get("selected").get(0);
    assertThat(first.size()).isEqualTo(3);
    assertThat(first.has("name") && first.has("score") && first.has("reason")).isTrue();
    assertThat(n.get("core_included")).isNotEmpty();
    assertThat(n.get("excluded_count").asInt()).isPositive();
    assertThat(n.get("reason").asText()).startsWith("Selected 10 of");
    assertThat(n.get("discovery_suggested").asBoolean()).isTrue();
    JsonNode t = n.get("tokens");
    assertThat(t.get("selected").asInt()).isPositive().isLessThan(t.get("all").asInt());
    assertThat(t.get("saved_pct").asDouble()).isBetween(0.0, 100.0);
  }

  @Test
  void serve_with_api_keys_refuses_the_modes_where_a_client_approves_its_own_call() throws Exception {
    Path keys = dir.resolve("keys.json");
    Files.writeString(keys, "{\"keys\": [{\"key\": \"alice-key-0123456789\", \"user\": \"alice\"}]}");

    for (String mode : new String[] {"elicit", "client"}) {
      assertThat(run("serve", "--api-keys", keys.toString(), "--approval", mode, "--port", "0"))
          .isEqualTo(ToolScoutCli.BAD_INPUT);
      assertThat(err).contains("--approval " + mode + " cannot be used with --api-keys")
          .contains("--approval queue");
    }
  }

  @Test
  void approvals_on_a_directory_without_a_store_is_bad_input_and_creates_nothing() {
    Path empty = dir.resolve("nothing-here");
    StringWriter e = new StringWriter();

    int code = ToolScoutCli.run(new String[] {"approvals", "list", "--data-dir", empty.toString()},
        new PrintWriter(new StringWriter(), true), new PrintWriter(e, true));

    assertThat(code).isEqualTo(ToolScoutCli.BAD_INPUT);
    assertThat(e.toString()).contains("no ToolScout data directory at " + empty);
    assertThat(empty).doesNotExist();
  }

  @Test
  void k_out_of_range_is_bad_input_with_exit_code_2() {
    assertThat(run("select", "hello", "--k", "51")).isEqualTo(ToolScoutCli.BAD_INPUT);
    assertThat(err).contains("k must be between 1 and 50, got: 51");
  }

  @Test
  void a_policy_hides_tools_from_every_command() throws Exception {
    Path policy = dir.resolve("p.json");
    Files.writeString(policy, "{\"rules\":[{\"effect\":\"deny\",\"source\":\"gmail\",\"group\":\"kids\"}]}");
    assertThat(run("list", "--policy", policy.toString(), "--group", "kids")).isZero();
    assertThat(toolNames(Json.MAPPER.readTree(out).get("tools"))).isNotEmpty().noneMatch(n -> n.startsWith("gmail__"));
    assertThat(run("describe", "gmail__send_email", "--group", "kids")).isEqualTo(1);
    assertThat(err).contains("Tool not found: gmail__send_email");
    assertThat(run("find", "send an email", "--group", "kids", "--limit", "50")).isZero();
    assertThat(toolNames(Json.MAPPER.readTree(out).get("tools"))).isNotEmpty().noneMatch(n -> n.startsWith("gmail__"));
    assertThat(run("select", "send an email", "--group", "kids", "--format", "anthropic")).isZero();
    JsonNode sel = Json.MAPPER.readTree(out);
    assertThat(toolNames(sel.get("tools"))).hasSize(10).noneMatch(n -> n.startsWith("gmail__"));
    // the prompt names no gmail tool (tool_discovery__describe's own schema may use one as an example value)
    assertThat(sel.get("system").asText()).doesNotContain("gmail__");
    assertThat(run("find", "send an email", "--group", "staff")).isZero();
    assertThat(toolNames(Json.MAPPER.readTree(out).get("tools"))).contains("gmail__send_email");
  }

  @Test
  void blocked_tools_are_never_listed() {
    assertThat(run("list")).isZero();
    assertThat(out).doesNotContain("settings__reset_all").contains("settings__get");
  }

  @Test
  void index_adds_tools_from_a_file_and_a_bad_file_changes_nothing() throws Exception {
    Path good = dir.resolve("extra.yaml");
    Files.writeString(good, """
        sources:
          - name: weather
            category: info
            actions:
              - name: forecast
                description: Gets the weather forecast for a city for the next days.
                parameters:
                  type: object
                  properties:
                    city: {type: string, description: City name}
                  required: [city]
        """);
    assertThat(run("index", good.toString())).isZero();
    assertThat(out).contains("1 added");
    assertThat(run("find", "weather forecast for Paris", "--limit", "1")).isZero();
    assertThat(out).contains("weather__forecast");

    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, "{\"tools\":[{\"name\":\"x__y\",\"description\":\"\"}]}");
    assertThat(run("index", bad.toString())).isEqualTo(ToolScoutCli.BAD_INPUT);
    assertThat(err).contains("bad.json").contains("description");
    assertThat(run("describe", "weather__forecast")).isZero();
  }

  @Test
  void render_formats_carry_the_wire_shapes() throws Exception {
    assertThat(run("select", "send an email", "--format", "openai", "--k", "5")).isZero();
    JsonNode o = Json.MAPPER.readTree(out);
    assertThat(o.get("tools")).hasSize(5);
    assertThat(o.get("tools").get(0).get("type").asText()).isEqualTo("function");
    assertThat(o.get("messages").get(0).get("content").asText()).contains("tool_discovery__find");
    assertThat(run("select", "send an email", "--format", "mcp", "--k", "3")).isZero();
    assertThat(Json.MAPPER.readTree(out).get("tools").get(0).has("inputSchema")).isTrue();
  }
}
