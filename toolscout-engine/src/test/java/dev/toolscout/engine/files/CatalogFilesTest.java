package dev.toolscout.engine.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.model.AiAccess;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.testing.LogCapture;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

@ResourceLock(LogCapture.LOGGERS)
class CatalogFilesTest {
    @TempDir
    Path dir;

    private static final String JSON = """
      {
        "tools": [
          {
            "name": "weather__forecast",
            "description": "Gets the weather forecast for a city.",
            "category": "Travel",
            "tags": ["weather", "forecast"],
            "parameters": {
              "type": "object",
              "properties": {
                "city": {"type": "string", "description": "City name."},
                "days": {"type": "integer", "minimum": 1, "maximum": 14, "default": 3}
              },
              "required": ["city"]
            }
          }
        ],
        "sources": [
          {
            "name": "gmail",
            "kind": "integration",
            "category": "communication",
            "ai_access": "execute",
            "side_effect": "read",
            "tags": ["email"],
            "actions": [
              {
                "name": "search_emails",
                "description": "Searches the mailbox.",
                "parameters": {
                  "type": "object",
                  "properties": {"query": {"type": "string", "description": "Gmail query."}},
                  "required": ["query"]
                }
              },
              {
                "name": "send_email",
                "description": "Sends an email.",
                "ai_access": "propose",
                "side_effect": "write",
                "tags": ["email", "send"],
                "depends_on": ["gmail__search_emails"],
                "parameters": {
                  "type": "object",
                  "properties": {
                    "to": {"type": "array", "items": {"type": "string", "format": "email"}},
                    "body": {"type": "string"}
                  },
                  "required": ["to", "body"]
                }
              }
            ]
          }
        ]
      }
      """;

    private static final String YAML = """
      # the same catalog as JSON, written as a person would write YAML
      tools:
        - name: weather__forecast
          description: Gets the weather forecast for a city.
          category: Travel
          tags: [weather, forecast]
          parameters:
            type: object
            properties:
              city: {type: string, description: City name.}
              days:
                type: integer
                minimum: 1
                maximum: 14
                default: 3
            required: [city]
      sources:
        - name: gmail
          kind: integration
          category: communication
          ai_access: execute
          side_effect: read
          tags: [email]
          actions:
            - name: search_emails
              description: Searches the mailbox.
              parameters:
                type: object
                properties:
                  query: {type: string, description: Gmail query.}
                required: [query]
            - name: send_email
              description: Sends an email.
              ai_access: propose
              side_effect: write
              tags: [email, send]
              depends_on: [gmail__search_emails]
              parameters:
                type: object
                properties:
                  to:
                    type: array
                    items: {type: string, format: email}
                  body: {type: string}
                required: [to, body]
      """;

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    private static Map<String, ToolSpec> byName(List<ToolSpec> specs) {
        return specs.stream().collect(Collectors.toMap(ToolSpec::fullName, Function.identity()));
    }

    // ---------------------------------------------------------------- reading

    @Test
    void json_and_yaml_files_give_equal_specs() throws IOException {
        List<ToolSpec> fromJson = CatalogFiles.load(write("catalog.json", JSON));
        List<ToolSpec> fromYaml = CatalogFiles.load(write("catalog.yaml", YAML));
        List<ToolSpec> fromYml = CatalogFiles.load(write("catalog.yml", YAML));

        assertThat(fromJson)
                .extracting(ToolSpec::fullName)
                .containsExactly("weather__forecast", "gmail__search_emails", "gmail__send_email");
        assertThat(fromYaml).isEqualTo(fromJson);
        assertThat(fromYml).isEqualTo(fromJson);
        assertThat(fromYaml.get(0).contentHash()).isEqualTo(fromJson.get(0).contentHash());
    }

