package dev.toolscout.selection;

import dev.toolscout.access.AccessControl;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.index.AllowedSet;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.Selection.SelectedTool;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Chooses the K tools (default 10) a request should carry: the access policy first computes what the
 * principal may see, hybrid search ranks inside that set, the pinned core tools take up to {@code
 * coreShare} of the slots (the discovery tool first whenever tools are left out), and ranked tools fill the
 * rest. Deterministic: the same catalog and request give the same selection in the same order (ties by
 * name). Thread-safe.
 *
 * <p>Engine tools (the discovery meta-tools) are tools the engine serves itself, whatever the catalog holds: when
 * one is named among the core tools, the catalog lacks it and the policy lets the principal see it, it is offered
 * like a catalog core tool whenever tools are left out, so the escape hatch never depends on the catalog.
 */
public final class Selector {
  /**
   * The longest part of a message embedded and searched; the rest of a longer one is not used (small
   * embedders read 512 tokens). A message longer than {@link InputLimits#MAX_MESSAGE_CHARS} is refused.
   */
  public static final int MAX_MESSAGE_CHARS = 8_192;

  private final Catalog catalog;
  private final EmbeddingModel model;
  private final AccessControl access;
  private final HybridRanker ranker;
  private final TokenCost tokens;
  private final SelectorConfig config;
  private final java.util.Set<String> coreSet;
  private final Map<String, ToolSpec> engineTools;

  /** A selector with no engine tools: only the catalog's tools are offered. */
  public Selector(
      Catalog catalog, HybridRanker ranker, EmbeddingModel model, AccessControl access, TokenCost tokens,
      SelectorConfig config) {
    this(catalog, ranker, model, access, tokens, config, List.of());
  }

  /**
   * @param ranker shared with the discovery tools and closed by whoever made it (the engine)
   * @param engineTools tools the engine serves itself (the discovery meta-tools), offered when a core tool of
   *     that name is missing from the catalog
   */
  public Selector(
      Catalog catalog, HybridRanker ranker, EmbeddingModel model, AccessControl access, TokenCost tokens,
      SelectorConfig config, List<ToolSpec> engineTools) {
    this.catalog = catalog;
    this.model = model;
    this.access = access;
    this.ranker = Objects.requireNonNull(ranker, "ranker");
    this.tokens = tokens;
    this.config = config;
    this.coreSet = config.coreSet();
    Map<String, ToolSpec> own = new LinkedHashMap<>();
    engineTools.forEach(t -> own.put(t.fullName(), t));
    this.engineTools = java.util.Collections.unmodifiableMap(own);
  }

  public SelectorConfig config() {
    return config;
  }

  /**
   * A selection request.
   *
   * @param k how many tools, 1-50; {@code null} for the configured default (10)
   * @param tokenBudget the most tokens the selected definitions may take, or {@code null} for no limit
   */
  public record Request(String message, Principal principal, Integer k, Integer tokenBudget) {
    public Request {
      Objects.requireNonNull(principal, "principal");
      if (message == null || message.isBlank()) {
        throw new IllegalArgumentException("message must not be blank, got: '" + message + "'");
      }
      String tooLong = InputLimits.messageTooLong("message", message);
      if (tooLong != null) {
        throw new IllegalArgumentException(tooLong);
      }
      if (k != null) {
        SelectorConfig.checkK(k);
      }
      if (tokenBudget != null && tokenBudget < 1) {
        throw new IllegalArgumentException("token budget must be at least 1, got: " + tokenBudget);
      }
    }

    public static Request of(String message, Principal principal) {
      return new Request(message, principal, null, null);
    }
  }

  public Selection select(Request req) {
    String message = truncate(req.message());
    return select(req, message, () -> model.embedQuery(message));
  }

  /** Selection with a query vector computed elsewhere (the router embeds a message once for all indexers). */
  public Selection select(Request req, String message, float[] vector) {
    return select(req, message, () -> vector);
  }

