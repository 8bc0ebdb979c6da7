package dev.toolscout.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line end to end, on the real engine. */
class CliTest {
    @TempDir
    Path dir;

    private String out;
    private String err;

    private int run(String... args) {
        return runWithInput("", args);
    }

    private int runWithInput(String stdin, String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--data-dir";
        all[args.length + 1] = dir.toString();
        int code = ToolScoutCli.run(
                all,
                new java.io.ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintWriter(o, true),
                new PrintWriter(e, true));
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
        assertThat(run("select", "Schedule a meeting for tomorrow at 2pm", "--format", "json"))
                .isZero();
        JsonNode n = Json.MAPPER.readTree(out);
        // the shape scripts read (and the HTTP API's /v1/select answers): these fields, in this order
        assertThat(n.fieldNames())
                .toIterable()
                .containsExactly(
                        "selected",
                        "core_included",
                        "excluded_count",
                        "reason",
                        "discovery_suggested",
                        "tokens",
                        "route");
        assertThat(n.get("route").get("route").asText()).isEqualTo("TOOL_FILTER");
        assertThat(n.get("tokens").fieldNames()).toIterable().containsExactly("selected", "all", "saved_pct");
        assertThat(n.get("selected")).hasSize(10);
        JsonNode first = n.get("selected").get(0);
        assertThat(first.size()).isEqualTo(3);
        assertThat(first.has("name") && first.has("score") && first.has("reason"))
                .isTrue();
        assertThat(n.get("core_included")).isNotEmpty();
        assertThat(n.get("excluded_count").asInt()).isPositive();
        assertThat(n.get("reason").asText()).startsWith("Selected 10 of");
        assertThat(n.get("discovery_suggested").asBoolean()).isTrue();
        JsonNode t = n.get("tokens");
        assertThat(t.get("selected").asInt())
                .isPositive()
                .isLessThan(t.get("all").asInt());
        assertThat(t.get("saved_pct").asDouble()).isBetween(0.0, 100.0);
    }

    @Test
    void serve_with_api_keys_refuses_the_modes_where_a_client_approves_its_own_call() throws Exception {
        Path keys = dir.resolve("keys.json");
        Files.writeString(keys, "{\"keys\": [{\"key\": \"alice-key-0123456789\", \"user\": \"alice\"}]}");

        for (String mode : new String[] {"elicit", "client"}) {
            assertThat(run("serve", "--api-keys", keys.toString(), "--approval", mode, "--port", "0"))
                    .isEqualTo(ToolScoutCli.BAD_INPUT);
            assertThat(err)
                    .contains("--approval " + mode + " cannot be used with --api-keys")
                    .contains("--approval queue");
        }
    }

    @Test
    void approvals_on_a_directory_without_a_store_is_bad_input_and_creates_nothing() {
        Path empty = dir.resolve("nothing-here");
        StringWriter e = new StringWriter();

        int code = ToolScoutCli.run(
                new String[] {"approvals", "list", "--data-dir", empty.toString()},
                new PrintWriter(new StringWriter(), true),
                new PrintWriter(e, true));

        assertThat(code).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(e.toString()).contains("no ToolScout data directory at " + empty);
        assertThat(empty).doesNotExist();
    }