    @Test
    void actions_inherit_source_defaults_and_override_them() throws IOException {
        Map<String, ToolSpec> tools = byName(CatalogFiles.load(write("catalog.json", JSON)));

        ToolSpec search = tools.get("gmail__search_emails");
        assertThat(search.category()).isEqualTo("communication");
        assertThat(search.tags()).containsExactly("email");
        assertThat(search.aiAccess()).isEqualTo(AiAccess.EXECUTE);
        assertThat(search.sideEffect()).isEqualTo(SideEffect.READ);
        assertThat(search.sourceKind()).isEqualTo(SourceKind.INTEGRATION);
        assertThat(search.requiredParameters()).containsExactly("query");

        ToolSpec send = tools.get("gmail__send_email");
        assertThat(send.category()).isEqualTo("communication");
        assertThat(send.aiAccess()).isEqualTo(AiAccess.PROPOSE);
        assertThat(send.sideEffect()).isEqualTo(SideEffect.WRITE);
        assertThat(send.tags()).containsExactly("email", "send");
        assertThat(send.dependsOn()).containsExactly("gmail__search_emails");
    }

    @Test
    void source_kind_and_category_apply_to_every_action_of_a_skill_source() throws IOException {
        Path file = write("skills.yaml", """
            sources:
              - name: morning_briefing
                kind: skill
                category: Routines
                actions:
                  - {name: run, description: Reads today's agenda and unread mail aloud.}
                  - {name: preview, description: Shows what the briefing would say., category: debug}
            """);

        Map<String, ToolSpec> tools = byName(CatalogFiles.load(file));

        assertThat(tools.get("morning_briefing__run").sourceKind()).isEqualTo(SourceKind.SKILL);
        assertThat(tools.get("morning_briefing__run").category()).isEqualTo("routines");
        assertThat(tools.get("morning_briefing__preview").sourceKind()).isEqualTo(SourceKind.SKILL);
        assertThat(tools.get("morning_briefing__preview").category()).isEqualTo("debug");
    }

    @Test
    void tools_without_category_or_access_get_the_model_defaults() throws IOException {
        Path file = write("min.json", """
            {"tools": [{"name": "echo__echo", "description": "Returns its input."}]}
            """);

        ToolSpec echo = CatalogFiles.load(file).get(0);

        assertThat(echo.category()).isEqualTo(ToolSpec.DEFAULT_CATEGORY);
        assertThat(echo.aiAccess()).isEqualTo(AiAccess.EXECUTE);
        assertThat(echo.sideEffect()).isEqualTo(SideEffect.READ);
        assertThat(echo.parameters().path("type").asText()).isEqualTo("object");
    }

    @Test
    void a_bare_array_of_tools_is_a_catalog() throws IOException {
        Path file = write("mcp-export.json", """
            [
              {"name": "web_research__search_web", "description": "Searches the web.",
               "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
              {"name": "web_research__fetch_url", "description": "Fetches a page.",
               "input_schema": {"type": "object", "properties": {"url": {"type": "string"}}},
               "source_kind": "mcp", "original_name": "fetch-url"}
            ]
            """);

        List<ToolSpec> tools = CatalogFiles.load(file);

        assertThat(tools)
                .extracting(ToolSpec::fullName)
                .containsExactly("web_research__search_web", "web_research__fetch_url");
        assertThat(tools.get(0).parameterNames()).containsExactly("q");
        assertThat(tools.get(1).parameterNames()).containsExactly("url");
        assertThat(tools.get(1).sourceKind()).isEqualTo(SourceKind.MCP);
        assertThat(tools.get(1).sourceName()).isEqualTo("fetch-url");
    }

    @Test
    void a_bare_yaml_list_of_tools_is_a_catalog() throws IOException {
        Path file = write("tools.yml", """
            - name: echo__echo
              description: Returns its input.
            """);

        assertThat(CatalogFiles.load(file)).extracting(ToolSpec::fullName).containsExactly("echo__echo");
    }

    @Test
    void load_all_concatenates_files_in_order() throws IOException {
        Path a = write("a.json", JSON);
        Path b = write("b.yaml", """
            tools:
              - {name: echo__echo, description: Returns its input.}
            """);

        assertThat(CatalogFiles.loadAll(List.of(b, a)))
                .extracting(ToolSpec::fullName)
                .containsExactly("echo__echo", "weather__forecast", "gmail__search_emails", "gmail__send_email");
    }

