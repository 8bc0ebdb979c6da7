package dev.toolscout.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.execution.ToolCalls;
import dev.toolscout.execution.ToolExecutor;
import dev.toolscout.execution.ToolInvocation;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Principal;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How an application (the agent loop, a framework adapter) runs a tool by name for a principal: through the one call
 * gate, {@link ToolCalls#call}, with what runs each kind of tool.
 *
 * <ul>
 *   <li>ToolScout's own tools ({@link ToolScout#isMetaTool}) as {@link ToolScout#ownTool} gives them;
 *   <li>the catalog's tools as {@link ToolScout#describe} shows them to the principal (a denied, a missing and a
 *       {@code BLOCKED} tool read alike: not found), run by the {@link ToolExecutor} registered for their source (the
 *       part of the name before {@code __}), else for their {@link SourceKind}; a tool with neither is found but "not
 *       executable here" ({@link ToolCalls.Outcome.Failed});
 *   <li>the application's own tools outside the catalog ({@link Builder#tools}), to which the access policy applies
 *       as to catalog tools.
 * </ul>
 *
 * <p>The approval step is the caller's ({@link ToolCalls#queue} for the approval queue). Immutable and thread-safe
 * when its executors are.
 */
public final class ToolRunner {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ToolRunner.class);

    private final ToolScout scout;
    private final Map<String, ToolExecutor> bySource;
    private final Map<SourceKind, ToolExecutor> byKind;
    private final Map<String, ToolSpec> applicationTools;

    private ToolRunner(Builder b) {
        this.scout = b.scout;
        this.bySource = Map.copyOf(b.bySource);
        this.byKind = new EnumMap<>(b.byKind);
        this.applicationTools = Map.copyOf(b.applicationTools);
    }

    /** A builder over {@code scout}. */
    public static Builder builder(ToolScout scout) {
        return new Builder(scout);
    }

    /** The ToolScout it runs over. */
    public ToolScout scout() {
        return scout;
    }

    /**
     * The tool {@code principal} may call by {@code name} (not one of ToolScout's own): an application tool the policy
     * allows, else the catalog's as {@link ToolScout#describe} gives it. Empty for a denied, a missing and a {@code
     * BLOCKED} tool alike.
     *
     * @param principal {@code null} for the anonymous one
     */
    public Optional<ToolSpec> resolve(Principal principal, String name) {
        if (name == null || name.length() > InputLimits.MAX_NAME_CHARS) {
            return Optional.empty();
        }
        ToolSpec own = applicationTools.get(name);
        Optional<ToolSpec> spec = own != null
                ? Optional.of(own).filter(s -> scout.allows(principal, s))
                : scout.describe(principal, name);
        return spec.filter(s -> s.aiAccess() != AiAccess.BLOCKED);
    }

    /** Whether something here runs {@code tool}: it is one of ToolScout's own, or an executor is registered for it. */
    public boolean runs(ToolSpec tool) {
        return scout.isMetaTool(tool.fullName()) || executor(tool) != null;
    }

    /** Whether {@code name} is one of the application's tools given to {@link Builder#tools}. */
    public boolean isApplicationTool(String name) {
        return name != null && applicationTools.containsKey(name);
    }

    /**
     * The call gate's target for {@code name}: the tool {@code principal} may call and what runs it. ToolScout's own
     * tools as {@link ToolScout#ownTool} gives them (their result turned into a {@link ToolResult}); the others as
     * {@link #resolve} finds them, with the executor of their source or kind ({@code null} when there is none: the gate
     * answers "not executable here"). Empty for a denied and a missing tool alike.
     *
     * @param principal {@code null} for the anonymous one
     * @param conversationId the conversation the call belongs to, or {@code null} (an executor is then told {@code ""})
     */
    public Optional<ToolCalls.Target<ToolResult>> target(Principal principal, String conversationId, String name) {
        if (name != null && scout.isMetaTool(name)) {
            return scout.ownTool(principal, conversationId, name)
                    .map(own -> own.withExecutor((tool, args, approved) -> {
                        ToolCallResult r = own.executor().run(tool, args, approved);
                        return r.isError() ? ToolResult.error(r.error()) : ToolResult.of(r.output());
                    }));
        }
        Principal who = principal == null ? Principal.ANONYMOUS : principal;
        String conversation = conversationId == null ? "" : conversationId;
        return resolve(principal, name).map(spec -> {
            ToolExecutor e = executor(spec);
            return new ToolCalls.Target<>(
                    spec,
                    e == null
                            ? null
                            : (tool, args, approved) ->
                                    e.execute(new ToolInvocation(tool, objectNode(args), who, conversation)));
        });
    }

    /**
     * Runs one call through the gate: access, {@code BLOCKED}, role, size caps, {@code approval} for a {@code PROPOSE}
     * tool, then its executor.
     *
     * @throws InterruptedException when the calling request is cancelled (an approval step or an executor waits)
     */
    public ToolCalls.Outcome<ToolResult> call(ToolCalls.Request request, ToolCalls.ApprovalStep approval)
            throws InterruptedException {
        return ToolCalls.call(request, (who, name) -> target(who, request.conversationId(), name), approval);
    }

    /**
     * What a framework's model reads back from one call it made: the result, or why it did not run.
     *
     * @param output the tool's output when it ran without error, else {@code null}
     * @param approvalId the pending approval request when the call is held, else {@code null}
     */
    public record Reply(
            String text, boolean error, com.fasterxml.jackson.databind.JsonNode output, String approvalId) {}

    /**
     * One call an application's model made (a framework adapter's), through the gate with the approval queue: a
     * {@code PROPOSE} tool's call is filed in the agent channel, scoped to {@code label:conversation}, as requested by
     * {@code label:user}, and the operator is told how to decide it. Denied and missing read alike.
     *
     * @param label who calls, for the requester and the scope ({@code langchain4j}, {@code spring-ai})
     * @param arguments the arguments as the model wrote them (JSON text)
     */
    public Reply reply(String label, Principal principal, String conversationId, String tool, String arguments) {
        Principal p = principal == null ? Principal.ANONYMOUS : principal;
        String requester = label + ":" + (p.user() == null ? "anonymous" : p.user());
        ToolCalls.Outcome<ToolResult> outcome;
        try {
            outcome = call(
                    new ToolCalls.Request(p, null, requester, conversationId, tool, arguments, null),
                    ToolCalls.queue(
                            scout.approvals(),
                            dev.toolscout.approval.Approvals.Channel.AGENT,
                            label + ":" + (conversationId == null ? "-" : conversationId)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Reply(tool + " was not run: the call was interrupted", true, null, null);
        }
        return switch (outcome) {
            case ToolCalls.Outcome.Ran<ToolResult> ran ->
                ran.result().isError()
                        ? new Reply(ran.result().error(), true, null, null)
                        : new Reply(
                                ran.result().output().isTextual()
                                        ? ran.result().output().textValue()
                                        : ran.result().output().toString(),
                                false,
                                ran.result().output(),
                                null);
            case ToolCalls.Outcome.NotFound<ToolResult> nf -> new Reply(nf.message(), true, null, null);
            case ToolCalls.Outcome.InvalidArguments<ToolResult> ia -> new Reply(ia.message(), true, null, null);
            case ToolCalls.Outcome.Refused<ToolResult> rf -> new Reply(rf.message(), true, null, null);
            case ToolCalls.Outcome.Failed<ToolResult> f -> new Reply(f.message(), true, null, null);
            case ToolCalls.Outcome.Denied<ToolResult> d -> new Reply(d.message(), true, null, null);
            case ToolCalls.Outcome.Held<ToolResult> h -> {
                String id = h.approval().id();
                if (h.filed()) {
                    LOG.warn(
                            "approval request {}: {} asks to run {} ({}, conversation {}); decide with "
                                    + "`toolscout approvals approve {}` or `deny {}`",
                            id,
                            requester,
                            h.tool().fullName(),
                            label,
                            conversationId,
                            id,
                            id);
                }
                yield new Reply(
                        h.tool().fullName() + " needs approval and was not run: approval request " + id
                                + " is pending. Tell the user; once someone else approves it, the same call with the "
                                + "same arguments runs.",
                        false,
                        null,
                        id);
            }
        };
    }

    /** The executor registered for the tool's source, else for its kind; null for none. */
    private ToolExecutor executor(ToolSpec tool) {
        ToolExecutor e = bySource.get(tool.name().source());
        return e != null ? e : byKind.get(tool.sourceKind());
    }

    /** The gate passes an {@link ObjectNode} when it parsed the arguments, the caller's {@code Map} otherwise. */
    private static ObjectNode objectNode(Object args) {
        return args instanceof ObjectNode o ? o : JSON.valueToTree(args);
    }

    /** Builds a {@link ToolRunner}. Not thread-safe. */
    public static final class Builder {
        private final ToolScout scout;
        private final Map<String, ToolExecutor> bySource = new HashMap<>();
        private final Map<SourceKind, ToolExecutor> byKind = new EnumMap<>(SourceKind.class);
        private final Map<String, ToolSpec> applicationTools = new HashMap<>();

        private Builder(ToolScout scout) {
            if (scout == null) {
                throw new IllegalArgumentException(
                        "a ToolRunner runs over a ToolScout made by ToolScout.builder(), " + "got: null");
            }
            this.scout = scout;
        }

        /**
         * Runs the tools of {@code source} (the part of their name before {@code __}) through {@code executor}. An
         * executor for a source wins over one for its kind.
         */
        public Builder executor(String source, ToolExecutor executor) {
            if (source == null || source.isBlank()) {
                throw new IllegalArgumentException("an executor's source must not be blank, got: '" + source + "'");
            }
            bySource.put(source, Objects.requireNonNull(executor, "executor"));
            return this;
        }

        /** Runs every tool of {@code kind} ({@code mcp}, {@code openapi}, ...) that no source executor claims. */
        public Builder executor(SourceKind kind, ToolExecutor executor) {
            byKind.put(Objects.requireNonNull(kind, "kind"), Objects.requireNonNull(executor, "executor"));
            return this;
        }

        /**
         * Tools outside the catalog a model may call by name (the MCP actions {@code mcp__*}, an application's own),
         * run by {@code executor} (registered for each one's source); the access policy applies to them as to catalog
         * tools.
         */
        public Builder tools(List<ToolSpec> specs, ToolExecutor executor) {
            Objects.requireNonNull(executor, "executor");
            for (ToolSpec s : specs) {
                applicationTools.put(s.fullName(), s);
                bySource.put(s.name().source(), executor);
            }
            return this;
        }

        public ToolRunner build() {
            return new ToolRunner(this);
        }
    }
}