  private Selection select(Request req, String message, java.util.function.Supplier<float[]> vector) {
    Catalog.Snapshot snap = catalog.snapshot();
    AllowedSet allowed = access.allowed(snap, req.principal());
    int k = req.k() == null ? config.defaultK() : req.k();
    int visible = allowed.cardinality();

    List<Ranked> ranked =
        ranker.rank(message, vector, model::embedQuery, allowed,
            config.fusion().withDepth(Math.max(config.fusion().depth(), 3 * k)), ord -> snap.byOrd(ord).name());
    Map<Integer, Ranked> rankOf = new HashMap<>();
    for (Ranked r : ranked) {
      rankOf.put(r.ord(), r);
    }

    // core tools the principal may see, the discovery tool first when anything will be left out
    boolean leftOut = visible > k;
    List<CatalogEntry> core = new ArrayList<>();
    int engineOrd = -1;
    for (String name : config.coreTools()) {
      CatalogEntry e = snap.get(name);
      if (e != null) {
        if (allowed.contains(e.ord())) {
          core.add(e);
        }
        continue;
      }
      ToolSpec own = engineTools.get(name);
      // an engine tool is no catalog entry: a negative ordinal keeps it apart from every catalog ordinal, and
      // it counts as visible only in the selections that offer it
      if (own != null && leftOut && access.allows(req.principal(), own)) {
        core.add(new CatalogEntry(engineOrd--, own, ""));
        visible++;
      }
    }
    Comparator<CatalogEntry> coreOrder =
        Comparator.<CatalogEntry>comparingInt(
                e -> leftOut && e.name().equals(SelectorConfig.DISCOVERY_FIND) ? 0 : 1)
            .thenComparing(e -> -score(rankOf.get(e.ord())))
            .thenComparingInt(e -> config.coreTools().indexOf(e.name()));
    core.sort(coreOrder);

    List<String> words = Reasons.queryWords(message);
    LinkedHashMap<Integer, SelectedTool> chosen = new LinkedHashMap<>();
    int coreSlots = Math.min(core.size(), Math.min(k, config.coreSlots(k)));
    for (int i = 0; i < coreSlots; i++) {
      CatalogEntry e = core.get(i);
      chosen.put(e.ord(), selected(e, rankOf.get(e.ord()), true, words));
    }
    // tie keys for the final order: a dependency brought by a tool sorts right after it
    Map<String, String> tieKey = new HashMap<>();
    for (Ranked r : ranked) {
      if (chosen.size() >= k) {
        break;
      }
      if (!chosen.containsKey(r.ord())) {
        CatalogEntry e = snap.byOrd(r.ord());
        SelectedTool t = selected(e, r, coreSet.contains(e.name()), words);
        chosen.put(r.ord(), t);
        if (config.dependencies()) {
          addDependencies(t, snap, allowed, k, chosen, tieKey);
        }
      }
    }
    // nothing more matched: the remaining core tools are the most generally useful
    for (int i = coreSlots; i < core.size() && chosen.size() < k; i++) {
      CatalogEntry e = core.get(i);
      chosen.putIfAbsent(e.ord(), selected(e, rankOf.get(e.ord()), true, words));
    }

    List<SelectedTool> list = new ArrayList<>(chosen.values());
    if (req.tokenBudget() != null) {
      list = withoutDroppedParents(fitBudget(list, req.tokenBudget()), tieKey);
    }
    list.sort(Comparator.comparingDouble((SelectedTool t) -> -t.score())
        .thenComparing(t -> tieKey.getOrDefault(t.name(), t.name())));
    List<String> coreIncluded = list.stream().filter(SelectedTool::core).map(SelectedTool::name).toList();
    int excluded = visible - list.size();
    boolean findGiven = list.stream().anyMatch(t -> t.name().equals(SelectorConfig.DISCOVERY_FIND));
    return new Selection(list, coreIncluded, excluded, visible,
        explain(list, coreIncluded, excluded, visible, findGiven), excluded > 0);
  }

  /**
   * Dependency expansion: the tools {@code parent} declares in {@code depends_on} that exist, that the
   * principal may see and that are not chosen yet join the selection while slots remain, in that order, with
   * the parent's score so they sort right after it. Only declared dependencies: inferring credential issuers
   * from names helped one development set only (docs/FITTED_RULES.md). Only direct dependencies: a chain would let one tool fill the page. A tool that needs
   * another is unusable without it, so it is better to carry both than two unrelated tools; unknown or denied
   * names are skipped (never revealed).
   */
  private void addDependencies(
      SelectedTool parent, Catalog.Snapshot snap, AllowedSet allowed, int k, Map<Integer, SelectedTool> chosen,
      Map<String, String> tieKey) {
    String parentKey = tieKey.getOrDefault(parent.name(), parent.name());
    for (String dep : parent.spec().dependsOn()) {
      addDependency(parent, parentKey, dep, "needed by " + parent.name(), snap, allowed, k, chosen, tieKey);
    }
  }