    @Test
    void unknown_keys_inside_a_tool_are_ignored_with_a_warning_naming_the_key() throws IOException {
        Path file = write("mcp.json", """
            {"tools": [{"name": "web__search", "description": "Searches the web.",
                        "annotations": {"readOnlyHint": true}, "title": "Web search"}]}
            """);
        try (dev.toolscout.testing.LogCapture log = dev.toolscout.testing.LogCapture.of("dev.toolscout.engine.files")) {
            List<ToolSpec> tools = CatalogFiles.load(file);

            assertThat(tools).extracting(ToolSpec::fullName).containsExactly("web__search");
            assertThat(log.warnings())
                    .anySatisfy(m -> assertThat(m).contains("mcp.json", "tools[0] (web__search)", "'annotations'"))
                    .anySatisfy(m -> assertThat(m).contains("'title'"));
        }
    }

    // ---------------------------------------------------------------- errors

    @Test
    void verbs_are_refused_in_catalog_files_by_source_and_by_kind() throws IOException {
        Path bySource = write("a.json", "{\"tools\": [{\"name\": \"verbs__SEARCH\", \"description\": \"d\"}]}");
        assertThatThrownBy(() -> CatalogFiles.load(bySource))
                .isInstanceOf(CatalogFileException.class)
                .hasMessage(
                        bySource + ": tools[0] (verbs__SEARCH): the source 'verbs' and the kind 'verb' are reserved for"
                                + " verbs, registered with `toolscout verbs register FILE`");
        Path byKind = write("b.yaml", """
        sources:
          - {name: web, kind: verb, actions: [{name: search, description: d}]}
        """);
        assertThatThrownBy(() -> CatalogFiles.load(byKind))
                .hasMessageContaining(
                        "sources[0].actions[0] (web__search): the source 'verbs' and the kind 'verb' are");
    }

    @Test
    void the_engines_own_sources_are_refused_in_catalog_files_but_discovery_and_memory_may_be_described()
            throws IOException {
        // issue 30, item 4: one list of reserved sources (ReservedSources) for servers, imports and catalogs
        Path skills = write("s.json", "{\"tools\": [{\"name\": \"skills__activate\", \"description\": \"d\"}]}");
        assertThatThrownBy(() -> CatalogFiles.load(skills))
                .isInstanceOf(CatalogFileException.class)
                .hasMessage(skills
                        + ": tools[0] (skills__activate): tool 'skills__activate' gives source 'skills', which is "
                        + "reserved for ToolScout's own tools (skills__*: skills__activate; reserved: mcp, tool_discovery, skills, "
                        + "memory, verbs); a catalog may describe only memory and tool_discovery tools");
        Path mcp = write("m.yaml", """
        sources:
          - {name: mcp, actions: [{name: call_tool, description: d}]}
        """);
        assertThatThrownBy(() -> CatalogFiles.load(mcp))
                .hasMessageContaining(
                        "sources[0].actions[0] (mcp__call_tool): tool 'mcp__call_tool' gives source 'mcp'");
        Path otherCase = write("c.json", "{\"tools\": [{\"name\": \"Skills__activate\", \"description\": \"d\"}]}");
        assertThatThrownBy(() -> CatalogFiles.load(otherCase))
                .hasMessageContaining("tool 'Skills__activate' gives source 'Skills', which is reserved");
        Path memoryAsMcp = write(
                "k.json",
                "{\"tools\": [{\"name\": \"memory__store\", \"description\": \"d\", \"source_kind\": \"mcp\"}]}");
        assertThatThrownBy(() -> CatalogFiles.load(memoryAsMcp))
                .hasMessageEndingWith("a catalog may describe memory tools only as source_kind integration, got: mcp");
        Path described =
                write("d.json", "{\"tools\": [{\"name\": \"memory__store\", \"description\": \"Remember a fact\"}]}");
        assertThat(CatalogFiles.load(described)).extracting(ToolSpec::fullName).containsExactly("memory__store");
        assertThat(CatalogFiles.demo()).anyMatch(t -> t.name().source().equals("tool_discovery"));
    }

    @Test
    void an_mcp_tools_list_is_not_loaded_under_an_engine_source() throws IOException {
        Path list = write("tools.json", "{\"tools\": [{\"name\": \"activate\", \"inputSchema\": {}}]}");
        for (String source : List.of("skills", "memory", "mcp", "tool_discovery", "verbs")) {
            assertThatThrownBy(() -> CatalogFiles.loadToolsLists(List.of(list), source))
                    .as(source)
                    .isInstanceOf(CatalogFileException.class)
                    .hasMessageStartingWith("--source: source name '" + source + "' gives tool prefix '" + source
                            + "', which is reserved for ToolScout's own tools");
        }
    }

