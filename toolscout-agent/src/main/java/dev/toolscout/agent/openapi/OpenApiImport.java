package dev.toolscout.agent.openapi;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.StateStore.StoredServer;
import dev.toolscout.engine.internal.Engine;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolNaming;
import java.util.List;
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
  public static Optional<OpenApiSource> stored(Engine engine, String source) {
    return engine.store().loadOpenApiSource(source).map(OpenApiSourceJson::read);
  }

  /**
   * Writes {@code imported}: the configuration, then the tools in one catalog change.
   *
   * @throws IllegalArgumentException when the source name is taken by an MCP server or by tools of another kind;
   *     nothing is written
   */
  public static Catalog.Change apply(Engine engine, OpenApiImporter.Imported imported) {
    String source = imported.source().name();
    for (StoredServer s : engine.store().loadServers()) {
      if (ToolNaming.serverPrefix(s.name()).equals(source)) {
        throw new IllegalArgumentException("source '" + source + "' is the tool prefix of the MCP server '" + s.name()
            + "'; pick another source name; nothing was changed");
      }
    }
    List<String> others = engine.sourceToolsOfAnotherKind(source, SourceKind.OPENAPI);
    if (!others.isEmpty()) {
      throw new IllegalArgumentException("source '" + source + "' already holds " + others.size() + " tool(s) that "
          + "are not from an OpenAPI document (" + String.join(", ", others.subList(0, Math.min(3, others.size())))
          + "); pick another source name; nothing was changed");
    }
    // the configuration first: a tool in the catalog always finds how it is called (a crash in between leaves the
    // new configuration with the old tools, whose operations it still holds unless the document dropped them)
    engine.store().saveOpenApiSource(source, OpenApiSourceJson.write(imported.source()));
    return engine.replaceSourceTools(source, SourceKind.OPENAPI, imported.tools());
  }
}
