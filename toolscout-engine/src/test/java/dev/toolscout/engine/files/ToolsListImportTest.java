package dev.toolscout.engine.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.model.AiAccess;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.testing.LogCapture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/** A saved MCP tools/list response loads as one source's tools, names prefixed and annotations kept. */
@ResourceLock(LogCapture.LOGGERS)
public class ToolsListImportTest {
    @TempDir
    Path dir;

    /** The shape the MCP spec gives a tools/list result (2025-06-18), as a client would save it. */
    public static final String TOOLS = """
      [
        {"name": "read_file", "title": "Read file", "description": "Reads a file from disk.",
         "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
         "annotations": {"readOnlyHint": true}},
        {"name": "delete-file", "description": "Deletes a file.",
         "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
         "annotations": {"destructiveHint": true, "readOnlyHint": false}},
        {"name": "write file", "title": "Write a file",
         "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}, "text": {"type": "string"}}},
         "outputSchema": {"type": "object"}, "_meta": {"x": 1}}
      ]""";

    private Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private static Map<String, ToolSpec> byName(List<ToolSpec> tools) {
        return tools.stream().collect(Collectors.toMap(ToolSpec::fullName, Function.identity()));
    }

    @Test
    void every_saved_form_loads_with_names_prefixed_and_annotations_mapped() throws Exception {
        List<Path> forms = List.of(
                write("envelope.json", "{\"jsonrpc\": \"2.0\", \"id\": 2, \"result\": {\"tools\": " + TOOLS + "}}"),
                write("result.json", "{\"tools\": " + TOOLS + ", \"nextCursor\": null}"),
                write("bare.json", TOOLS));
        for (Path f : forms) {
            Map<String, ToolSpec> t = byName(CatalogFiles.loadToolsLists(List.of(f), "files"));
            assertThat(t)
                    .as(f.toString())
                    .containsOnlyKeys("files__read_file", "files__delete-file", "files__write_file");

            ToolSpec read = t.get("files__read_file");
            assertThat(read.sideEffect()).isEqualTo(SideEffect.READ);
            assertThat(read.aiAccess()).isEqualTo(AiAccess.EXECUTE);
            assertThat(read.parameters().path("required").get(0).asText()).isEqualTo("path");
            assertThat(read.sourceKind()).isEqualTo(SourceKind.INTEGRATION); // a catalog tool, no server behind it

            ToolSpec delete = t.get("files__delete-file");
            assertThat(delete.sideEffect()).isEqualTo(SideEffect.DELETE);
            assertThat(delete.aiAccess()).isEqualTo(AiAccess.PROPOSE);

            ToolSpec w = t.get("files__write_file");
            assertThat(w.description()).isEqualTo("Write a file"); // the title stands in for a missing description
            assertThat(w.originalName()).isEqualTo("write file"); // kept for the call
            assertThat(w.sideEffect()).isEqualTo(SideEffect.WRITE);
        }
    }

    @Test
    void without_a_source_the_refusal_says_how_to_load_it() throws Exception {
        Path f = write("tools.json", "{\"tools\": " + TOOLS + "}");
        try (LogCapture log = LogCapture.of("dev.toolscout.engine.files")) {
            assertThatThrownBy(() -> CatalogFiles.load(f))
                    .isInstanceOf(CatalogFileException.class)
                    .hasMessageContaining("name must have the form <source>__<action>")
                    .hasMessageContaining("this looks like an MCP tools/list response: load it with "
                            + "`toolscout index --source NAME FILE`");
            // read as a catalog file, the MCP-only keys of the first tool are named before its name is refused
            assertThat(log.warnings())
                    .containsExactlyInAnyOrder(
                            f + ": tools[0] (read_file): ignoring unknown key 'title'",
                            f + ": tools[0] (read_file): ignoring unknown key 'annotations'");
        }
    }

    @Test
    void a_bad_source_or_a_file_without_tools_is_refused_by_name() throws Exception {
        Path f = write("tools.json", TOOLS);
        assertThatThrownBy(() -> CatalogFiles.loadToolsLists(List.of(f), "my files"))
                .isInstanceOf(CatalogFileException.class)
                .hasMessageStartingWith("--source: 'my files' is not a valid source name");
        Path none = write("none.json", "{\"jsonrpc\": \"2.0\", \"id\": 2, \"error\": {\"code\": -32601}}");
        assertThatThrownBy(() -> CatalogFiles.loadToolsLists(List.of(none), "files"))
                .isInstanceOf(CatalogFileException.class)
                .hasMessage(none + ": expected an MCP tools/list response (an object with result.tools or tools, or an "
                        + "array of tools), got: object");
        Path twice = write("twice.json", TOOLS);
        assertThatThrownBy(() -> CatalogFiles.loadToolsLists(List.of(f, twice), "files"))
                .hasMessageContaining("twice.json: [0] (read_file): duplicate tool name, already defined in " + f);
    }
}
