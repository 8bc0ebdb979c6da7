package dev.toolscout.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.PolicyCheck;
import dev.toolscout.approval.Approvals;
import dev.toolscout.catalog.CatalogEvent;
import dev.toolscout.conversation.Conversation;
import dev.toolscout.execution.ToolCalls;
import dev.toolscout.indexing.SearchableIndexer;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.openapi.OpenApiSources;
import dev.toolscout.routing.RouteDecision;
import dev.toolscout.runs.RunStore;
import dev.toolscout.runs.UsageStore;
import dev.toolscout.selection.SelectorConfig;
import dev.toolscout.skills.Skill;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * ToolScout as a library: the tools an LLM should see for a message, out of a catalog of thousands, with the
 * access policy applied before any ranking.
 *
 * <pre>{@code
 * try (ToolScout scout = ToolScout.builder().dataDir(Path.of("data")).build()) {
 *   SelectResult r = scout.select(SelectRequest.of("Schedule a meeting with the team tomorrow"));
 *   r.selected().forEach(t -> System.out.println(t.name() + " " + t.score()));
 * }
 * }</pre>
 *
 * <p>Thread-safe: every method may be called from any number of threads at once; a selection sees the catalog
 * either before or after a concurrent write, never half of it. One instance per data directory (a second, in
 * this process or another, gets {@link DataDirectoryInUseException}); share it. What a principal may not see
 * appears nowhere: not in a selection, a search, a page, a description or a count; {@link #describe} answers a
 * denied and a missing tool alike.
 *
 * <p>Errors: bad input is an {@link IllegalArgumentException} naming the input, the rule and the bad value
 * (nothing is changed); {@link NoSuchToolException} for a removal naming tools that are not there; calls
 * after {@link #close} throw {@link IllegalStateException}.
 *
 * <p>Read-only ({@link Builder#readOnly}): reads a data directory another instance holds (a running {@code
 * toolscout serve}, say) without writing to it; {@link #upsert}, {@link #remove}, {@link #setPolicy} and {@link
 * #subscribe} throw {@link IllegalStateException}.
 */
public interface ToolScout extends AutoCloseable {
    /** A builder; {@link Builder#dataDir} is required. */
    static Builder builder() {
        return new Builder();
    }

    /** The tools for one message: ranked, with the core tools pinned, within K and the token budget. */
    SelectResult select(SelectRequest request);

    /**
     * {@code result} in a wire form: exactly what {@code toolscout select --format} prints for it.
     *
     * @throws IllegalArgumentException for {@link RenderFormat#ANTHROPIC_DEFERRED}, which lists the tools of one
     *     principal: {@link #render(SelectResult, RenderFormat, Principal)}
     */
    default JsonNode render(SelectResult result, RenderFormat format) {
        if (format == RenderFormat.ANTHROPIC_DEFERRED) {
            throw new IllegalArgumentException("format anthropic-deferred lists every tool one principal may see: "
                    + "give the principal the result was selected for, render(result, format, principal)");
        }
        return render(result, format, null);
    }

    /**
     * {@code result} in a wire form for {@code principal}, the one it was selected for: exactly what {@code toolscout
     * select --format} prints for it. Only {@link RenderFormat#ANTHROPIC_DEFERRED} reads the principal: it sends every
     * tool the principal may see and no other (a selected tool included).
     *
     * @param principal {@code null} for the anonymous one
     * @throws IllegalArgumentException for {@link RenderFormat#ANTHROPIC_DEFERRED} when the principal may see more
     *     than {@value dev.toolscout.render.DeferredTools#MAX_TOOLS} tools (Claude's tool search catalog limit)
     */
    JsonNode render(SelectResult result, RenderFormat format, Principal principal);

    /**
     * Searches the tools {@code principal} may see ({@code tool_discovery__find}).
     *
     * @param principal {@code null} for the anonymous one
     * @param limit 1-50, {@code null} for 10
     * @throws IllegalArgumentException for a blank or too long query, or a limit out of range
     */
    FindResult find(Principal principal, String query, Integer limit);

    /**
     * The tools {@code principal} may see, by name, a page at a time ({@code tool_discovery__list_all}).
     *
     * @param principal {@code null} for the anonymous one
     * @param category only this category (case-insensitive), or {@code null} for all
     * @param offset 0 or more
     * @param limit 1-{@value ToolPage#MAX_LIMIT}
     */
    ToolPage list(Principal principal, String category, int offset, int limit);

    /**
     * The definition of one tool, if {@code principal} may see it: empty for a denied and a missing tool alike.
     * Its {@code dependsOn} names only tools the principal may see.
     *
     * @param principal {@code null} for the anonymous one
     */
    Optional<ToolSpec> describe(Principal principal, String name);

    /**
     * The groups of the access policy whose members may use tool {@code name} (those its group rules name, each
     * judged with no user and no space), in name order; empty for a tool {@code principal} may not see, exactly as
     * for a missing one, so the policy of a tool the principal is not to know of is never told.
     *
     * @param principal {@code null} for the anonymous one
     */
    Optional<List<String>> availableInGroups(Principal principal, String name);

    /**
     * Adds or replaces tools by name. Durable on return (committed to the store) and indexed: the next
     * selection ranks them. An unchanged tool is neither counted nor embedded again. Verbs are registered through
     * {@link #verbs()}.
     *
     * @throws IllegalArgumentException for two tools of one name, or a verb's tool (source {@code verbs} or kind
     *     {@code verb}); nothing is changed
     * @throws IllegalStateException when opened {@link Builder#readOnly read-only}
     */
    CatalogChange upsert(List<ToolSpec> tools);

    /**
     * Removes tools by name, all or none.
     *
     * @throws NoSuchToolException naming every name the catalog does not hold; nothing is removed
     * @throws IllegalArgumentException for a tool of an MCP server (the server would list it again)
     * @throws IllegalStateException when opened {@link Builder#readOnly read-only}
     */
    CatalogChange remove(Collection<String> names);

    /** The access policy in force (a {@link Builder#policyOverride} or {@link Builder#policyFile}, else the stored one). */
    AccessPolicy policy();

    /**
     * Stores {@code policy} in the data directory (durable on return) and applies it from the next call on.
     *
     * @throws IllegalStateException when opened {@link Builder#readOnly read-only}
     */
    void setPolicy(AccessPolicy policy);

    /**
     * Every rule part of {@code policy} that matches nothing known: no tool, source or category of the catalog
     * (all its tools, whoever may see them), no space of the policy's tree or of {@code spaces}, no user or group
     * given. A rule that matches nothing changes no decision, so a misspelt deny leaves access wider than meant;
     * check before {@link #setPolicy} (what {@code toolscout policy set} and {@code PUT /v1/policy} do).
     *
     * @param users known users, or {@code null} when unknown (user rules are then not checked)
     * @param groups known groups, or {@code null} when unknown (group rules are then not checked)
     * @param spaces spaces known besides the policy's own tree, or {@code null}
     */
    List<PolicyCheck.Unmatched> checkPolicy(
            AccessPolicy policy, Set<String> users, Set<String> groups, Set<String> spaces);

    /**
     * Delivers every catalog change, as the batch of events one write made, after it is durable and before the
     * write returns, on the writing thread: keep listeners quick. A listener that throws is logged and skipped;
     * it never fails the write nor the other listeners.
     *
     * @throws IllegalStateException when opened {@link Builder#readOnly read-only} (it would never be called)
     */
    Subscription subscribe(Consumer<List<CatalogEvent>> listener);

    /** The action verbs: register, list, discover verbs and tools for a description, resolve a novel verb. */
    Verbs verbs();

    /**
     * The route {@code message} takes for {@code principal} before any LLM is called ({@code docs/ROUTING.md}): a
     * memory that answers it, a no-parameter tool to run, a close tool or skill, relevant tools, or nothing relevant
     * (discovery suggested), with the cosines it was decided on. {@link #select} decides the same route.
     *
     * @param principal {@code null} for the anonymous one
     * @throws IllegalArgumentException for a blank or too long message
     */
    RouteDecision route(Principal principal, String message);

    /** Long-term memory: store, search, recall, correct and forget, scoped by user, group and space. */
    MemoryService memory();

    /** How many tools the catalog holds (all of them, whoever may see them). */
    int size();

    // --- skills and conversations (docs/SKILLS.md) ---

    /**
     * Every skill {@code principal} may see, in name order, as it may read it: only its tools it may see, and the
     * names of tools it may not see blanked out of its text. A skill whose tools are all denied is not listed.
     *
     * @param principal {@code null} for the anonymous one
     */
    List<Skill> skills(Principal principal);

    /**
     * The skills offered to nobody because every tool they name is missing from the catalog, in name order, as
     * {@code principal} may read them (with the tools they name): what a listing shows beside {@link #skills} with why
     * ({@link #missingTools}). Empty for a principal that may not use {@code skills__activate}.
     *
     * @param principal {@code null} for the anonymous one
     */
    List<Skill> unofferedSkills(Principal principal);

    /**
     * The tools the stored skill {@code name} names that the catalog does not hold and ToolScout does not serve
     * itself, in the skill's order; empty for no such skill. The same for every principal (a tool the policy denies is
     * not missing, and never named here), so an edge may say it beside any skill it lists.
     */
    List<String> missingTools(String name);

    /** One skill as {@link #skills} gives it: empty for an invisible and a missing skill alike. */
    Optional<Skill> skill(Principal principal, String name);

    /**
     * Adds or replaces a skill by name, durable on return; the next selections and searches see it.
     *
     * @return true when it was new
     * @throws IllegalArgumentException past {@value dev.toolscout.skills.Skills#MAX_SKILLS} skills
     */
    boolean putSkill(Skill skill);

    /**
     * Reads the skills of a folder in the Agent Skills format ({@code SKILL.md}) or of a folder of such folders,
     * and puts them, all or none.
     *
     * @return the skills read, in name order
     * @throws dev.toolscout.skills.InvalidSkillException naming the {@code SKILL.md}, the field, the rule and the
     *     value; nothing is changed
     */
    List<Skill> addSkills(Path folder);

    /**
     * Removes a skill, durable on return. Conversations that activated it get none of its tools from then on.
     *
     * @return true when there was one of that name
     */
    boolean removeSkill(String name);

    /**
     * The conversation {@code id} of {@code principal}, as it may see it (active skills it may still see, tools
     * it may still see): empty when it has none, it expired, or the id is another principal's.
     *
     * @throws IllegalArgumentException for an id that is not 1-128 characters of {@code [A-Za-z0-9._:-]}
     */
    Optional<Conversation> conversation(Principal principal, String id);

    /**
     * Forgets one of {@code principal}'s conversations (its active skills and disclosed tools).
     *
     * @return true when it had one of this id
     */
    boolean forgetConversation(Principal principal, String id);

    /**
     * Follows a searchable index (seed 003's fan-out across indexers), such as the git indexer of {@code serve
     * --git-repo}: from now on every route also searches it ({@link RouteDecision#evidence()} lists its entries near
     * the message, and one nearer than every tool and skill is the route's best match), a selection whose route finds
     * its entry nearest offers its tool ({@link SearchableIndexer#tool()}, e.g. {@code git__search}), and that tool is
     * one of ToolScout's own ({@link #callMetaTool}, {@link #ownTool}), and known to {@link #checkPolicy}. All of it
     * only for a principal the access policy lets use the tool; any other sees what it would with no index.
     *
     * @throws IllegalArgumentException when an index searched by a tool of that name is registered already
     */
    void register(SearchableIndexer indexer);

    /** Whether {@code tool} is one of ToolScout's own tools, which {@link #callMetaTool} runs. */
    boolean isMetaTool(String tool);

    /**
     * Runs one of ToolScout's own tools that a model called: {@code tool_discovery__find}, {@code
     * tool_discovery__list_all}, {@code tool_discovery__describe}, {@code skills__activate}, or a memory tool ({@code
     * memory__store}, {@code memory__search}, {@code memory__recall}, {@code memory__forget}; a stored memory keeps
     * the conversation id). The call goes through the call gate ({@link ToolCalls#call}, with {@link #ownTool}):
     * access control comes first, as for every answer. {@code skills__activate} records the activation in the conversation, so
     * the conversation's next selections carry the skill's tools; {@code find} records the tools it disclosed.
     *
     * @param conversationId the conversation the call belongs to ({@code skills__activate} needs one), or {@code
     *     null}
     * @return the answer, or an error for the model (a denied and a missing name read alike)
     * @throws IllegalArgumentException when {@code tool} is not one of ToolScout's own tools
     */
    ToolCallResult callMetaTool(Principal principal, String conversationId, String tool, JsonNode arguments);

    /**
     * One of ToolScout's own tools (those {@link #callMetaTool} runs) as a target of the call gate, {@link
     * ToolCalls#call}, for an edge that calls it with its own request, role and approval step (the agent loop), or
     * does over its own API what the tool does (the HTTP API's memory routes, with {@link
     * ToolCalls.Target#withExecutor}). Empty for another name, and for a memory tool the policy denies {@code
     * principal}, alike. A memory tool's access goes by the catalog's definition when it holds one ({@link
     * #visibleTool}), its role and approval by the built-in one, which is what runs. The executor runs the tool
     * without checking access again: the gate did.
     *
     * @param principal {@code null} for the anonymous one
     * @param conversationId the conversation the call belongs to, or {@code null}
     * @throws IllegalArgumentException for a conversation id that is not 1-128 characters of {@code [A-Za-z0-9._:-]}
     */
    Optional<ToolCalls.Target<ToolCallResult>> ownTool(Principal principal, String conversationId, String tool);

    // --- the narrow services the agent loop, the HTTP API and the CLI need besides the above ---

    /** Whether this instance was opened {@link Builder#readOnly read-only} (it then writes nothing). */
    boolean readOnly();

    /**
     * The approval queue in the data directory's store: the calls held for a person's decision; what {@code
     * toolscout approvals} and {@code /v1/approvals} read and decide.
     */
    Approvals approvals();

    /** The agent loop's stored runs (finished ones are a conversation's history, paused ones resume). */
    RunStore runs();

    /** The agent loop's stored usage records (what {@code GET /v1/usage} reports). */
    UsageStore usage();

    /**
     * Whether the access policy in force lets {@code principal} see and call {@code tool}, judged by the
     * definition given, whether or not the catalog holds it (an MCP gateway's actions are not in the catalog).
     *
     * @param principal {@code null} for the anonymous one
     */
    boolean allows(Principal principal, ToolSpec tool);

    /**
     * {@code tool} as the catalog defines it (its stored definition of that name when it holds one, else {@code
     * tool} itself), if {@code principal} may see that definition: empty for a denied one. For ToolScout's own tools
     * a catalog may or may not hold (the memory tools), judged as {@link #callMetaTool} judges them.
     *
     * @param principal {@code null} for the anonymous one
     */
    Optional<ToolSpec> visibleTool(Principal principal, ToolSpec tool);

    /** The stored configurations of imported OpenAPI documents, and the import's write. */
    OpenApiSources openApiSources();

    /**
     * The data directory's upkeep: the search index (rebuild, compact, status), the store and its changes across
     * replicas, the catalog writes that are not a client's (replace the catalog, drop a source).
     */
    Maintenance maintenance();

    /** The parts an MCP gateway or an upstream server registry serves the catalog with (catalog, access, own tools). */
    GatewayParts gatewayParts();

    /** The parts selection is made of, for what measures or tunes it (evaluation, calibration, learning, benchmarks). */
    RankingParts rankingParts();

    /** Closes the data directory. Waits for embedding in progress; idempotent. */
    @Override
    void close();

    /**
     * Opens a {@link ToolScout}. Not thread-safe (a builder is for one thread); {@link #build} may be called
     * again for another data directory.
     */
    final class Builder {
        private Path dataDir;
        private String model;
        private List<Path> catalogFiles;
        private List<ToolSpec> tools;
        private AccessPolicy policy;
        private Path policyFile;
        private SelectorConfig selector = SelectorConfig.DEFAULT;
        private Integer k;
        private List<String> coreTools;
        private boolean preloadModel = true;
        private IntConsumer progress;
        private boolean readOnly;
        private String store;
        private Duration indexResync;
        private boolean warnUnmatchedPolicy = true;

        Builder() {}

        /**
         * The data directory (required; created if missing): {@code state.db} (SQLite: the catalog, its vectors and
         * the policy, the truth), {@code index/} (Lucene, rebuilt from the store when missing) and {@code lock}. A new
         * one starts with the bundled demo catalog unless {@link #catalogFiles} or {@link #tools} say otherwise.
         */
        public Builder dataDir(Path dir) {
            this.dataDir = Objects.requireNonNull(dir, "dataDir");
            return this;
        }

        /**
         * The embedding model: {@code all-minilm-l6-v2-q} (the default), {@code bge-small-en-v1.5-q} or {@code
         * bge-small-en-v1.5-q-instruct}. Each model keeps its own index in the data directory.
         */
        public Builder model(String id) {
            this.model = Objects.requireNonNull(id, "model");
            return this;
        }

        /**
         * Catalog files (JSON or YAML, {@code docs/CATALOG_FORMAT.md}) whose tools are added to or updated in the
         * catalog at open; its other tools are kept. Read and checked before anything is opened.
         */
        public Builder catalogFiles(List<Path> files) {
            this.catalogFiles = List.copyOf(files);
            this.tools = null;
            return this;
        }

        /** The exact catalog (besides MCP servers' tools): others stored are removed at open. For evaluations. */
        public Builder tools(List<ToolSpec> exact) {
            this.tools = List.copyOf(exact);
            this.catalogFiles = null;
            return this;
        }

        /** A policy for this instance instead of the stored one, which it does not replace ({@link #setPolicy} does). */
        public Builder policyOverride(AccessPolicy p) {
            this.policy = Objects.requireNonNull(p, "policy");
            this.policyFile = null;
            return this;
        }

        /** As {@link #policyOverride}, read from a policy file (JSON or YAML, {@code docs/ACCESS_POLICY.md}). */
        public Builder policyFile(Path file) {
            this.policyFile = Objects.requireNonNull(file, "policyFile");
            this.policy = null;
            return this;
        }

        /** The selector's settings (default {@link SelectorConfig#DEFAULT}); {@link #k} and {@link #coreTools} refine them. */
        public Builder selector(SelectorConfig config) {
            this.selector = Objects.requireNonNull(config, "selector");
            return this;
        }

        /** K when a request gives none: 1-50, default 10. */
        public Builder k(int defaultK) {
            this.k = SelectorConfig.checkK(defaultK);
            return this;
        }

        /** Tools pinned into every selection the principal may see them in, in priority order (default: the seed's 12). */
        public Builder coreTools(List<String> names) {
            this.coreTools = List.copyOf(names);
            return this;
        }

        /**
         * Whether to load the embedding model while opening, on another thread (default true: the first
         * selection then does not wait for it). Off, it loads on the first embedding, and a process that only
         * lists, describes or writes a catalog whose vectors are stored never loads it.
         */
        public Builder preloadModel(boolean preload) {
            this.preloadModel = preload;
            return this;
        }

        /** Told how many tools were embedded so far while catalog files are indexed at open. */
        public Builder progress(IntConsumer listener) {
            this.progress = listener;
            return this;
        }

        /**
         * Opens an existing data directory for reading only (default false), also while another instance holds it
         * (in this process or another, such as a running {@code toolscout serve}). It takes no lock and writes
         * nothing there: SQLite is opened read-only, no migration runs, no tool is embedded. Select, find, list,
         * describe and policy see the catalog, vectors and policy stored at the open (build again to see later
         * changes); the model still embeds each query. The writes ({@link ToolScout#upsert}, {@link
         * ToolScout#remove}, {@link ToolScout#setPolicy}) and {@link ToolScout#subscribe} throw {@link
         * IllegalStateException}. {@link #catalogFiles} are accepted when the store holds every tool of theirs as the
         * files have it (an {@link IllegalArgumentException} names the others); {@link #tools} cannot be given.
         *
         * <p>The search index is the one the writer committed when it holds the stored catalog (it opens in
         * milliseconds); otherwise (the writer is between a store change and its index commit, or this model's
         * index is missing) it is built in memory from the stored vectors, which takes seconds at 10k tools. A store
         * of another schema version than this code's, or tools with no vector of this model stored, are an {@link
         * IllegalStateException}. SQLite's {@code state.db-shm} and {@code state.db-wal} beside the store are used
         * (and created, when no writer has them open): they are SQLite's shared index and log, not data.
         */
        public Builder readOnly(boolean readOnly) {
            this.readOnly = readOnly;
            return this;
        }

        /**
         * A PostgreSQL store shared by several replicas ({@code postgresql://[user[:password]@]host[:port]/database
         * [?schema=name]}, {@code docs/DEPLOYMENT.md}) instead of the data directory's own SQLite file (the default,
         * also for {@code null}); the data directory then holds only this replica's search index and its lock. Not with
         * {@link #readOnly}.
         */
        public Builder store(String address) {
            this.store = address;
            return this;
        }

        /**
         * How often the search index catches up from the store besides the change events (default an hour; at least
         * 1 s).
         */
        public Builder indexResync(Duration period) {
            this.indexResync = Objects.requireNonNull(period, "indexResync");
            return this;
        }

        /**
         * Whether {@link #build} logs the rules of a {@link #policyFile} or {@link #policyOverride} that match nothing
         * (default true), as {@link ToolScout#checkPolicy} finds them. Off for an opener that registers searchable
         * indexes first ({@link ToolScout#register}: a rule may name their tools, such as source {@code git}) and checks
         * the policy in force itself afterwards, as {@code serve --git-repo} does.
         */
        public Builder warnUnmatchedPolicy(boolean warn) {
            this.warnUnmatchedPolicy = warn;
            return this;
        }

        /**
         * Opens the data directory: reads the inputs, takes the directory's lock, opens the store and the index
         * (rebuilding the index from the store when it is missing or damaged), and applies the catalog files.
         *
         * @throws IllegalArgumentException for a bad catalog or policy file, or an unknown model; nothing is changed;
         *     read-only: for a directory that holds no store
         * @throws DataDirectoryInUseException when another instance holds the data directory (never read-only)
         * @throws IllegalStateException read-only: a store of another schema version, or tools with no stored vector
         *     of the model
         * @throws UncheckedIOException when the data directory cannot be read or written
         */
        public ToolScout build() {
            if (dataDir == null) {
                throw new IllegalArgumentException("dataDir is required: the directory ToolScout keeps its catalog, "
                        + "vectors and index in, e.g. builder().dataDir(Path.of(\"toolscout-data\"))");
            }
            if (readOnly && tools != null) {
                throw new IllegalArgumentException(
                        "tools cannot be given with readOnly(true): they would be written to " + "the data directory "
                                + dataDir + ", which a read-only opening never writes");
            }
            SelectorConfig config = selector;
            if (coreTools != null) {
                config = config.withCoreTools(coreTools);
            }
            if (k != null) {
                config = new SelectorConfig(
                        config.coreTools(), config.coreShare(), config.fusion(), k, config.dependencies());
            }
            Engine.Options o = new Engine.Options(
                            dataDir, catalogFiles, tools, policyFile, model, config, progress, preloadModel)
                    .withPolicyOverride(policy)
                    .withStore(store)
                    .withIndexResync(indexResync);
            if (readOnly) {
                o = o.withReadOnly();
            }
            try {
                return LocalToolScout.open(o, warnUnmatchedPolicy);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open the data directory " + dataDir + ": " + e.getMessage(), e);
            }
        }
    }
}