  private void addDependency(
      SelectedTool parent, String parentKey, String dep, String reason, Catalog.Snapshot snap, AllowedSet allowed,
      int k, Map<Integer, SelectedTool> chosen, Map<String, String> tieKey) {
    if (chosen.size() >= k) {
      return;
    }
    CatalogEntry d = snap.get(dep);
    if (d == null || !allowed.contains(d.ord()) || chosen.containsKey(d.ord())) {
      return;
    }
    boolean core = coreSet.contains(d.name());
    chosen.put(d.ord(), new SelectedTool(d.spec(), parent.score(), core ? "core tool; " + reason : reason, core));
    tieKey.put(d.name(), parentKey + '\u0001' + d.name());
  }

  /**
   * A dependency whose parent the budget dropped keeps its place, but its reason no longer names the parent: the
   * reasons reach the model's prompt, which must name only tools the model is given.
   */
  private static List<SelectedTool> withoutDroppedParents(List<SelectedTool> kept, Map<String, String> tieKey) {
    java.util.Set<String> names = new java.util.HashSet<>();
    kept.forEach(t -> names.add(t.name()));
    List<SelectedTool> out = new ArrayList<>(kept.size());
    for (SelectedTool t : kept) {
      String key = tieKey.get(t.name());
      String[] chain = key == null ? new String[0] : key.split("\u0001");
      if (chain.length >= 2 && !names.contains(chain[chain.length - 2])) {
        String reason = (t.core() ? "core tool; " : "") + "needed by a tool the token budget left out";
        out.add(new SelectedTool(t.spec(), t.score(), reason, t.core()));
      } else {
        out.add(t);
      }
    }
    return out;
  }

  /** Drops the lowest-scored tools, ranked ones before core ones, until the definitions fit the budget. */
  private List<SelectedTool> fitBudget(List<SelectedTool> list, int budget) {
    List<SelectedTool> order = new ArrayList<>(list);
    // keep-priority: the discovery tool, then by score; ranked tools go before core tools of equal standing
    order.sort(Comparator.comparingInt((SelectedTool t) -> t.name().equals(SelectorConfig.DISCOVERY_FIND) ? 0 : 1)
        .thenComparingDouble(t -> -t.score())
        .thenComparing(SelectedTool::name));
    List<SelectedTool> kept = new ArrayList<>();
    int used = 0;
    for (SelectedTool t : order) {
      int cost = tokens.definitionTokens(t.spec());
      if (used + cost <= budget) {
        kept.add(t);
        used += cost;
      }
    }
    return kept;
  }

  private static double score(Ranked r) {
    return r == null ? 0 : r.score();
  }

  private static SelectedTool selected(CatalogEntry e, Ranked r, boolean core, List<String> queryWords) {
    return new SelectedTool(e.spec(), round(score(r)), Reasons.of(e.spec(), r, core, queryWords), core);
  }

  private static double round(double v) {
    return Math.round(v * 10_000) / 10_000.0;
  }

  /** Names the discovery tool only when the selection carries it: a model is never told to call a tool it lacks. */
  private static String explain(
      List<SelectedTool> list, List<String> core, int excluded, int visible, boolean findGiven) {
    int ranked = list.size() - core.size();
    StringBuilder b = new StringBuilder();
    b.append("Selected ").append(list.size()).append(" of ").append(visible).append(" available tools: ");
    b.append(ranked).append(" ranked by relevance to the message");
    if (!core.isEmpty()) {
      b.append(" and ").append(core.size()).append(" pinned core tool").append(core.size() == 1 ? "" : "s");
    }
    b.append('.');
    if (excluded > 0) {
      b.append(' ').append(excluded).append(" more ").append(excluded == 1 ? "is" : "are");
      if (findGiven) {
        b.append(" available through ").append(SelectorConfig.DISCOVERY_FIND).append('.');
      } else {
        b.append(" left out.");
      }
    }
    return b.toString();
  }

  private static String truncate(String message) {
    String m = message.strip();
    return m.length() > MAX_MESSAGE_CHARS ? m.substring(0, MAX_MESSAGE_CHARS) : m;
  }
}
