package dev.toolscout.openapi;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.model.ToolSpec;
import java.util.List;
import java.util.Optional;

/**
 * The imported OpenAPI documents ({@code toolscout index --openapi}, {@code docs/OPENAPI.md}): each source's stored
 * configuration (base URL, credential, operations, as JSON the agent module reads and writes) and its tools in the
 * catalog. Thread-safe.
 */
public interface OpenApiSources {
    /** The configuration stored for {@code source}, as JSON, if it was imported before. */
    Optional<String> configuration(String source);

    /**
     * Stores an import: the configuration, then {@code tools} in one catalog change, replacing the tools an earlier
     * import of {@code source} had. The configuration goes first: a tool in the catalog always finds how it is
     * called.
     *
     * @throws IllegalArgumentException when the source name is the tool prefix of an MCP server or holds tools of
     *     another kind; nothing is written
     * @throws IllegalStateException when the store was opened read-only
     */
    Catalog.Change put(String source, String configurationJson, List<ToolSpec> tools);
}
