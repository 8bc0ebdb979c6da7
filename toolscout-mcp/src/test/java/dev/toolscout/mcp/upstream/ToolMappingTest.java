package dev.toolscout.mcp.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.McpToolJson;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.testing.LogCapture;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How the tools an MCP server lists become catalog tools: leniently, one bad tool never costing the others.
 * The tools are read from JSON as they arrive on the wire, with the SDK's own mapping.
 */
class ToolMappingTest {
    static final McpJsonMapper JSON = new JacksonMcpJsonMapper(new ObjectMapper());
    static final String NO_SCHEMA = "Tool: missing required fields during deserialization: inputSchema -> {}";

    /** What the mapping says about the tools it changes or skips. */
    LogCapture mapping;
    /** What the SDK says about a listed tool without the fields it requires. */
    LogCapture sdk;

    @BeforeEach
    void capture() {
        mapping = LogCapture.of(McpToolJson.class);
        sdk = LogCapture.of(McpSchema.class);
    }

    @AfterEach
    void release() {
        mapping.close();
        sdk.close();
    }

    static final String SCHEMA = """
      {"type": "object", "properties": {"path": {"type": "string", "description": "File path"}},
       "required": ["path"]}""";

    /** A tools/list result's tools, as JSON text. */
    static List<McpSchema.Tool> tools(String json) {
        try {
            return JSON.readValue(json, new TypeRef<List<McpSchema.Tool>>() {});
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static McpSchema.Tool withHints(String name, String annotations) {
        return tools("[{\"name\": \"" + name + "\", \"description\": \"Does " + name + "\", \"inputSchema\": " + SCHEMA
                        + (annotations == null ? "" : ", \"annotations\": " + annotations) + "}]")
                .get(0);
    }

    static ToolSpec one(McpSchema.Tool t) {
        List<ToolMapping.Mapped> mapped = ToolMapping.map("Files", "files", List.of(t));
        assertThat(mapped).as("mapping of tool %s", t).hasSize(1);
        return mapped.get(0).spec();
    }

    @Test
    void read_only_hint_makes_a_read_tool_that_runs_directly() {
        ToolSpec s = one(withHints("read_file", "{\"readOnlyHint\": true}"));

        assertThat(s.sideEffect()).isEqualTo(SideEffect.READ);
        assertThat(s.aiAccess()).isEqualTo(AiAccess.EXECUTE);
    }

    @Test
    void destructive_hint_makes_a_delete_tool_that_is_proposed_for_approval() {
        ToolSpec s = one(withHints("delete_file", "{\"readOnlyHint\": false, \"destructiveHint\": true}"));

        assertThat(s.sideEffect()).isEqualTo(SideEffect.DELETE);
        assertThat(s.aiAccess()).isEqualTo(AiAccess.PROPOSE);
    }

    @Test
    void read_only_hint_wins_over_a_destructive_hint() {
        // the MCP spec gives destructiveHint meaning only when readOnlyHint is false
        ToolSpec s = one(withHints("stat_file", "{\"readOnlyHint\": true, \"destructiveHint\": true}"));

        assertThat(s.sideEffect()).isEqualTo(SideEffect.READ);
        assertThat(s.aiAccess()).isEqualTo(AiAccess.EXECUTE);
    }

    @Test
    void no_hints_make_a_write_tool_that_runs_directly() {
        for (String annotations : new String[] {
            null, "{}", "{\"title\": \"Write\"}", "{\"readOnlyHint\": false, \"destructiveHint\": false}"
        }) {
            ToolSpec s = one(withHints("write_file", annotations));

            assertThat(s.sideEffect()).as("annotations %s", annotations).isEqualTo(SideEffect.WRITE);
            assertThat(s.aiAccess()).as("annotations %s", annotations).isEqualTo(AiAccess.EXECUTE);
        }
    }

    @Test
    void mapped_tool_is_an_mcp_tool_named_by_server_prefix_that_keeps_the_servers_name_and_schema() {
        List<ToolMapping.Mapped> mapped = ToolMapping.map(
                "Files",
                "files",
                tools("[{\"name\": \"read file\", \"description\": \"Reads a file\", \"inputSchema\": " + SCHEMA
                        + "}]"));

        ToolMapping.Mapped m = mapped.get(0);
        assertThat(m.originalName()).isEqualTo("read file");
        assertThat(m.spec().fullName()).isEqualTo("files__read_file");
        assertThat(m.spec().sourceName()).isEqualTo("read file");
        assertThat(m.spec().sourceKind()).isEqualTo(SourceKind.MCP);
        assertThat(m.spec().category()).isEqualTo("mcp");
        assertThat(m.spec().tags()).containsExactly("files");
        assertThat(m.spec().parameterNames()).containsExactly("path");
        assertThat(m.spec().requiredParameters()).containsExactly("path");
    }

    @Test
    void missing_description_falls_back_to_the_title_then_the_annotation_title_then_the_name() {
        List<ToolMapping.Mapped> mapped = ToolMapping.map("Files", "files", tools("""
        [{"name": "a", "title": "Title of a"},
         {"name": "b", "title": " ", "description": "", "annotations": {"title": "Annotation title of b"}},
         {"name": "list_open-issues"}]"""));

        assertThat(mapped)
                .extracting(m -> m.spec().description())
                .containsExactly("Title of a", "Annotation title of b", "list open issues");
        assertThat(mapping.warnings())
                .containsExactly("MCP server 'Files': tool 'list_open-issues' has no description; its name stands in");
        assertThat(sdk.warnings()).containsExactly(NO_SCHEMA, NO_SCHEMA, NO_SCHEMA);
    }

    @Test
    void description_over_the_limit_is_cut_and_the_tool_kept() {
        String description = "d".repeat(ToolSpec.MAX_DESCRIPTION + 10);

        ToolSpec s = one(tools("[{\"name\": \"long\", \"description\": \"" + description + "\"}]")
                .get(0));

        assertThat(s.description()).hasSize(ToolSpec.MAX_DESCRIPTION);
        assertThat(mapping.warnings())
                .containsExactly("MCP server 'Files': tool 'long' description cut from "
                        + (ToolSpec.MAX_DESCRIPTION + 10) + " to " + ToolSpec.MAX_DESCRIPTION + " characters");
    }

    @Test
    void input_schema_that_is_not_an_object_schema_is_replaced_by_an_empty_one() {
        List<McpSchema.Tool> odd = tools("""
        [{"name": "none", "description": "No schema"},
         {"name": "string", "description": "A string schema", "inputSchema": {"type": "string"}},
         {"name": "nullable", "description": "A type list", "inputSchema": {"type": ["object", "null"]}},
         {"name": "array", "description": "An array schema", "inputSchema": {"type": "array", "items": {}}}]""");

        List<ToolMapping.Mapped> mapped = ToolMapping.map("Files", "files", odd);

        assertThat(mapped)
                .extracting(ToolMapping.Mapped::originalName)
                .containsExactly("none", "string", "nullable", "array");
        assertThat(mapped).allSatisfy(m -> {
            assertThat(m.spec().parameters().path("type").asText())
                    .as(m.originalName())
                    .isEqualTo("object");
            assertThat(m.spec().parameterNames()).as(m.originalName()).isEmpty();
        });
        // a missing schema is the SDK's to say; the mapping names each schema it replaces
        assertThat(sdk.warnings()).containsExactly(NO_SCHEMA);
        assertThat(mapping.warnings())
                .containsExactly(
                        "MCP server 'Files': tool 'string' inputSchema is not an object schema (OBJECT); an empty one"
                                + " stands in",
                        "MCP server 'Files': tool 'nullable' inputSchema is not an object schema (OBJECT); an empty one"
                                + " stands in",
                        "MCP server 'Files': tool 'array' inputSchema is not an object schema (OBJECT); an empty one"
                                + " stands in");
    }

    @Test
    void object_schema_with_parts_the_catalog_rejects_is_replaced_and_the_tool_kept() {
        List<McpSchema.Tool> odd = tools("""
        [{"name": "bool_prop", "description": "A boolean property schema",
          "inputSchema": {"type": "object", "properties": {"anything": true}}},
         {"name": "missing_required", "description": "Requires a property it does not declare",
          "inputSchema": {"type": "object", "properties": {}, "required": ["q"]}}]""");

        List<ToolMapping.Mapped> mapped = ToolMapping.map("Files", "files", odd);

        assertThat(mapped)
                .extracting(ToolMapping.Mapped::originalName)
                .containsExactly("bool_prop", "missing_required");
        assertThat(mapped).allSatisfy(m -> {
            assertThat(m.spec().parameters().path("type").asText())
                    .as(m.originalName())
                    .isEqualTo("object");
            assertThat(m.spec().parameterNames()).as(m.originalName()).isEmpty();
        });
        assertThat(mapping.warnings())
                .containsExactly(
                        "MCP server 'Files': tool 'bool_prop' inputSchema is not usable (tool 'files__bool_prop':"
                                + " parameters.properties.anything must be a schema object, got: true); an empty one"
                                + " stands in",
                        "MCP server 'Files': tool 'missing_required' inputSchema is not usable (tool"
                                + " 'files__missing_required': parameters.required names a parameter that is not in"
                                + " properties: \"q\"); an empty one stands in");
    }

    @Test
    void nameless_and_duplicate_tools_are_skipped_and_the_others_kept() {
        List<McpSchema.Tool> listed = new java.util.ArrayList<>(tools("""
        [{"name": "first", "description": "The first"},
         {"description": "No name"},
         {"name": "  ", "description": "Blank name"},
         {"name": "first", "description": "The first again, different"},
         {"name": "second", "description": "The second"}]"""));
        listed.add(2, null);

        List<ToolMapping.Mapped> mapped = ToolMapping.map("Files", "files", listed);

        Map<String, String> byName = new LinkedHashMap<>();
        mapped.forEach(m -> byName.put(m.spec().fullName(), m.spec().description()));
        // of a duplicate the first is kept; the result follows the server's order
        assertThat(byName)
                .containsExactly(Map.entry("files__first", "The first"), Map.entry("files__second", "The second"));
        assertThat(mapping.warnings())
                .containsExactly(
                        "MCP server 'Files' listed a tool without a name; skipped",
                        "MCP server 'Files' listed a tool without a name; skipped",
                        "MCP server 'Files' listed a tool without a name; skipped",
                        "MCP server 'Files' listed tool 'first' twice; the first is kept");
        assertThat(sdk.warnings())
                .containsExactly(
                        NO_SCHEMA,
                        "Tool: missing required fields during deserialization: name -> '', inputSchema -> {}",
                        NO_SCHEMA,
                        NO_SCHEMA,
                        NO_SCHEMA);
    }
}
