package dev.toolscout.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AllowedSet;
import dev.toolscout.access.PolicyCheck;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.catalog.CatalogEvent;
import dev.toolscout.conversation.Conversation;
import dev.toolscout.discovery.DiscoveryResult;
import dev.toolscout.engine.files.SkillFolders;
import dev.toolscout.execution.ToolCalls;
import dev.toolscout.indexing.SearchableIndexer;
import dev.toolscout.memory.Memory;
import dev.toolscout.memory.MemoryIndex;
import dev.toolscout.memory.MemoryScope;
import dev.toolscout.memory.MemoryTools;
import dev.toolscout.memory.MemoryType;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.render.StoredTokenCounts;
import dev.toolscout.routing.RouteDecision;
import dev.toolscout.selection.RequestContext;
import dev.toolscout.selection.Selection;
import dev.toolscout.selection.Selector;
import dev.toolscout.skills.Skill;
import dev.toolscout.skills.SkillEvent;
import dev.toolscout.skills.SkillIndex;
import dev.toolscout.skills.SkillTools;
import dev.toolscout.verbs.NovelVerb;
import dev.toolscout.verbs.Resolution;
import dev.toolscout.verbs.VerbCandidate;
import dev.toolscout.verbs.VerbManifest;
import dev.toolscout.verbs.VerbResolver;
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
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link ToolScout} over one {@link Engine}, in this process. Package-private: {@link ToolScout#builder()} opens
 * one, and what the product needs besides selection is in its narrow services ({@link ToolScout#maintenance()},
 * {@link ToolScout#gatewayParts()}, {@link ToolScout#rankingParts()}).
 */
final class LocalToolScout extends EngineServices implements ToolScout {
    private static final Logger LOG = LoggerFactory.getLogger(LocalToolScout.class);

    private final List<Consumer<List<CatalogEvent>>> listeners = new CopyOnWriteArrayList<>();
    private final Verbs verbs = new LocalVerbs();
    private final MemoryService memory = new LocalMemory();
    private final OwnTools ownTools = new OwnTools(engine, this);
    /** Writes through this API one at a time, so remove's all-or-none check holds until its write. */
    private final Object writes = new Object();

    private LocalToolScout(Engine engine) {
        super(engine);
        engine.events().subscribe(this::deliver);
    }

    /** Opens an engine with {@code options} and serves the API over it; closing this closes the engine. */
    public static LocalToolScout open(Engine.Options options) throws IOException {
        return open(options, true);
    }

    /**
     * As {@link #open(Engine.Options)}; with {@code warnUnmatchedPolicy}, a policy file's or override's rules that match
     * nothing are logged, as {@code policy check} reports them (a rule that matches nothing denies nothing).
     */
    static LocalToolScout open(Engine.Options options, boolean warnUnmatchedPolicy) throws IOException {
        LocalToolScout s = new LocalToolScout(Engine.open(options));
        if (warnUnmatchedPolicy && (options.policyFile() != null || options.policy() != null)) {
            for (PolicyCheck.Unmatched u : s.checkPolicy(s.policy(), null, null, null)) {
                LOG.warn(
                        "{}: {}",
                        options.policyFile() == null ? "the access policy" : options.policyFile(),
                        u.message());
            }
        }
        return s;
    }

    /** The engine behind this instance (for the server's MCP gateway; not API). */
    public Engine engine() {
        return engine;
    }

    @Override
    public SelectResult select(SelectRequest request) {
        open();
        Principal p = who(request.principal());
        int k = request.k() != null ? request.k() : engine.selector().config().defaultK();
        if (request.conversationId() == null) {
            RequestContext ctx = engine.selector().context(request.message(), p, null, true);
            Selection s = engine.selector()
                    .select(new Selector.Request(request.message(), p, request.k(), request.tokenBudget()), ctx);
            RouteDecision route = engine.router().route(ctx, k);
            Selection shaped = RoutedSelection.of(s, route, ctx.snapshot(), k, ownTools.indexes());
            return result(shaped, ctx).withRoute(route, ctx.shortened());
        }
        return select(request.message(), p, request.k(), request.tokenBudget(), request.conversationId(), k);
    }

    /**
     * A selection in a conversation: the active skills' visible tools pinned, {@code skills__activate} offered with
     * the skills not active yet, and a clearly matching one suggested.
     */
    private SelectResult select(
            String message, Principal p, Integer k, Integer budget, String conversationId, int routeK) {
        SkillTools skills = engine.skillTools();
        // a read-only engine writes nothing, not even a conversation's last use: it reads the conversation as stored
        Conversation c = engine.readOnly()
                ? engine.conversations()
                        .get(p, conversationId)
                        .orElse(new Conversation(
                                conversationId,
                                p,
                                List.of(),
                                List.of(),
                                java.time.Instant.EPOCH,
                                java.time.Instant.EPOCH))
                : engine.conversations().use(p, conversationId);
        List<String> active = activeVisible(p, c);
        List<ToolSpec> offered = new ArrayList<>();
        SelectResult.SkillSuggestion suggestion = null;
        Optional<ToolSpec> activate = skills.activateTool(p, active);
        activate.ifPresent(offered::add);
        RequestContext ctx = engine.selector().context(message, p, c, true);
        Selection selection = engine.selector()
                .select(new Selector.Request(message, p, k, budget, skills.activeTools(p, c), offered), ctx);
        RouteDecision route = engine.router().route(ctx, routeK);
        if (activate.isPresent()) {
            // skills are ranked only when one may be activated, by the selection's query vector of the message (the
            // model is called again only when the selection embedded nothing, or a cut message)
            for (SkillTools.Ranked r : skills.rank(p, message, ctx::queryVector)) {
                if (r.match().clear() && !active.contains(r.skill().name())) {
                    suggestion = new SelectResult.SkillSuggestion(
                            r.skill().name(), skills.readable(p, r.skill()).description(), why(r.match()));
                }
                break;
            }
        }
        Selection s = RoutedSelection.of(selection, route, ctx.snapshot(), k != null ? k : routeK, ownTools.indexes());
        SelectResult plain = result(s, ctx);
        return new SelectResult(
                        plain.selected(),
                        plain.coreIncluded(),
                        plain.excludedCount(),
                        plain.visibleCount(),
                        plain.reason(),
                        plain.discoverySuggested(),
                        plain.tokens(),
                        active,
                        suggestion)
                .withRoute(route, ctx.shortened());
    }

    /** The conversation's active skills {@code p} may still see, in activation order. */
    private List<String> activeVisible(Principal p, Conversation c) {
        List<String> out = new ArrayList<>();
        for (String name : c.activeSkills()) {
            if (engine.skillTools().visible(p, name).isPresent()) {
                out.add(name);
            }
        }
        return out;
    }

    private static String why(SkillIndex.Match m) {
        return "matches "
                + String.join(
                        ", ", m.matchedWords().stream().map(w -> "'" + w + "'").toList()) + "; nearest in meaning";
    }

    /**
     * A selection as the API's result, with its token counts and only visible dependencies named, in the request's
     * catalog snapshot and allowed set.
     */
    private SelectResult result(Selection s, RequestContext ctx) {
        Catalog.Snapshot snap = ctx.snapshot();
        AllowedSet allowed = ctx.allowed();
        StoredTokenCounts.Sum allowedSum = allowedTokens(snap, allowed);
        long all = allowedSum.tokens();
        long selected = 0;
        for (Selection.SelectedTool t : s.selected()) {
            CatalogEntry e = snap.get(t.name());
            int n = definitionTokens(t.spec(), e);
            selected += n;
            if (e == null) {
                // the engine's own discovery tool, when offered, is sent with "all" too: count it on both sides
                all += n;
            }
        }
        List<SelectResult.SelectedTool> tools = new ArrayList<>(s.selected().size());
        for (Selection.SelectedTool t : s.selected()) {
            tools.add(new SelectResult.SelectedTool(
                    t.name(),
                    t.score(),
                    t.reason(),
                    t.core(),
                    visibleDependencies(t.spec(), snap, allowed),
                    t.origin()));
        }
        return new SelectResult(
                tools,
                s.coreIncluded(),
                s.excludedCount(),
                s.visibleCount(),
                s.reason(),
                s.discoverySuggested(),
                allowedSum.estimated() == 0
                        ? SelectResult.Tokens.of(selected, all)
                        : SelectResult.Tokens.estimated(selected, all));
    }

    /**
     * A selected tool's definition tokens, looked up by a content hash known beforehand: its catalog entry's (when
     * the spec is that entry's own), or the engine tool's, hashed once. {@code ToolSpec.contentHash} renders and
     * hashes the definition at every call, which at ten tools a selection was a fifth of the Java time of a
     * selection over a small catalog (apibank, 101 tools; JFR, docs/BENCHMARKS.md "Short messages on small
     * catalogs").
     */
    private int definitionTokens(ToolSpec spec, CatalogEntry entry) {
        if (entry != null && entry.spec() == spec) {
            return engine.tokenCounts().tokens(entry);
        }
        String hash = EngineToolHashes.BY_SPEC.get(spec);
        return hash != null
                ? engine.tokenCounts().tokens(hash, spec)
                : engine.tokens().definitionTokens(spec);
    }

    /** The engine tools' content hashes, by the very spec objects the selector offers; made when first offered. */
    private static final class EngineToolHashes {
        static final Map<ToolSpec, String> BY_SPEC;

        static {
            Map<ToolSpec, String> out = new java.util.IdentityHashMap<>();
            Engine.ENGINE_TOOLS.forEach(t -> out.put(t, t.contentHash()));
            BY_SPEC = java.util.Collections.unmodifiableMap(out);
        }
    }

    /**
     * The definition tokens of every tool {@code allowed} holds, summed once per snapshot and allowed set rather
     * than at every selection: the sum is a map lookup per visible tool, which was a tenth of a selection's Java
     * time at 2,375 tools (etom-mcp, JFR). The access control hands out one allowed set per catalog version, policy
     * version and principal, so the same set object means the same sum; one entry, the last one asked for. An
     * estimated sum (counts still missing: {@link StoredTokenCounts#allowedTokens}) is not kept, so the next selection
     * sums again with what was counted meanwhile.
     */
    private StoredTokenCounts.Sum allowedTokens(Catalog.Snapshot snap, AllowedSet allowed) {
        AllTokens last = allTokens;
        if (last != null && last.snap() == snap && last.allowed() == allowed) {
            return last.sum();
        }
        StoredTokenCounts.Sum sum = engine.tokenCounts().allowedTokens(snap, allowed);
        if (sum.estimated() == 0) {
            allTokens = new AllTokens(snap, allowed, sum);
        }
        return sum;
    }

    /** The last exact {@link #allowedTokens} sum and what it was for (compared by identity). */
    private record AllTokens(Catalog.Snapshot snap, AllowedSet allowed, StoredTokenCounts.Sum sum) {}

    private volatile AllTokens allTokens;

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
        return visible.size() == spec.dependsOn().size()
                ? spec
                : spec.toBuilder().dependsOn(visible).build();
    }

    @Override
    public JsonNode render(SelectResult result, RenderFormat format, Principal principal) {
        open();
        return Rendering.render(engine, result, format, who(principal));
    }

    @Override
    public FindResult find(Principal principal, String query, Integer limit) {
        open();
        JsonNode out = ok(engine.discovery().find(who(principal), query, limit));
        List<FindResult.ToolMatch> tools = new ArrayList<>();
        for (JsonNode t : out.path("tools")) {
            tools.add(new FindResult.ToolMatch(
                    t.path("name").asText(),
                    t.path("description").asText(),
                    t.path("category").asText(),
                    AiAccess.valueOf(t.path("ai_access").asText().toUpperCase(Locale.ROOT)),
                    t.path("score").asDouble()));
        }
        List<FindResult.SkillMatch> skills = new ArrayList<>();
        for (JsonNode sk : out.path("skills")) {
            List<String> names = new ArrayList<>();
            sk.path("tools").forEach(t -> names.add(t.asText()));
            skills.add(new FindResult.SkillMatch(
                    sk.path("name").asText(),
                    sk.path("description").asText(),
                    names,
                    sk.path("score").asDouble()));
        }
        return new FindResult(query, tools, skills);
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
        String cat =
                category == null || category.isBlank() ? null : category.strip().toLowerCase(Locale.ROOT);
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
    public Optional<List<String>> availableInGroups(Principal principal, String name) {
        return describe(principal, name).map(engine.access()::groupsAllowed);
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
            return allowed.contains(e.ord())
                    ? Optional.of(visibleDependencies(e.spec(), snap, allowed))
                    : Optional.empty();
        }
        // a discovery meta-tool a selection offered although the catalog lacks it: the caller may ask what it is
        for (ToolSpec t : Engine.ENGINE_TOOLS) {
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
                throw new IllegalArgumentException(
                        "tools must have distinct names, got '" + t.fullName() + "' twice; nothing was changed");
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
    public List<PolicyCheck.Unmatched> checkPolicy(
            AccessPolicy policy, Set<String> users, Set<String> groups, Set<String> spaces) {
        open();
        java.util.Objects.requireNonNull(policy, "policy");
        return PolicyCheck.check(
                policy,
                ownTools.indexes()
                        .known(PolicyCheck.Known.of(engine.catalog().snapshot(), policy, users, groups, spaces)));
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
                LOG.warn(
                        "a catalog listener failed on {} (catalog version {}); the change is stored",
                        batch.get(0).type(),
                        batch.get(batch.size() - 1).version(),
                        e);
            }
        }
    }

    @Override
    public List<Skill> skills(Principal principal) {
        open();
        Principal p = who(principal);
        SkillTools t = engine.skillTools();
        return t.visible(p).stream().map(v -> t.readable(p, v)).toList();
    }

    @Override
    public Optional<Skill> skill(Principal principal, String name) {
        open();
        String tooLong = InputLimits.nameTooLong("name", name);
        if (tooLong != null) {
            throw new IllegalArgumentException(tooLong);
        }
        Principal p = who(principal);
        SkillTools t = engine.skillTools();
        return name == null ? Optional.empty() : t.visible(p, name.strip()).map(v -> t.readable(p, v));
    }

    @Override
    public boolean putSkill(Skill skill) {
        writable("add or replace a skill");
        java.util.Objects.requireNonNull(skill, "skill");
        synchronized (writes) {
            return engine.skills()
                    .upsert(skill)
                    .map(e -> e instanceof SkillEvent.Created)
                    .orElse(false);
        }
    }

    @Override
    public List<Skill> addSkills(java.nio.file.Path folder) {
        writable("add skills");
        List<Skill> read = SkillFolders.loadAll(folder);
        synchronized (writes) {
            engine.skills().apply(read, List.of());
        }
        return read;
    }

    @Override
    public boolean removeSkill(String name) {
        writable("remove a skill");
        synchronized (writes) {
            return engine.skills().remove(name);
        }
    }

    @Override
    public Optional<Conversation> conversation(Principal principal, String id) {
        open();
        Principal p = who(principal);
        return engine.conversations().get(p, id).map(c -> visible(p, c));
    }

    /** {@code c} naming only the skills and tools {@code p} may still see. */
    private Conversation visible(Principal p, Conversation c) {
        Catalog.Snapshot snap = engine.catalog().snapshot();
        AllowedSet allowed = engine.access().allowed(snap, p);
        List<String> tools = c.disclosedTools().stream()
                .filter(n -> {
                    CatalogEntry e = snap.get(n);
                    return e != null && allowed.contains(e.ord());
                })
                .toList();
        return new Conversation(c.id(), c.principal(), activeVisible(p, c), tools, c.createdAt(), c.lastUsedAt());
    }

    @Override
    public boolean forgetConversation(Principal principal, String id) {
        writable("forget a conversation");
        return engine.conversations().forget(who(principal), id);
    }

    @Override
    public boolean isMetaTool(String tool) {
        return ownTools.spec(tool).isPresent();
    }

    @Override
    public ToolCallResult callMetaTool(Principal principal, String conversationId, String tool, JsonNode arguments) {
        open();
        if (!isMetaTool(tool)) {
            throw new IllegalArgumentException("'"
                    + (tool == null ? "null" : tool.length() > 100 ? tool.substring(0, 100) + "..." : tool)
                    + "' is not one of ToolScout's own tools (" + SkillTools.ACTIVATE
                    + ", "
                    + String.join(
                            ", ",
                            Engine.ENGINE_TOOLS.stream().map(ToolSpec::fullName).toList()) + ")");
        }
        // through the call gate, as the agent loop and the HTTP API call them: access first (denied == missing)
        return ownTools.call(who(principal), conversationId, tool, arguments);
    }

    @Override
    public void register(SearchableIndexer indexer) {
        open();
        engine.router().register(indexer);
    }

    @Override
    public Optional<ToolCalls.Target<ToolCallResult>> ownTool(Principal principal, String conversationId, String tool) {
        open();
        return ownTools.target(who(principal), conversationId, tool);
    }

    @Override
    public RouteDecision route(Principal principal, String message) {
        open();
        return engine.router()
                .route(message, who(principal), engine.selector().config().defaultK());
    }

    @Override
    public MemoryService memory() {
        open();
        return memory;
    }

    /** {@link MemoryService} over the engine's memories; writes refused when read-only. */
    private final class LocalMemory implements MemoryService {
        @Override
        public Memory store(
                Principal principal, MemoryScope scope, MemoryType type, String content, String conversationId) {
            writable("store a memory");
            if (conversationId != null) {
                dev.toolscout.conversation.Conversations.checkId(conversationId);
            }
            return engine.memories()
                    .store(
                            who(principal),
                            java.util.Objects.requireNonNull(scope, "scope"),
                            java.util.Objects.requireNonNull(type, "type"),
                            content,
                            conversationId);
        }

        @Override
        public Optional<Memory> correct(Principal principal, String id, String content, MemoryType type) {
            writable("correct a memory");
            return engine.memories().correct(who(principal), id, content, type);
        }

        @Override
        public Optional<Memory> get(Principal principal, String id) {
            open();
            return engine.memories().get(who(principal), id);
        }

        @Override
        public List<MemoryIndex.Hit> search(Principal principal, String query, MemoryType type, int limit) {
            open();
            checkLimit(limit);
            return engine.memories().search(who(principal), query, type, limit);
        }

        @Override
        public List<Memory> recent(Principal principal, MemoryType type, int limit) {
            open();
            checkLimit(limit);
            return engine.memories().recent(who(principal), type, limit);
        }

        @Override
        public boolean forget(Principal principal, String id) {
            writable("forget a memory");
            return engine.memories().forget(who(principal), id);
        }

        private static void checkLimit(int limit) {
            if (limit < 1 || limit > MemoryTools.MAX_LIMIT) {
                throw new IllegalArgumentException(
                        "limit must be between 1 and " + MemoryTools.MAX_LIMIT + ", got: " + limit);
            }
        }
    }

    @Override
    public Verbs verbs() {
        open();
        return verbs;
    }

    /** {@link Verbs} over the engine's catalog and resolver; writes go through this instance's write lock. */
    private final class LocalVerbs implements Verbs {
        @Override
        public CatalogChange register(List<VerbManifest> manifests) {
            open();
            Set<String> names = new HashSet<>();
            for (VerbManifest m : manifests) {
                if (!names.add(m.verb())) {
                    throw new IllegalArgumentException(
                            "verbs must have distinct names, got '" + m.verb() + "' twice; nothing was changed");
                }
            }
            synchronized (writes) {
                return change(engine.registerVerbs(manifests));
            }
        }

        @Override
        public CatalogChange remove(Collection<String> verbs) {
            open();
            Catalog.Snapshot snap = engine.catalog().snapshot();
            List<String> names = new ArrayList<>();
            List<String> missing = new ArrayList<>();
            for (String v : new java.util.LinkedHashSet<>(verbs)) {
                String name = VerbManifest.toolName(VerbManifest.normalizeVerb(v));
                CatalogEntry e = snap.get(name);
                if (e == null || !VerbManifest.isVerb(e.spec())) {
                    missing.add(v);
                } else {
                    names.add(name);
                }
            }
            if (!missing.isEmpty()) {
                throw new NoSuchToolException(
                        "no verb named "
                                + String.join(
                                        ", ",
                                        missing.stream().map(m -> "'" + m + "'").toList())
                                + " is registered; nothing was removed",
                        missing);
            }
            synchronized (writes) {
                return change(engine.remove(names));
            }
        }

        @Override
        public List<VerbManifest> list(Principal principal) {
            open();
            Catalog.Snapshot snap = engine.catalog().snapshot();
            AllowedSet allowed = engine.access().allowed(snap, who(principal));
            List<VerbManifest> out = new ArrayList<>();
            for (CatalogEntry e : snap.entries()) {
                if (allowed.contains(e.ord()) && VerbManifest.isVerb(e.spec())) {
                    out.add(VerbManifest.fromSpec(e.spec()));
                }
            }
            return out;
        }

        @Override
        public List<VerbCandidate> discover(Principal principal, String description, int limit) {
            open();
            return engine.verbs().discover(who(principal), description, limit);
        }

        @Override
        public Resolution resolve(Principal principal, NovelVerb verb) {
            open();
            return engine.verbs().resolve(who(principal), verb);
        }

        @Override
        public VerbResolver resolver() {
            open();
            return engine.verbs();
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