    @Test
    void select_anthropic_deferred_loads_the_selection_and_defers_the_rest_of_what_the_group_may_see()
            throws Exception {
        Path policy = dir.resolve("p.json");
        Files.writeString(policy, "{\"rules\":[{\"effect\":\"deny\",\"source\":\"gmail\",\"group\":\"kids\"}]}");
        assertThat(run("policy", "set", policy.toString())).isZero();
        assertThat(run("select", "send an email", "--group", "kids", "--k", "4", "--format", "anthropic-deferred"))
                .as(err)
                .isZero();
        JsonNode tools = Json.MAPPER.readTree(out).get("tools");
        java.util.List<String> deferred = new java.util.ArrayList<>();
        tools.forEach(t -> {
            if (t.path("defer_loading").asBoolean()) {
                deferred.add(t.get("name").asText());
            }
        });
        assertThat(toolNames(tools)).contains("tool_discovery__find").noneMatch(n -> n.startsWith("gmail__"));
        assertThat(tools.size() - deferred.size()).isBetween(4, 5);
        assertThat(deferred).isNotEmpty().doesNotContain("tool_discovery__find");
        assertThat(run("select", "send an email", "--group", "staff", "--format", "anthropic-deferred"))
                .isZero();
        assertThat(toolNames(Json.MAPPER.readTree(out).get("tools"))).contains("gmail__send_email");
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
        assertThat(run("policy", "set", policy.toString())).isZero();
        assertThat(out).contains("Stored the policy from " + policy + " (1 rules)");
        assertThat(run("list", "--group", "kids")).isZero();
        assertThat(toolNames(Json.MAPPER.readTree(out).get("tools")))
                .isNotEmpty()
                .noneMatch(n -> n.startsWith("gmail__"));
        assertThat(run("describe", "gmail__send_email", "--group", "kids")).isEqualTo(1);
        assertThat(err).contains("Tool not found: gmail__send_email");
        assertThat(out).isEmpty();
        // a tool the caller sees names the policy's groups that may use it: not the kids for gmail
        assertThat(run("describe", "gmail__send_email", "--group", "staff")).isZero();
        assertThat(Json.MAPPER.readTree(out).get("available_in_groups").toString())
                .isEqualTo("[]");
        assertThat(run("describe", "calendar__create_event", "--group", "kids")).isZero();
        assertThat(Json.MAPPER.readTree(out).get("available_in_groups").toString())
                .isEqualTo("[\"kids\"]");
        assertThat(run("find", "send an email", "--group", "kids", "--limit", "50"))
                .isZero();
        assertThat(toolNames(Json.MAPPER.readTree(out).get("tools")))
                .isNotEmpty()
                .noneMatch(n -> n.startsWith("gmail__"));
        assertThat(run("select", "send an email", "--group", "kids", "--format", "anthropic"))
                .isZero();
        JsonNode sel = Json.MAPPER.readTree(out);
        assertThat(toolNames(sel.get("tools"))).hasSize(10).noneMatch(n -> n.startsWith("gmail__"));
        // the prompt names no gmail tool (tool_discovery__describe's own schema may use one as an example value)
        assertThat(sel.get("system").asText()).doesNotContain("gmail__");
        assertThat(run("find", "send an email", "--group", "staff")).isZero();
        assertThat(toolNames(Json.MAPPER.readTree(out).get("tools"))).contains("gmail__send_email");
    }