    @Test
    void examples_and_output_schemas_load_without_warnings() throws IOException {
        Path file = write("c.json", """
        {"tools": [{"name": "web__search", "description": "Searches the web.", "examples": ["find cafes"],
                    "outputSchema": [{"name": "results", "type": "list"}]}]}
        """);
        try (LogCapture log = LogCapture.of("dev.toolscout.engine.files")) {
            ToolSpec t = CatalogFiles.load(file).get(0);
            assertThat(t.examples()).containsExactly("find cafes");
            assertThat(t.outputSchema().at("/properties/results/type").asText()).isEqualTo("array");
            assertThat(log.warnings()).isEmpty();
        }
    }

    @Test
    void blank_action_description_names_file_position_tool_and_field() throws IOException {
        Path file = write("catalog.yaml", """
            sources:
              - name: calendar
                actions:
                  - {name: list_events, description: Lists events.}
              - name: gmail
                actions:
                  - {name: read, description: Reads an email.}
                  - {name: draft, description: Drafts an email.}
                  - {name: archive, description: Archives an email.}
                  - {name: send, description: "  "}
            """);

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessageEndingWith(
                        "catalog.yaml: sources[1].actions[3] (gmail__send): description is required and must"
                                + " not be blank")
                .satisfies(e -> assertThat(((CatalogFileException) e).file()).isEqualTo(file.toString()));
    }

    @Test
    void missing_description_in_a_tools_entry_names_its_position() throws IOException {
        Path file = write("catalog.json", """
            {"tools": [{"name": "a__one", "description": "One."}, {"name": "a__two"}]}
            """);

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessageEndingWith("catalog.json: tools[1] (a__two): description is required and must not be blank");
    }

    @Test
    void bad_enum_value_names_the_field_the_allowed_values_and_the_value() throws IOException {
        Path file = write("catalog.json", """
            {"tools": [{"name": "a__one", "description": "One.", "ai_access": "sometimes"}]}
            """);

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessageEndingWith("catalog.json: tools[0] (a__one): ai_access must be one of [execute, propose,"
                        + " blocked], got: 'sometimes'");
    }

    @Test
    void bad_source_default_is_reported_at_the_source_not_at_an_action() throws IOException {
        Path file = write("catalog.yaml", """
            sources:
              - name: gmail
                side_effect: explode
                actions:
                  - {name: send, description: Sends.}
            """);

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessageEndingWith(
                        "catalog.yaml: sources[0] (gmail): side_effect must be one of [read, write, delete],"
                                + " got: 'explode'");
    }

    @Test
    void schema_rule_breaks_name_the_schema_field() throws IOException {
        Path file = write("catalog.json", """
            {"tools": [{"name": "a__one", "description": "One.",
              "parameters": {"type": "object", "properties": {"x": {"type": "string"}},
                             "required": ["y"]}}]}
            """);

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessageEndingWith(
                        "catalog.json: tools[0] (a__one): parameters.required names a parameter that is not in"
                                + " properties: \"y\"");
    }

    @Test
    void invalid_tool_name_is_named_with_the_rule() throws IOException {
        Path file = write("catalog.json", """
            {"tools": [{"name": "send email", "description": "Sends."}]}
            """);

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessageContaining("catalog.json: tools[0] (send email): name must have the form")
                .hasMessageContaining("got: 'send email'");
    }

    @Test
    void invalid_source_name_is_named_at_the_source() throws IOException {
        Path file = write("catalog.json", """
            {"sources": [{"name": "g mail", "actions": []}]}
            """);

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessageContaining("catalog.json: sources[0] (g mail): name source part must match")
                .hasMessageContaining("got: 'g mail'");
    }

    @Test
    void action_name_that_repeats_the_source_prefix_is_rejected_with_the_fix() throws IOException {
        Path file = write("catalog.json", """
            {"sources": [{"name": "gmail",
                          "actions": [{"name": "gmail__send", "description": "Sends."}]}]}
            """);

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessageEndingWith(
                        "catalog.json: sources[0].actions[0] (gmail__send): name must be the action alone (the"
                                + " source adds its prefix), got: 'gmail__send', expected: 'send'");
    }

