package dev.toolscout.engine.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.PolicyCheck;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.catalog.CatalogEvent;
import dev.toolscout.discovery.DiscoveryResult;
import dev.toolscout.discovery.DiscoveryTools;
import dev.toolscout.engine.CatalogChange;
import dev.toolscout.engine.FindResult;
import dev.toolscout.engine.RenderFormat;
import dev.toolscout.engine.SelectRequest;
import dev.toolscout.engine.SelectResult;
import dev.toolscout.engine.Subscription;
import dev.toolscout.engine.ToolPage;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.index.AllowedSet;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.render.SystemPrompt;
import dev.toolscout.render.ToolRenderer;
import dev.toolscout.selection.Selection;
import dev.toolscout.selection.Selector;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link ToolScout} over one {@link Engine}, in this process. Not API: build one with {@link
 * ToolScout#builder()}. The server reaches the engine behind it through {@link #engine()} for what the API
 * does not cover (the MCP gateway).
 */
public final class LocalToolScout implements ToolScout {
  private static final Logger LOG = LoggerFactory.getLogger(LocalToolScout.class);
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private final Engine engine;
  private final List<Consumer<List<CatalogEvent>>> listeners = new CopyOnWriteArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  /** Writes through this API one at a time, so remove's all-or-none check holds until its write. */
  private final Object writes = new Object();

  private LocalToolScout(Engine engine) {
    this.engine = engine;
    engine.events().subscribe(this::deliver);
  }

  /** Opens an engine with {@code options} and serves the API over it; closing this closes the engine. */
  public static LocalToolScout open(Engine.Options options) throws IOException {
    return new LocalToolScout(Engine.open(options));
  }

  /** The engine behind this instance (for the server's MCP gateway; not API). */
  public Engine engine() {
    return engine;
  }

  private void open() {
    if (closed.get()) {
      throw new IllegalStateException("this ToolScout is closed (data directory " + engine.dataDir() + ")");
    }
  }

  /** Open and not read-only, or a clear error naming what was refused. */
  private void writable(String what) {
    open();
    if (engine.readOnly()) {
      throw new IllegalStateException("cannot " + what + ": this ToolScout opened data directory "
          + engine.dataDir() + " with readOnly(true), and writes nothing there");
    }
  }

  private static Principal who(Principal p) {
    return p == null ? Principal.ANONYMOUS : p;
  }

  @Override
  public SelectResult select(SelectRequest request) {
    open();
    Principal p = who(request.principal());
    Selection s = engine.selector().select(
        new Selector.Request(request.message(), p, request.k(), request.tokenBudget()));
    return result(s, p);
  }

  /** A selection as the API's result, with its token counts and only visible dependencies named. */
  private SelectResult result(Selection s, Principal p) {
    Catalog.Snapshot snap = engine.catalog().snapshot();
    AllowedSet allowed = engine.access().allowed(snap, p);
    long all = engine.tokens().allowedTokens(snap, allowed);
    // the engine's own discovery tool, when offered, is sent with "all" too: count it on both sides
    for (Selection.SelectedTool t : s.selected()) {
      if (snap.get(t.name()) == null) {
        all += engine.tokens().definitionTokens(t.spec());
      }
    }
    List<SelectResult.SelectedTool> tools = new ArrayList<>(s.selected().size());
    for (Selection.SelectedTool t : s.selected()) {
      tools.add(new SelectResult.SelectedTool(
          t.name(), t.score(), t.reason(), t.core(), visibleDependencies(t.spec(), snap, allowed)));
    }
    return new SelectResult(tools, s.coreIncluded(), s.excludedCount(), s.visibleCount(), s.reason(),
        s.discoverySuggested(), SelectResult.Tokens.of(engine.tokens().definitionTokens(s.specs()), all));
  }

  /** {@code spec} naming only the dependencies the principal may see (a denied name must not show). */
  private static ToolSpec visibleDependencies(ToolSpec spec, Catalog.Snapshot snap, AllowedSet allowed) {
    if (spec.dependsOn().isEmpty()) {
      return spec;
    }
    List<String> visible = new ArrayList<>();
    for (String d : spec.dependsOn()) {
      CatalogEntry e = snap.get(d);
      if (e != null && allowed.contains(e.ord())) {
        visible.add(d);
      }
    }
    return visible.size() == spec.dependsOn().size() ? spec : spec.toBuilder().dependsOn(visible).build();
  }

  @Override
  public JsonNode render(SelectResult result, RenderFormat format) {
    Selection s = selection(result);
    ObjectNode n = F.objectNode();
    switch (format) {
      case JSON -> {
        ArrayNode sel = n.putArray("selected");
        for (SelectResult.SelectedTool t : result.selected()) {
          sel.addObject().put("name", t.name()).put("score", t.score()).put("reason", t.reason());
        }
        ArrayNode core = n.putArray("core_included");
        result.coreIncluded().forEach(core::add);
        n.put("excluded_count", result.excludedCount());
        n.put("reason", result.reason());
        n.put("discovery_suggested", result.discoverySuggested());
        ObjectNode tok = n.putObject("tokens");
        tok.put("selected", result.tokens().selected());
        tok.put("all", result.tokens().all());
        tok.put("saved_pct", result.tokens().savedPct());
      }
      case ANTHROPIC -> {
        n.put("system", SystemPrompt.section(s));
        n.set("tools", ToolRenderer.anthropic(s.specs()));
      }
      case OPENAI -> {
        ArrayNode msgs = n.putArray("messages");
        msgs.addObject().put("role", "system").put("content", SystemPrompt.section(s));
        n.set("tools", ToolRenderer.openai(s.specs()));
      }
      case MCP -> n.set("tools", ToolRenderer.mcp(s.specs()));
    }
    return n;
  }

  private static Selection selection(SelectResult r) {
    List<Selection.SelectedTool> tools = new ArrayList<>(r.selected().size());
    for (SelectResult.SelectedTool t : r.selected()) {
      tools.add(new Selection.SelectedTool(t.spec(), t.score(), t.reason(), t.core()));
    }
    return new Selection(tools, r.coreIncluded(), r.excludedCount(), r.visibleCount(), r.reason(),
        r.discoverySuggested());
  }

  @Override
  public FindResult find(Principal principal, String query, Integer limit) {
    open();
    JsonNode out = ok(engine.discovery().find(who(principal), query, limit));
    List<FindResult.ToolMatch> tools = new ArrayList<>();
    for (JsonNode t : out.path("tools")) {
      tools.add(new FindResult.ToolMatch(t.path("name").asText(), t.path("description").asText(),
          t.path("category").asText(), AiAccess.valueOf(t.path("ai_access").asText().toUpperCase(Locale.ROOT)),
          t.path("score").asDouble()));
    }
    return new FindResult(query, tools);
  }

  /** The output of a discovery call, or its error (the input, the rule, the value) as bad input. */
  private static JsonNode ok(DiscoveryResult r) {
    return switch (r) {
      case DiscoveryResult.Ok ok -> ok.output();
      case DiscoveryResult.Error e -> throw new IllegalArgumentException(e.message());
    };
  }

  @Override
  public ToolPage list(Principal principal, String category, int offset, int limit) {
    open();
    if (offset < 0) {
      throw new IllegalArgumentException("offset must be 0 or more, got: " + offset);
    }
    if (limit < 1 || limit > ToolPage.MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be between 1 and " + ToolPage.MAX_LIMIT + ", got: " + limit);
    }
    String tooLong = InputLimits.nameTooLong("category", category);
    if (tooLong != null) {
      throw new IllegalArgumentException(tooLong);
    }
    String cat = category == null || category.isBlank() ? null : category.strip().toLowerCase(Locale.ROOT);
    Catalog.Snapshot snap = engine.catalog().snapshot();
    AllowedSet allowed = engine.access().allowed(snap, who(principal));
    Map<String, Integer> categories = new TreeMap<>();
    List<ToolPage.ToolSummary> page = new ArrayList<>();
    int total = 0;
    // the snapshot's entries are in name order, as tool_discovery__list_all gives them
    for (CatalogEntry e : snap.entries()) {
      if (!allowed.contains(e.ord())) {
        continue;
      }
      ToolSpec s = e.spec();
      categories.merge(s.category(), 1, Integer::sum);
      if (cat != null && !cat.equals(s.category())) {
        continue;
      }
      if (total >= offset && page.size() < limit) {
        page.add(new ToolPage.ToolSummary(s.fullName(), s.description(), s.category()));
      }
      total++;
    }
    return new ToolPage(page, total, offset, categories);
  }

  @Override
  public Optional<ToolSpec> describe(Principal principal, String name) {
    open();
    String tooLong = InputLimits.nameTooLong("name", name);
    if (tooLong != null) {
      throw new IllegalArgumentException(tooLong);
    }
    if (name == null) {
      return Optional.empty();
    }
    Principal p = who(principal);
    String n = name.strip();
    Catalog.Snapshot snap = engine.catalog().snapshot();
    AllowedSet allowed = engine.access().allowed(snap, p);
    CatalogEntry e = snap.get(n);
    if (e != null) {
      return allowed.contains(e.ord()) ? Optional.of(visibleDependencies(e.spec(), snap, allowed)) : Optional.empty();
    }
    // a discovery meta-tool a selection offered although the catalog lacks it: the caller may ask what it is
    for (ToolSpec t : DiscoveryTools.SPECS) {
      if (t.fullName().equals(n) && engine.access().allows(p, t)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  @Override
  public CatalogChange upsert(List<ToolSpec> tools) {
    writable("upsert tools");
    Set<String> names = new HashSet<>();
    for (ToolSpec t : tools) {
      if (!names.add(t.fullName())) {
        throw new IllegalArgumentException("tools must have distinct names, got '" + t.fullName()
            + "' twice; nothing was changed");
      }
    }
    synchronized (writes) {
      return change(engine.index(tools));
    }
  }

  @Override
  public CatalogChange remove(Collection<String> names) {
    writable("remove tools");
    synchronized (writes) {
      return change(engine.remove(List.copyOf(new java.util.LinkedHashSet<>(names))));
    }
  }

  private static CatalogChange change(Catalog.Change c) {
    return new CatalogChange(c.version(), c.added(), c.updated(), c.removed());
  }

  @Override
  public AccessPolicy policy() {
    open();
    return engine.access().policy();
  }

  @Override
  public void setPolicy(AccessPolicy policy) {
    writable("set the access policy");
    java.util.Objects.requireNonNull(policy, "policy");
    synchronized (writes) {
      engine.savePolicy(policy);
    }
  }

  @Override
  public List<PolicyCheck.Unmatched> checkPolicy(AccessPolicy policy, Set<String> users, Set<String> groups,
      Set<String> spaces) {
    open();
    java.util.Objects.requireNonNull(policy, "policy");
    return PolicyCheck.check(policy, PolicyCheck.Known.of(engine.catalog().snapshot(), policy, users, groups, spaces));
  }

  @Override
  public Subscription subscribe(Consumer<List<CatalogEvent>> listener) {
    // a read-only instance never sees a change: a listener that would never be called is refused, not ignored
    writable("subscribe to catalog changes");
    java.util.Objects.requireNonNull(listener, "listener");
    // a wrapper per subscription, so the same listener subscribed twice is removed once per close
    Consumer<List<CatalogEvent>> own = listener::accept;
    listeners.add(own);
    return () -> listeners.remove(own);
  }

  private void deliver(List<CatalogEvent> batch) {
    for (Consumer<List<CatalogEvent>> l : listeners) {
      try {
        l.accept(batch);
      } catch (RuntimeException e) {
        // the change is durable already: a listener's failure is its own, never the writer's
        LOG.warn("a catalog listener failed on {} (catalog version {}); the change is stored", batch.get(0).type(),
            batch.get(batch.size() - 1).version(), e);
      }
    }
  }

  @Override
  public int size() {
    open();
    return engine.catalog().size();
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      engine.close();
    }
  }
}