    @Test
    void policy_check_names_each_misspelt_tool_and_source_and_exits_2() throws Exception {
        Path policy = dir.resolve("typos.json");
        Files.writeString(policy, """
        {"rules": [
          {"effect": "deny", "source": "gmial"},
          {"effect": "deny", "tool": "calendar__create_evnt"},
          {"effect": "deny", "source": "calendar"}
        ]}
        """);
        assertThat(run("policy", "check", "--policy", policy.toString())).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err)
                .contains(policy + ": rules[0].source: 'gmial' matches no known source (did you mean 'gmail'?)")
                .contains(policy + ": rules[1].tool: 'calendar__create_evnt' matches no known tool "
                        + "(did you mean 'calendar__create_event'?)")
                .contains("2 of 3 rules match nothing")
                .doesNotContain("rules[2]");
        // the file may also be given as the argument, with the same report
        assertThat(run("policy", "check", policy.toString())).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err)
                .contains(policy + ": rules[0].source: 'gmial' matches no known source")
                .contains("2 of 3 rules");
        // checking stores nothing
        assertThat(run("policy", "show")).isZero();
        assertThat(Json.MAPPER.readTree(out).get("rules")).isEmpty();
    }

    @Test
    void policy_set_refuses_rules_that_match_nothing_unless_allowed() throws Exception {
        Path policy = dir.resolve("later.json");
        Files.writeString(policy, "{\"rules\":[{\"effect\":\"deny\",\"source\":\"jira\"}]}");
        assertThat(run("policy", "set", policy.toString())).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err)
                .contains("rules[0].source: 'jira' matches no known source")
                .contains("not stored");
        assertThat(run("policy", "show")).isZero();
        assertThat(Json.MAPPER.readTree(out).get("rules")).isEmpty();

        assertThat(run("policy", "set", policy.toString(), "--allow-unmatched")).isZero();
        assertThat(err).contains("rules[0].source: 'jira' matches no known source");
        assertThat(run("policy", "show")).isZero();
        assertThat(Json.MAPPER.readTree(out).get("rules").get(0).get("source").asText())
                .isEqualTo("jira");
    }

    @Test
    void policy_on_a_read_command_applies_to_that_run_and_never_replaces_the_stored_one() throws Exception {
        Path stored = dir.resolve("stored.json");
        Files.writeString(stored, "{\"rules\":[{\"effect\":\"deny\",\"source\":\"gmail\"}]}");
        Path once = dir.resolve("once.json");
        Files.writeString(once, "{\"rules\":[{\"effect\":\"deny\",\"source\":\"calendar\"}]}");
        assertThat(run("policy", "set", stored.toString())).isZero();

        for (String[] cmd : List.of(
                new String[] {"list"},
                new String[] {"find", "send an email and book a meeting"},
                new String[] {"select", "send an email", "--format", "json"},
                new String[] {"describe", "calendar__create_event"})) {
            String[] args = java.util.stream.Stream.concat(
                            java.util.Arrays.stream(cmd), java.util.stream.Stream.of("--policy", once.toString()))
                    .toArray(String[]::new);
            int code = run(args);
            // the run's own policy applies: calendar is hidden, gmail is not
            assertThat(out + err).as(String.join(" ", cmd)).doesNotContain("calendar__create_event\"");
            assertThat(code).as(String.join(" ", cmd)).isEqualTo(cmd[0].equals("describe") ? 1 : 0);
        }
        assertThat(run("policy", "show")).isZero();
        JsonNode rules = Json.MAPPER.readTree(out).get("rules");
        assertThat(rules).hasSize(1);
        assertThat(rules.get(0).get("source").asText()).isEqualTo("gmail");
        assertThat(run("list")).isZero();
        assertThat(out).contains("calendar__create_event").doesNotContain("gmail__");
    }

    @Test
    void a_custom_catalog_gets_the_discovery_tool_and_the_prompt_names_only_given_tools() throws Exception {
        StringBuilder yaml = new StringBuilder("sources:\n  - name: crm\n    actions:\n");
        for (int i = 0; i < 15; i++) {
            yaml.append("      - {name: update_record_")
                    .append(i)
                    .append(", description: Update customer record ")
                    .append(i)
                    .append(".}\n");
        }
        Path catalog = dir.resolve("mine.yaml");
        Files.writeString(catalog, yaml);

        assertThat(run("select", "update a customer record", "--catalog", catalog.toString(), "--format", "anthropic"))
                .isZero();

        JsonNode n = Json.MAPPER.readTree(out);
        List<String> given = toolNames(n.get("tools"));
        assertThat(given).hasSize(10).contains("tool_discovery__find");
        String system = n.get("system").asText();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("[A-Za-z0-9_-]+__[A-Za-z0-9_-]+")
                .matcher(system);
        while (m.find()) {
            assertThat(given).as("named in the system prompt").contains(m.group());
        }
        assertThat(system).contains("call tool_discovery__find");

        assertThat(run("select", "update a customer record", "--catalog", catalog.toString(), "--format", "json"))
                .isZero();
        JsonNode j = Json.MAPPER.readTree(out);
        // 15 catalog tools, the offered find and the four built-in memory tools: 10 given, 10 left out
        assertThat(j.get("excluded_count").asInt()).isEqualTo(10);
        assertThat(j.get("reason").asText()).startsWith("Selected 10 of 20 available tools");
        assertThat(j.get("tokens").get("all").asInt())
                .isGreaterThan(j.get("tokens").get("selected").asInt());
    }

    @Test
    void index_warns_naming_the_tools_whose_schema_could_not_be_read() throws Exception {
        Path fixture =
                Path.of(CliTest.class.getResource("/catalogs/python-types.json").toURI());
        assertThat(run("index", fixture.toString())).isZero();
        assertThat(err)
                .contains("warning: 1 tool has a parameter schema that could not be read")
                .contains("travel__currency");
        assertThat(out).contains("3 added");
        assertThat(run("describe", "travel__book_flight")).isZero();
        assertThat(Json.MAPPER.readTree(out).get("parameters_summary").asText())
                .startsWith("origin (string, required), destination (string, required), passengers (integer");
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
        assertThat(run("select", "send an email", "--format", "openai", "--k", "5"))
                .isZero();
        JsonNode o = Json.MAPPER.readTree(out);
        assertThat(o.get("tools")).hasSize(5);
        assertThat(o.get("tools").get(0).get("type").asText()).isEqualTo("function");
        assertThat(o.get("messages").get(0).get("content").asText()).contains("tool_discovery__find");
        assertThat(run("select", "send an email", "--format", "mcp", "--k", "3"))
                .isZero();
        assertThat(Json.MAPPER.readTree(out).get("tools").get(0).has("inputSchema"))
                .isTrue();
    }

    private java.util.List<String> listed() throws Exception {
        assertThat(run("list")).as(err).isZero();
        return toolNames(Json.MAPPER.readTree(out).get("tools"));
    }

    /** Every tool stored, blocked ones too (list shows only those the principal may see). */
    private int stored() throws Exception {
        try (dev.toolscout.engine.ToolScout e = dev.toolscout.engine.ToolScout.builder()
                .preloadModel(false)
                .dataDir(dir)
                .build()) {
            return e.size();
        }
    }

    private Path otherCatalog() throws Exception {
        Path other = dir.resolve("other.json");
        Files.writeString(other, """
        {"tools": [
          {"name": "crm__find_contact", "description": "Finds a contact in the CRM by name or email."},
          {"name": "crm__add_note", "description": "Adds a note to a CRM contact."},
          {"name": "crm__list_deals", "description": "Lists the open deals of a CRM account."}
        ]}
        """);
        return other;
    }

    @Test
    void select_with_another_catalog_keeps_the_tools_already_stored() throws Exception {
        java.util.List<String> before = listed();
        assertThat(before).contains("calendar__create_event");
        int storedBefore = stored();

        assertThat(run(
                        "select",
                        "add a note to Anna's contact",
                        "--catalog",
                        otherCatalog().toString()))
                .as(err)
                .isZero();
        assertThat(out).contains("crm__add_note");
        assertThat(err).contains("also holds " + storedBefore + " tools the --catalog files do not name; kept");

        assertThat(listed()).containsAll(before).contains("crm__find_contact", "crm__add_note", "crm__list_deals");
    }

    @Test
    void index_replace_is_the_one_way_to_drop_the_other_stored_tools() throws Exception {
        int before = listed().size();
        int storedBefore = stored();
        assertThat(run("index", otherCatalog().toString())).isZero();
        assertThat(out).contains("3 added");
        assertThat(listed()).hasSize(before + 3);

        assertThat(run("index", "--replace", otherCatalog().toString())).isZero();
        assertThat(out).contains("0 added, 0 updated, 3 unchanged, " + storedBefore + " removed");
        assertThat(listed()).containsExactlyInAnyOrder("crm__find_contact", "crm__add_note", "crm__list_deals");
    }

    @Test
    void remove_takes_out_named_tools_or_a_whole_source_and_an_unknown_name_removes_none() throws Exception {
        assertThat(listed()).contains("echo__echo", "gmail__send_email");

        assertThat(run("remove", "echo__echo", "no_such__tool")).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err)
                .contains("toolscout remove: error: no tool named 'no_such__tool'")
                .contains("nothing was removed");
        assertThat(listed()).contains("echo__echo");

        assertThat(run("remove", "echo__echo")).isZero();
        assertThat(out).startsWith("Removed 1 tool.");
        assertThat(run("remove", "--source", "gmail")).isZero();
        assertThat(listed())
                .doesNotContain("echo__echo")
                .noneMatch(n -> n.startsWith("gmail__"))
                .contains("calendar__create_event");

        assertThat(run("remove")).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err).contains("give tool NAMEs or --source S, got neither");
    }

    @Test
    void every_usage_error_exits_2_and_names_the_whole_command() {
        assertThat(run("find", "send an email", "--limit", "0")).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err).contains("toolscout find: error: --limit must be between 1 and 50, got: 0");
        assertThat(run("select", "send an email", "--k", "0")).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(run("mcp", "add", "x")).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err).startsWith("toolscout mcp add: error: give --url URL or a command after --");
    }

    @Test
    void a_message_or_query_of_dash_is_read_from_standard_input() throws Exception {
        // 4.7 KB, the request at its end: found only when the whole message was read (one long sentence of filler, so
        // the clause search sees three clauses, not 200 sentences of it: that is the clause split's business, not this)
        String longMessage = "Please look at my calendar for next week. " + "I have a lot going on, ".repeat(200)
                + "so then schedule a meeting with the design team on Friday at 2pm.";
        assertThat(runWithInput(longMessage, "select", "-", "--format", "json"))
                .as(err)
                .isZero();
        assertThat(toolNames(Json.MAPPER.readTree(out).get("selected"))).contains("calendar__create_event");

        assertThat(runWithInput("send an email\n", "find", "-", "--limit", "3"))
                .as(err)
                .isZero();
        assertThat(toolNames(Json.MAPPER.readTree(out).get("tools"))).contains("gmail__send_email");

        assertThat(runWithInput("  \n", "select", "-")).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err).contains("MESSAGE from standard input (-) is empty");
    }

    @Test
    void a_message_with_a_pasted_document_is_selected_for_on_its_first_part_with_a_note() {
        String message = "send an email with this text: " + "a".repeat(20_000);
        assertThat(runWithInput(message, "select", "-")).as(err).isZero();
        assertThat(out)
                .contains(
                        "Note: the message is longer than the ranking reads; it was ranked on its first 8,192 of 20,030"
                                + " characters.")
                .contains("gmail__send_email");
        assertThat(run("select", "send an email")).as(err).isZero();
        assertThat(out).doesNotContain("Note:");
    }

    @Test
    void find_and_list_show_the_skills_the_principal_may_see() throws Exception {
        Path skill = Files.createDirectories(dir.resolve("skills/expense-report"));
        Files.writeString(skill.resolve("SKILL.md"), """
                ---
                name: expense-report
                description: File an expense report from receipts in the inbox and email it to accounting.
                allowed-tools: gmail__search_emails gmail__send_email
                ---
                Find the receipts, total them, and send the report.
                """);
        assertThat(run("skills", "add", skill.toString())).as(err).isZero();

        assertThat(run("find", "file my expense report")).as(err).isZero();
        JsonNode found = Json.MAPPER.readTree(out);
        assertThat(found.path("skills").get(0).path("name").asText()).isEqualTo("expense-report");
        assertThat(found.path("skills").get(0).path("kind").asText()).isEqualTo("skill");
        assertThat(found.path("skills").get(0).path("tools").size()).isEqualTo(2);

        assertThat(run("list", "--category", "skills")).as(err).isZero();
        JsonNode listed = Json.MAPPER.readTree(out);
        assertThat(listed.path("skills_total").asInt()).isEqualTo(1);
        assertThat(listed.path("skills").get(0).path("name").asText()).isEqualTo("expense-report");
        assertThat(listed.path("skills").get(0).path("tools").toString())
                .isEqualTo("[\"gmail__search_emails\",\"gmail__send_email\"]");
        assertThat(run("list")).as(err).isZero();
        assertThat(Json.MAPPER.readTree(out).path("skills_total").asInt()).isEqualTo(1);
        assertThat(run("list", "--category", "calendar")).as(err).isZero();
        assertThat(Json.MAPPER.readTree(out).has("skills")).isFalse();

        // a principal who may see none of its tools sees no skill, in either command
        Path policy = dir.resolve("p.json");
        Files.writeString(policy, "{\"rules\":[{\"effect\":\"deny\",\"source\":\"gmail\",\"group\":\"kids\"}]}");
        assertThat(run("list", "--category", "skills", "--group", "kids", "--policy", policy.toString()))
                .as(err)
                .isZero();
        assertThat(Json.MAPPER.readTree(out).path("skills_total").asInt()).isZero();
        assertThat(run("find", "file my expense report", "--group", "kids", "--policy", policy.toString()))
                .as(err)
                .isZero();
        assertThat(Json.MAPPER.readTree(out).has("skills")).isFalse();
    }

    @Test
    void a_skill_whose_tools_are_missing_says_which_when_added_and_is_listed_with_why_it_is_not_offered()
            throws Exception {
        Path deploy = Files.createDirectories(dir.resolve("skills/deploy-site"));
        Files.writeString(deploy.resolve("SKILL.md"), """
                ---
                name: deploy-site
                description: Build the web site and publish it to the host.
                allowed-tools: netlify__deploy_site
                ---
                Build, then publish with netlify__deploy_site.
                """);
        assertThat(run("skills", "add", deploy.toString())).as(err).isZero();
        assertThat(out)
                .isEqualTo("Added skill deploy-site (1 tool): netlify__deploy_site; not offered until its tools exist: "
                        + "missing tools: netlify__deploy_site\n");
        assertThat(run("skills", "list")).as(err).isZero();
        assertThat(out)
                .startsWith("1 skill (1 not offered: its tools are missing)\n")
                .contains("deploy-site — Build the web site and publish it to the host.\n  tools: (none)\n"
                        + "  not offered: missing tools: netlify__deploy_site\n");

        Path digest = Files.createDirectories(dir.resolve("skills/mail-digest"));
        Files.writeString(digest.resolve("SKILL.md"), """
                ---
                name: mail-digest
                description: Summarise the inbox and post the digest.
                allowed-tools: gmail__search_emails slack__post_digest
                ---
                Search, summarise, post.
                """);
        assertThat(run("skills", "add", digest.toString())).as(err).isZero();
        assertThat(out)
                .isEqualTo(
                        "Added skill mail-digest (2 tools): gmail__search_emails, slack__post_digest; missing tools: "
                                + "slack__post_digest (offered with the others)\n");
        assertThat(run("skills", "list")).as(err).isZero();
        assertThat(out)
                .startsWith("2 skills (1 not offered: its tools are missing)\n")
                .contains("mail-digest — Summarise the inbox and post the digest.\n  tools: gmail__search_emails\n"
                        + "  missing tools: slack__post_digest\n");

        // a skill whose tools all exist says nothing more
        Path mail = Files.createDirectories(dir.resolve("skills/mail"));
        Files.writeString(mail.resolve("SKILL.md"), """
                ---
                name: mail
                description: Send email.
                allowed-tools: gmail__send_email
                ---
                Send it.
                """);
        assertThat(run("skills", "add", mail.toString())).as(err).isZero();
        assertThat(out).isEqualTo("Added skill mail (1 tool): gmail__send_email\n");
    }

    @Test
    void index_source_loads_a_saved_mcp_tools_list_response() throws Exception {
        Path saved = dir.resolve("fs-tools.json");
        // the mapping itself is ToolsListImportTest's (toolscout-engine); here, that the command reads the file
        Files.writeString(saved, """
        {"jsonrpc": "2.0", "id": 1, "result": {"tools": [
          {"name": "read_file", "description": "Reads a file from disk.",
           "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
           "annotations": {"readOnlyHint": true}},
          {"name": "delete-file", "description": "Deletes a file.",
           "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
           "annotations": {"destructiveHint": true}},
          {"name": "write file", "title": "Write a file", "inputSchema": {"type": "object"}}
        ]}}""");
        assertThat(run("index", saved.toString())).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err).contains("index --source NAME FILE");

        assertThat(run("index", "--source", "fs", saved.toString())).as(err).isZero();
        assertThat(out).contains("3 added");
        assertThat(run("find", "delete a file from disk", "--limit", "3")).isZero();
        assertThat(toolNames(Json.MAPPER.readTree(out).get("tools"))).contains("fs__delete-file");
    }
}