    @Test
    void source_without_actions_is_an_error() throws IOException {
        Path file = write("catalog.json", "{\"sources\": [{\"name\": \"gmail\"}]}");

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessageEndingWith("catalog.json: sources[0] (gmail): actions is required and must be an array of"
                        + " actions, got: nothing");
    }

    @Test
    void schema_given_under_two_spellings_is_an_error() throws IOException {
        Path file = write("catalog.json", """
            {"tools": [{"name": "a__one", "description": "One.",
                        "parameters": {"type": "object"}, "inputSchema": {"type": "object"}}]}
            """);

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessageEndingWith(
                        "catalog.json: tools[0] (a__one): give the input schema once, found both parameters"
                                + " and inputSchema");
    }

    @Test
    void malformed_json_names_the_file_line_and_column() throws IOException {
        Path file = write("broken.json", """
            {"tools": [
              {"name": "a__one", "description": "One."
              {"name": "a__two", "description": "Two."}
            ]}
            """);

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessageContaining("broken.json: malformed JSON at line 3, column 3: ");
    }

    @Test
    void malformed_yaml_names_the_file_line_and_column() throws IOException {
        Path file = write("broken.yaml", """
            tools:
              - name: a__one
                description: One.
               bad indentation: here
            """);

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessage(file
                        + ": malformed YAML at line 4, column 4: expected <block end>, but found '<block"
                        + " mapping start>' (while parsing a block collection that starts at line 2,"
                        + " column 3)");
    }

    @Test
    void repeated_key_is_malformed_with_its_line_in_json_and_yaml() throws IOException {
        Path json = write("dup-key.json", """
            {"tools": [
              {"name": "a__one",
               "description": "One.",
               "description": "Two."}
            ]}
            """);
        Path yaml = write("dup-key.yaml", """
            tools:
              - name: a__one
                description: One.
                description: Two.
            """);

        assertThatThrownBy(() -> CatalogFiles.load(json))
                .isInstanceOf(CatalogFileException.class)
                .hasMessage(json + ": malformed JSON at line 4, column 17: Duplicate field 'description'");
        assertThatThrownBy(() -> CatalogFiles.load(yaml))
                .isInstanceOf(CatalogFileException.class)
                .hasMessage(yaml + ": malformed YAML at line 4, column 16: Duplicate field 'description'");
    }

    @Test
    void text_after_the_document_is_malformed() throws IOException {
        Path file = write("trailing.json", "{\"tools\": []} {\"tools\": []}");

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessageStartingWith(file + ": malformed JSON at line 1, column ")
                .hasMessageEndingWith(": a catalog file holds one document, found more content after it");
    }

    @Test
    void second_yaml_document_is_malformed() throws IOException {
        Path file = write("two.yaml", "tools: []\n---\ntools: []\n");

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessage(file
                        + ": malformed YAML at line 3, column 1: a catalog file holds one document, found"
                        + " more content after it");
    }

    @Test
    void control_characters_from_the_file_are_escaped_and_long_names_cut_short() throws IOException {
        String longName = "a__" + "x".repeat(200);
        Path file = write(
                "odd.json",
                "{\"tools\": [{\"name\": \"a__one\\nINFO forged\", \"description\": \"One.\"},"
                        + " {\"name\": \""
                        + longName
                        + "\"}]}");

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessageStartingWith(file + ": tools[0] (a__one\\u000aINFO forged): name action part")
                .message()
                .doesNotContain("\n");
        Files.writeString(file, "[{\"name\": \"" + longName + "\"}]");
        assertThatThrownBy(() -> CatalogFiles.load(file))
                .hasMessageStartingWith(file + ": [0] (" + longName.substring(0, 80) + "... (203 characters)): ");
    }

    @Test
    void yaml_alias_is_refused_rather_than_loaded_as_its_name() throws IOException {
        Path file = write("alias.yaml", """
            tools:
              - name: a__one
                description: &shared Reads one thing.
              - name: a__two
                description: *shared
            """);

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessage(file
                        + ": malformed YAML at line 5, column 18: YAML aliases are not supported, got:"
                        + " *shared (repeat the anchored value instead)");
    }

    @Test
    void missing_file_is_named() {
        Path file = dir.resolve("nowhere.yaml");

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessage(file + ": file not found");
    }

