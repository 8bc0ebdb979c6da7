package dev.toolscout.agent.openapi;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.engine.ToolScout;
import java.util.Optional;

/**
 * Stores an imported document: the source's configuration with the catalog, then its tools, replacing the
 * tools an earlier import of the same source had (an operation gone from the document is a tool gone from the
 * catalog). A source name already used by a catalog file's tools or by an MCP server is refused before anything
 * is written.
 */
public final class OpenApiImport {
    private OpenApiImport() {}

    /**
     * The configuration stored for {@code source}, if it was imported before.
     *
     * @throws IllegalArgumentException when the stored JSON cannot be read
     */
    public static Optional<OpenApiSource> stored(ToolScout scout, String source) {
        return scout.openApiSources().configuration(source).map(OpenApiSourceJson::read);
    }

    /**
     * Writes {@code imported}: the configuration, then the tools in one catalog change.
     *
     * @throws IllegalArgumentException when the source name is taken by an MCP server or by tools of another kind;
     *     nothing is written
     */
    public static Catalog.Change apply(ToolScout scout, OpenApiImporter.Imported imported) {
        return scout.openApiSources()
                .put(imported.source().name(), OpenApiSourceJson.write(imported.source()), imported.tools());
    }
}
