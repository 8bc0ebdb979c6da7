package dev.toolscout.engine.internal;

import dev.toolscout.approval.Approvals;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.openapi.OpenApiSources;
import dev.toolscout.runs.RunStore;
import dev.toolscout.runs.UsageStore;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What {@link LocalToolScout} gives over its engine besides selection, search and the catalog: the narrow services
 * of {@link dev.toolscout.engine.ToolScout} the agent loop, the HTTP API and the CLI use (approvals, runs and usage,
 * access checks, OpenAPI sources), and the guards every call goes through (open, writable). Thread-safe.
 */
abstract class EngineServices {
  final Engine engine;
  final AtomicBoolean closed = new AtomicBoolean();
  private final OpenApiSources openApiSources;

  EngineServices(Engine engine) {
    this.engine = engine;
    this.openApiSources = new LocalOpenApiSources(engine);
  }

  void open() {
    if (closed.get()) {
      throw new IllegalStateException("this ToolScout is closed (data directory " + engine.dataDir() + ")");
    }
  }

  /** Open and not read-only, or a clear error naming what was refused. */
  void writable(String what) {
    open();
    if (engine.readOnly()) {
      throw new IllegalStateException("cannot " + what + ": this ToolScout opened data directory "
          + engine.dataDir() + " with readOnly(true), and writes nothing there");
    }
  }

  static Principal who(Principal p) {
    return p == null ? Principal.ANONYMOUS : p;
  }

  public boolean readOnly() {
    return engine.readOnly();
  }

  public Approvals approvals() {
    return engine.approvals();
  }

  public RunStore runs() {
    return engine.store();
  }

  public UsageStore usage() {
    return engine.store();
  }

  public boolean allows(Principal principal, ToolSpec tool) {
    return engine.access().allows(who(principal), tool);
  }

  public Optional<ToolSpec> visibleTool(Principal principal, ToolSpec tool) {
    ToolSpec described = engine.catalog().get(tool.fullName()).map(CatalogEntry::spec).orElse(tool);
    return engine.access().allows(who(principal), described) ? Optional.of(described) : Optional.empty();
  }

  public OpenApiSources openApiSources() {
    return openApiSources;
  }
}