    @Test
    void directory_is_not_a_catalog_file() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("catalog.json"));

        assertThatThrownBy(() -> CatalogFiles.load(sub))
                .isInstanceOf(CatalogFileException.class)
                .hasMessage(sub + ": is a directory, expected a catalog file");
    }

    @Test
    void unsupported_extension_lists_the_supported_ones() throws IOException {
        Path file = write("catalog.toml", "tools = []");

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessage(file + ": unsupported file type, expected a name ending in .json, .yaml or .yml");
    }

    @Test
    void file_over_the_size_limit_is_refused_before_parsing() throws IOException {
        Path file = dir.resolve("huge.json");
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(CatalogFiles.MAX_FILE_BYTES + 1); // sparse: no bytes are written
        }

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessage(file
                        + ": file is "
                        + (CatalogFiles.MAX_FILE_BYTES + 1)
                        + " bytes, more than the limit of "
                        + CatalogFiles.MAX_FILE_BYTES
                        + " bytes");
    }

    @Test
    void empty_file_is_an_error_naming_the_expected_shape() throws IOException {
        Path file = write("empty.yaml", "# nothing yet\n");

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessage(file
                        + ": file is empty, expected an object with 'tools', 'sources' and/or 'skills' or an array of"
                        + " tools");
    }

    @Test
    void scalar_document_is_an_error_naming_the_expected_shape() throws IOException {
        Path file = write("scalar.json", "\"tools\"");

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessage(file
                        + ": expected an object with 'tools', 'sources' and/or 'skills' or an array of tools, got:"
                        + " string");
    }

    @Test
    void unknown_top_level_key_is_an_error_listing_the_allowed_keys() throws IOException {
        Path file = write("catalog.yaml", """
            tool:
              - {name: a__one, description: One.}
            """);

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessage(file + ": unknown top-level key 'tool' (allowed: 'tools', 'sources' and/or 'skills')");
    }

    @Test
    void tools_that_is_not_an_array_is_an_error() throws IOException {
        Path file = write("catalog.json", "{\"tools\": {\"name\": \"a__one\"}}");

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessage(file + ": tools must be an array of tools, got: object");
    }

    @Test
    void duplicate_tool_within_a_file_names_both_positions() throws IOException {
        Path file = write("catalog.json", """
            {"tools": [{"name": "gmail__send", "description": "Sends."}],
             "sources": [{"name": "gmail",
                          "actions": [{"name": "read", "description": "Reads."},
                                      {"name": "send", "description": "Sends again."}]}]}
            """);

        assertThatThrownBy(() -> CatalogFiles.load(file))
                .isInstanceOf(CatalogFileException.class)
                .hasMessage(file
                        + ": sources[0].actions[1] (gmail__send): duplicate tool name, already defined at"
                        + " tools[0]");
    }

    @Test
    void duplicate_tool_across_files_names_both_files_and_the_tool() throws IOException {
        Path a = write("a.json", JSON);
        Path b = write("b.yaml", """
            tools:
              - {name: echo__echo, description: Returns its input.}
              - {name: gmail__send_email, description: Sends an email another way.}
            """);

        assertThatThrownBy(() -> CatalogFiles.loadAll(List.of(a, b)))
                .isInstanceOf(CatalogFileException.class)
                .hasMessage(b
                        + ": tools[1] (gmail__send_email): duplicate tool name, already defined in "
                        + a
                        + " at sources[0].actions[1]")
                .satisfies(e -> assertThat(((CatalogFileException) e).file()).isEqualTo(b.toString()));
    }

    @Test
    void demo_catalog_loads_from_the_classpath() {
        assertThat(CatalogFiles.demo()).isNotEmpty().isEqualTo(CatalogFiles.demo());
    }

    /** A fixture in the shape of public catalogs (BFCL, ToolBench): Python-style types, a schema without type. */
    private static Path pythonTypesFixture() throws Exception {
        return Path.of(CatalogFilesTest.class
                .getResource("/catalogs/python-types.json")
                .toURI());
    }

    @Test
    void dict_typed_tools_keep_their_parameter_text_and_get_json_schema_types() throws Exception {
        CatalogFiles.Loaded loaded = CatalogFiles.readAll(List.of(pythonTypesFixture()));

        Map<String, ToolSpec> byName =
                loaded.tools().stream().collect(Collectors.toMap(ToolSpec::fullName, Function.identity()));
        ToolSpec flight = byName.get("travel__book_flight");
        assertThat(flight.parameterNames())
                .containsExactly(
                        "origin",
                        "destination",
                        "passengers",
                        "max_price",
                        "refundable",
                        "stops",
                        "preferences",
                        "window",
                        "notes");
        assertThat(flight.requiredParameters()).containsExactly("origin", "destination");
        assertThat(dev.toolscout.indexing.ToolText.parameterText(flight))
                .contains(
                        "IATA code of the departure airport",
                        "Number of travellers",
                        "Window or aisle seat",
                        "Anything for the agent");
        assertThat(dev.toolscout.indexing.ToolText.embeddingText(flight)).contains("Parameters: origin, destination");
        var props = flight.parameters().get("properties");
        assertThat(flight.parameters().get("type").asText()).isEqualTo("object");
        assertThat(props.get("origin").get("type").asText()).isEqualTo("string");
        assertThat(props.get("passengers").get("type").asText()).isEqualTo("integer");
        assertThat(props.get("max_price").get("type").asText()).isEqualTo("number");
        assertThat(props.get("refundable").get("type").asText()).isEqualTo("boolean");
        assertThat(props.get("stops").get("type").asText()).isEqualTo("array");
        assertThat(props.get("preferences").get("type").asText()).isEqualTo("object");
        assertThat(props.get("window").get("type").asText()).isEqualTo("array");
        assertThat(props.get("notes").has("type")).isFalse();
        assertThat(byName.get("travel__hotel_search").parameterNames()).containsExactly("city", "nights");
    }

    @Test
    void a_tool_whose_schema_cannot_be_read_keeps_its_description_and_is_counted_and_named() throws Exception {
        Path fixture = pythonTypesFixture();

        CatalogFiles.Loaded loaded = CatalogFiles.readAll(List.of(fixture));

        ToolSpec currency = loaded.tools().stream()
                .filter(t -> t.fullName().equals("travel__currency"))
                .findFirst()
                .orElseThrow();
        assertThat(currency.description()).isEqualTo("Convert an amount between currencies.");
        assertThat(currency.parameterNames()).isEmpty();
        assertThat(loaded.unreadableSchemas())
                .containsExactly(fixture + " at tools[2] (travel__currency): parameters: "
                        + "type must be an object type (object or dict), got: \"string\"");
        assertThat(loaded.warning())
                .startsWith("warning: 1 tool has a parameter schema that could not be read")
                .contains("travel__currency");
    }

    @Test
    void a_skills_section_loads_skills_beside_the_tools_and_a_bad_skill_is_refused_naming_the_file_and_entry()
            throws IOException {
        Path file = write("with-skills.yaml", """
        tools:
          - {name: database__remove_feature, description: Remove a feature by its id.}
        skills:
          - name: database
            description: Manage stored features.
            documentation: Use database__remove_feature.
            tools: [database__remove_feature]
        """);
        Path bad = write("bad-skill.yaml", """
        skills:
          - {name: database, description: ok}
          - {name: Bad_Name, description: d}
        """);

        assertThat(CatalogFiles.load(file)).extracting(ToolSpec::fullName).containsExactly("database__remove_feature");
        List<dev.toolscout.skills.Skill> skills = CatalogFiles.loadSkills(List.of(file));
        assertThat(skills).hasSize(1);
        assertThat(skills.get(0).tools()).containsExactly("database__remove_feature");
        assertThat(skills.get(0).source().kind()).isEqualTo(dev.toolscout.skills.Skill.Source.Kind.CATALOG_FILE);
        assertThatThrownBy(() -> CatalogFiles.loadSkills(List.of(bad)))
                .isInstanceOf(dev.toolscout.skills.InvalidSkillException.class)
                .hasMessage(
                        bad + " at skills[1]: skill 'Bad_Name': name must hold only lower-case letters a-z, digits and "
                                + "hyphens, got: 'Bad_Name'");
        assertThatThrownBy(() -> CatalogFiles.loadSkills(List.of(file, file)))
                .hasMessageContaining("name is taken: the skill is already defined at " + file + " at skills[0]");
    }
}
