package dev.toolscout.engine;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolNaming;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.openapi.OpenApiSources;
import dev.toolscout.servers.ServerStore.StoredServer;
import java.util.List;
import java.util.Optional;

/** {@link OpenApiSources} over an engine's store and catalog. Thread-safe. */
final class LocalOpenApiSources implements OpenApiSources {
    private final Engine engine;

    LocalOpenApiSources(Engine engine) {
        this.engine = engine;
    }

    @Override
    public Optional<String> configuration(String source) {
        return engine.store().loadOpenApiSource(source);
    }

    @Override
    public Catalog.Change put(String source, String configurationJson, List<ToolSpec> tools) {
        for (StoredServer s : engine.store().loadServers()) {
            if (ToolNaming.serverPrefix(s.name()).equals(source)) {
                throw new IllegalArgumentException("source '" + source + "' is the tool prefix of the MCP server '"
                        + s.name() + "'; pick another source name; nothing was changed");
            }
        }
        List<String> others = engine.sourceToolsOfAnotherKind(source, SourceKind.OPENAPI);
        if (!others.isEmpty()) {
            throw new IllegalArgumentException("source '" + source + "' already holds " + others.size()
                    + " tool(s) that "
                    + "are not from an OpenAPI document ("
                    + String.join(", ", others.subList(0, Math.min(3, others.size())))
                    + "); pick another source name; nothing was changed");
        }
        // the configuration first: a tool in the catalog always finds how it is called (a crash in between leaves the
        // new configuration with the old tools, whose operations it still holds unless the document dropped them)
        engine.store().saveOpenApiSource(source, configurationJson);
        return engine.replaceSourceTools(source, SourceKind.OPENAPI, tools);
    }
}
