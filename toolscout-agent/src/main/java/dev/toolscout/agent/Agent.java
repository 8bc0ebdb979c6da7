package dev.toolscout.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import dev.toolscout.agent.internal.RunState;
import dev.toolscout.agent.internal.SchemaElements;
import dev.toolscout.approval.ApprovalStore.ApprovalStatus;
import dev.toolscout.approval.Approvals;
import dev.toolscout.conversation.Conversations;
import dev.toolscout.discovery.DiscoveryTools;
import dev.toolscout.engine.RenderFormat;
import dev.toolscout.engine.SelectRequest;
import dev.toolscout.engine.SelectResult;
import dev.toolscout.engine.ToolRunner;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.execution.ToolCalls;
import dev.toolscout.execution.ToolExecutor;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Principal;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.routing.Route;
import dev.toolscout.runs.RunStore;
import dev.toolscout.runs.RunStore.StoredRun;
import dev.toolscout.runs.UsageStore;
import dev.toolscout.runs.UsageStore.StoredUsage;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent loop over one ToolScout: {@link #run} takes a user message in a conversation to the model's answer.
 * Each turn selects the tools for the message (with the conversation's active skills, and the tools discovery
 * found), renders them with ToolScout's system-prompt section, calls the model, and runs its tool calls in
 * order:
 *
 * <ul>
 *   <li>a tool the principal may not see, a missing one and a {@code BLOCKED} one are answered {@code Tool not
 *       found: NAME}, the same words, and never run;
 *   <li>a {@code PROPOSE} tool files an approval request and the run pauses ({@code awaiting_approval}); an
 *       approver other than the requester decides it; {@link #resume} then goes on (after a restart too: the run
 *       is in the state store);
 *   <li>ToolScout's own tools ({@code tool_discovery__*}, {@code skills__activate}) run here: what {@code find}
 *       returns and the activated skill's tools join the next turn's tools;
 *   <li>other tools run through the {@link ToolExecutor} registered for their source or kind; a tool with none is
 *       "not executable here", an error for the model.
 * </ul>
 *
 * <p>Before the first model call, the router's route may answer without one (docs/AGENT.md, Routes): a memory
 * that answers the message ({@code DIRECT_MEMORY}), or a no-parameter, read-only tool the policy allows outright
 * ({@code SKILL_EXECUTE}), run with no arguments.
 *
 * <p>Limits ({@link AgentLimits}) stop a run with an error naming the limit. Every run leaves a {@link
 * UsageRecord}. Thread-safe: runs of different conversations go on at once; a run is driven by one thread at a
 * time.
 */
public final class Agent {
    private static final Logger LOG = LoggerFactory.getLogger(Agent.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final SecureRandom RANDOM = new SecureRandom();
    /** The most characters of one tool result the model gets; the rest is cut with a note. */
    public static final int MAX_RESULT_CHARS = 100_000;
    /** The most earlier messages of the conversation sent with a new request. */
    public static final int MAX_HISTORY_MESSAGES = 40;

    static final String RUNNING = "running";

    private final ToolScout scout;
    private final RunStore store;
    private final UsageStore usageStore;
    private final Approvals approvals;
    private final ChatProvider provider;
    private final ToolRunner runner;
    private final AgentLimits limits;
    private final Clock clock;
    private final List<Consumer<UsageRecord>> listeners = new CopyOnWriteArrayList<>();
    private final Set<String> driving = ConcurrentHashMap.newKeySet();

    private Agent(Builder b) {
        this.scout = b.scout;
        this.store = b.scout.runs();
        this.usageStore = b.scout.usage();
        this.approvals = b.scout.approvals();
        this.provider = b.provider;
        this.runner = b.runner.build();
        this.limits = b.limits;
        this.clock = b.clock;
        if (b.listener != null) {
            listeners.add(b.listener);
        }
    }

    /**
     * A builder over {@code scout} (not read-only) and {@code provider}.
     *
     * @throws IllegalArgumentException for a null or a read-only {@link ToolScout}
     */
    public static Builder builder(ToolScout scout, ChatProvider provider) {
        return new Builder(scout, provider);
    }

    public AgentLimits limits() {
        return limits;
    }

    public ChatProvider provider() {
        return provider;
    }

    /** Tells {@code listener} each usage record as it is stored (the server's metrics). */
    public void onUsage(Consumer<UsageRecord> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** {@link #run(String, Principal, String, String, Consumer)} for the local user, telling nothing as it goes. */
    public AgentResult run(String conversationId, Principal principal, String message) throws InterruptedException {
        return run(conversationId, principal, null, message, e -> {});
    }

    /**
     * Runs one request to its end, to a pause for an approval, or to a limit.
     *
     * @param conversationId the conversation (1-128 characters of {@code [A-Za-z0-9._:-]}); its earlier requests are
     *     the history the model sees
     * @param principal who the request runs for (access, the conversation's owner)
     * @param requester who asks, as approvals record it ({@code key:alice}); {@code null} for the local user
     *     ({@code local}). An approval is never decided by its requester
     * @param message the user's message, at most {@value InputLimits#MAX_REQUEST_MESSAGE_CHARS} characters (sent whole)
     * @param events told the text as it streams, and each tool call
     * @throws IllegalArgumentException for a bad conversation id or message
     * @throws IllegalStateException when the conversation has a run waiting for an approval (decide it first)
     * @throws InterruptedException when the calling thread is interrupted
     */
    public AgentResult run(
            String conversationId, Principal principal, String requester, String message, Consumer<AgentEvent> events)
            throws InterruptedException {
        Conversations.checkId(conversationId);
        Objects.requireNonNull(principal, "principal");
        InputLimits.checkRequestMessage(message);
        String key = RunState.principalKey(principal);
        List<StoredRun> earlier = store.loadRuns(key, conversationId);
        for (StoredRun r : earlier) {
            if (r.status().equals(AgentResult.Status.AWAITING_APPROVAL.id())) {
                throw new IllegalStateException("conversation " + conversationId + " has run " + r.id()
                        + " waiting for approval request " + r.approvalId()
                        + "; it goes on once that is decided (`toolscout "
                        + "approvals approve|deny " + r.approvalId() + "`), before a new message");
            }
        }
        RunState st = new RunState();
        st.id = newId();
        st.conversationId = conversationId;
        st.principal = principal;
        st.requester = requester == null || requester.isBlank() ? "local" : requester;
        st.message = message;
        st.provider = provider.name();
        st.createdAt = clock.instant();
        st.messages.addAll(history(earlier));
        st.firstMessage = st.messages.size();
        st.messages.add(UserMessage.from(message));
        if (!driving.add(st.id)) {
            throw new IllegalStateException("run " + st.id + " is already running");
        }
        try {
            save(st, RUNNING);
            return loop(st, events);
        } finally {
            driving.remove(st.id);
        }
    }

    /**
     * Goes on with a run that waited for an approval: the approved call runs (once), a denied one is an error the
     * model reads, and the loop continues; a request still pending leaves the run waiting.
     *
     * @param principal the run's principal: another principal's run is answered as a missing one
     * @throws IllegalArgumentException naming the id when there is no such run of {@code principal}'s
     * @throws IllegalStateException when the run is not waiting (finished, or being resumed elsewhere)
     */
    public AgentResult resume(String runId, Principal principal, Consumer<AgentEvent> events)
            throws InterruptedException {
        StoredRun stored = store.loadRun(runId == null ? "" : runId)
                .filter(r -> r.principal().equals(RunState.principalKey(principal)))
                .orElseThrow(() -> new IllegalArgumentException("no agent run has the id '" + runId + "'"));
        if (!stored.status().equals(AgentResult.Status.AWAITING_APPROVAL.id())) {
            throw new IllegalStateException(
                    "run " + runId + " is " + stored.status() + "; only a run awaiting approval " + "is resumed");
        }
        if (!driving.add(runId)) {
            throw new IllegalStateException("run " + runId + " is being resumed already");
        }
        try {
            RunState st = RunState.fromJson(stored.stateJson());
            if (st.pendingApproval != null && approvals.get(st.pendingApproval).status() == ApprovalStatus.PENDING) {
                return result(
                        st, AgentResult.Status.AWAITING_APPROVAL, usage(st, AgentResult.Status.AWAITING_APPROVAL));
            }
            return loop(st, events);
        } finally {
            driving.remove(runId);
        }
    }

    /** The id of {@code principal}'s run in this conversation that waits for an approval, if there is one. */
    public Optional<String> waiting(String conversationId, Principal principal) {
        Conversations.checkId(conversationId);
        return store.loadRuns(RunState.principalKey(principal), conversationId).stream()
                .filter(r -> r.status().equals(AgentResult.Status.AWAITING_APPROVAL.id()))
                .map(StoredRun::id)
                .findFirst();
    }

    /** The run with this id, as it stands, if it is {@code principal}'s. */
    public Optional<AgentResult> get(String runId, Principal principal) {
        return store.loadRun(runId == null ? "" : runId)
                .filter(r -> r.principal().equals(RunState.principalKey(principal)))
                .filter(r -> !r.status().equals(RUNNING))
                .map(r -> {
                    RunState st = RunState.fromJson(r.stateJson());
                    AgentResult.Status s = AgentResult.Status.parse(r.status());
                    return result(st, s, usage(st, s));
                });
    }

    /**
     * Resumes every stored run whose approval request is no longer pending (approved, denied or expired), whoever
     * decided it and in whatever process: what the server does at start and after an approval.
     *
     * @return the resumed runs' results, oldest first
     */
    public List<AgentResult> resumeDecided() throws InterruptedException {
        List<AgentResult> out = new ArrayList<>();
        for (StoredRun r : store.loadRunsByStatus(AgentResult.Status.AWAITING_APPROVAL.id())) {
            if (r.approvalId() == null
                    || approvals.get(r.approvalId()).status() == ApprovalStatus.PENDING
                    || driving.contains(r.id())) {
                continue;
            }
            RunState st = RunState.fromJson(r.stateJson());
            try {
                out.add(resume(r.id(), st.principal, e -> {}));
            } catch (IllegalStateException e) {
                LOG.debug("run {} was not resumed: {}", r.id(), e.getMessage());
            }
        }
        return out;
    }

    /** The usage records made since {@code since}, oldest first, at most {@code limit} (1-100000). */
    public List<UsageRecord> usage(Instant since, int limit) {
        return usage(usageStore, since, limit);
    }

    /** The usage records in {@code store} (a read-only one too), as {@link #usage(Instant, int)}. */
    public static List<UsageRecord> usage(UsageStore store, Instant since, int limit) {
        if (limit < 1 || limit > 100_000) {
            throw new IllegalArgumentException("limit must be between 1 and 100000, got: " + limit);
        }
        List<UsageRecord> out = new ArrayList<>();
        for (StoredUsage u : store.loadUsage(since, limit)) {
            try {
                out.add(new UsageRecord(u.id(), u.at(), (ObjectNode) JSON.readTree(u.json())));
            } catch (IOException | ClassCastException e) {
                LOG.warn("usage record {} is not a JSON object; left out: {}", u.id(), e.getMessage());
            }
        }
        return out;
    }

    // --- the loop ---

    private final class LimitReached extends Exception {
        private static final long serialVersionUID = 1L;

        LimitReached(String message) {
            super(message, null, false, false);
        }
    }

    private record Offered(ToolSpec spec, String origin) {}

    private AgentResult loop(RunState st, Consumer<AgentEvent> events) throws InterruptedException {
        long segment = System.nanoTime();
        Principal p = st.principal;
        try {
            if (st.pendingIndex >= 0) {
                AiMessage ai = lastAi(st);
                if (!runCalls(st, p, ai, st.pendingIndex, Map.of(), events, segment)) {
                    return pause(st, segment);
                }
            }
            while (true) {
                check(st, segment);
                long s0 = System.nanoTime();
                SelectResult sel = scout.select(new SelectRequest(st.message, p, null, null, st.conversationId));
                boolean firstTurn = st.turns == 0 && st.toolCalls == 0;
                if (firstTurn && sel.route() != null && st.route == null) {
                    st.route = sel.route().route().name();
                    st.routeTarget = sel.route().target();
                }
                if (firstTurn && sel.route() != null && sel.route().route() == Route.DIRECT_MEMORY) {
                    // a remembered fact answers the message (docs/ROUTING.md): no model call; the memory is read as the
                    // principal, so its scope is checked again
                    java.util.Optional<dev.toolscout.memory.Memory> m =
                            scout.memory().get(p, sel.route().target());
                    if (m.isPresent()) {
                        String text = "From memory: " + m.get().content();
                        events.accept(new AgentEvent.Text(text));
                        st.messages.add(AiMessage.from(text));
                        st.text = text;
                        st.routeActed = true;
                        offered(st, p, sel); // the record's selection
                        return finish(st, AgentResult.Status.DONE, null, segment);
                    }
                }
                Map<String, Offered> offered = offered(st, p, sel);
                if (firstTurn && sel.route() != null && sel.route().route() == Route.SKILL_EXECUTE) {
                    Optional<ToolSpec> run = runnableByRoute(p, sel.route().target());
                    if (run.isPresent()) {
                        Outcome o = runByRoute(st, p, run.get(), events);
                        if (!o.error()) {
                            String text = "Ran " + run.get().fullName() + ": " + o.text();
                            events.accept(new AgentEvent.Text(text));
                            st.messages.add(AiMessage.from(text));
                            st.text = text;
                            st.routeActed = true;
                            return finish(st, AgentResult.Status.DONE, null, segment);
                        }
                        // the tool failed: the model gets its call and error result with the message, and takes it from
                        // there
                    }
                }
                List<ToolSpecification> specs = new ArrayList<>(offered.size());
                offered.values().forEach(o -> specs.add(SchemaElements.tool(o.spec())));
                String system =
                        MemoryEvidence.system(scout.render(sel, RenderFormat.ANTHROPIC), st.message, sel.route());
                List<String> found = offered.entrySet().stream()
                        .filter(e -> e.getValue().origin().equals("discovery"))
                        .map(Map.Entry::getKey)
                        .toList();
                if (!found.isEmpty()) {
                    system += "\n\nTools discovery found in this conversation, also available: "
                            + String.join(", ", found) + ".";
                }
                List<ChatMessage> messages = new ArrayList<>(st.messages.size() + 1);
                messages.add(SystemMessage.from(system));
                messages.addAll(st.messages);
                ChatRequest request = ChatRequest.builder()
                        .messages(messages)
                        .toolSpecifications(specs)
                        .build();
                st.savedTokens += Math.max(0, sel.tokens().all() - sel.tokens().selected());
                long p0 = System.nanoTime();
                ChatResponse response = provider.chat(request, t -> events.accept(new AgentEvent.Text(t)));
                st.providerNanos += System.nanoTime() - p0;
                st.turns++;
                TokenUsage u = response.tokenUsage();
                if (u != null) {
                    st.inputTokens += u.inputTokenCount() == null ? 0 : u.inputTokenCount();
                    st.outputTokens += u.outputTokenCount() == null ? 0 : u.outputTokenCount();
                }
                AiMessage ai = response.aiMessage();
                st.messages.add(ai);
                if (ai.text() != null && !ai.text().isBlank()) {
                    st.text = ai.text();
                }
                if (!ai.hasToolExecutionRequests()) {
                    return finish(st, AgentResult.Status.DONE, null, segment);
                }
                if (!runCalls(st, p, ai, 0, offered, events, segment)) {
                    return pause(st, segment);
                }
            }
        } catch (LimitReached e) {
            return finish(st, AgentResult.Status.FAILED, e.getMessage(), segment);
        } catch (ProviderException e) {
            return finish(st, AgentResult.Status.FAILED, e.getMessage(), segment);
        }
    }

    private static AiMessage lastAi(RunState st) {
        for (int i = st.messages.size() - 1; i >= 0; i--) {
            if (st.messages.get(i) instanceof AiMessage a) {
                return a;
            }
        }
        throw new IllegalStateException("run " + st.id + " waits on a tool call but holds no model message");
    }

    private void check(RunState st, long segment) throws LimitReached {
        if (st.turns >= limits.maxTurns()) {
            throw new LimitReached("the request stopped after " + st.turns + " model calls: the limit maxTurns is "
                    + limits.maxTurns());
        }
        long tokens = st.inputTokens + st.outputTokens;
        if (tokens >= limits.maxTokens()) {
            throw new LimitReached("the request stopped after using " + tokens + " tokens: the limit maxTokens is "
                    + limits.maxTokens());
        }
        Duration spent = Duration.ofNanos(st.activeNanos + System.nanoTime() - segment);
        if (spent.compareTo(limits.maxWallTime()) >= 0) {
            throw new LimitReached("the request stopped after " + spent.toMillis() + " ms: the limit maxWallTime is "
                    + limits.maxWallTime().toMillis() + " ms");
        }
    }

    /** The tools of this turn: the selection, then what discovery found (in this request or earlier in the conversation). */
    private Map<String, Offered> offered(RunState st, Principal p, SelectResult sel) {
        boolean first = st.preselected.isEmpty() && st.selection.isEmpty();
        Map<String, Offered> out = new LinkedHashMap<>();
        Set<String> skillTools = new java.util.HashSet<>();
        for (String skill : sel.activeSkills()) {
            scout.skill(p, skill).ifPresent(s -> skillTools.addAll(s.tools()));
        }
        for (SelectResult.SelectedTool t : sel.selected()) {
            String origin;
            if (scout.isMetaTool(t.name())) {
                origin = "meta";
            } else if (first || st.preselected.contains(t.name())) {
                origin = "selected";
            } else if (skillTools.contains(t.name())) {
                origin = "skill";
            } else if (st.discovered.contains(t.name())) {
                origin = "discovery";
            } else {
                origin = "selected";
            }
            out.put(t.name(), new Offered(t.spec(), origin));
            if (first) {
                if (!origin.equals("meta")) {
                    st.preselected.add(t.name());
                }
                st.selection
                        .addObject()
                        .put("name", t.name())
                        .put("score", Math.round(t.score() * 10_000) / 10_000.0)
                        .put("reason", t.reason())
                        .put("origin", t.origin().name().toLowerCase(java.util.Locale.ROOT));
            }
        }
        if (first) {
            st.discoverySuggested = sel.discoverySuggested();
        }
        List<String> disclosed = new ArrayList<>(st.discovered);
        scout.conversation(p, st.conversationId).ifPresent(c -> disclosed.addAll(0, c.disclosedTools()));
        for (String name : disclosed) {
            if (!out.containsKey(name)) {
                runner.resolve(p, name).ifPresent(spec -> out.put(name, new Offered(spec, "discovery")));
            }
        }
        return out;
    }

    /**
     * The tool a SKILL_EXECUTE route may run without the model (docs/AGENT.md): one the principal may call (a
     * denied, a missing and a BLOCKED one are alike: empty, and the model is asked as for any message), that the
     * policy allows outright ({@code EXECUTE}, not {@code PROPOSE}: an approval is never filed on the router's
     * guess), that only reads ({@code side_effect: read}: a guess never writes or deletes), that needs no arguments,
     * that is a catalog tool (ToolScout's own tools act on what the model means), and that an executor runs.
     */
    private Optional<ToolSpec> runnableByRoute(Principal p, String name) {
        if (name == null || scout.isMetaTool(name) || runner.isApplicationTool(name)) {
            return Optional.empty();
        }
        return runner.resolve(p, name)
                .filter(t -> t.aiAccess() == AiAccess.EXECUTE)
                .filter(t -> t.sideEffect() == dev.toolscout.model.SideEffect.READ)
                .filter(t -> t.requiredParameters().isEmpty())
                .filter(runner::runs);
    }

    /**
     * Runs {@code tool} with no arguments as the route's call: in the messages as a tool call and its result (the
     * conversation's history reads as if the model had called it), in the record with origin {@code route}.
     */
    private Outcome runByRoute(RunState st, Principal p, ToolSpec tool, Consumer<AgentEvent> events)
            throws InterruptedException {
        ToolExecutionRequest req = ToolExecutionRequest.builder()
                .id("route_" + newId().substring(4))
                .name(tool.fullName())
                .arguments("{}")
                .build();
        st.messages.add(AiMessage.from(List.of(req)));
        st.toolCalls++;
        long t0 = System.nanoTime();
        Outcome o = call(st, p, req, Map.of(tool.fullName(), new Offered(tool, "route")), events);
        st.toolNanos += System.nanoTime() - t0;
        events.accept(new AgentEvent.ToolResult(req.name(), o.error() ? o.text() : null));
        st.messages.add(ToolExecutionResultMessage.builder()
                .id(req.id())
                .toolName(req.name())
                .text(o.text())
                .isError(o.error())
                .build());
        return o;
    }

    /**
     * Runs the calls of {@code ai} from {@code from} on, adding their results to the messages.
     *
     * @return false when a call waits for an approval (the run pauses there)
     */
    private boolean runCalls(
            RunState st,
            Principal p,
            AiMessage ai,
            int from,
            Map<String, Offered> offered,
            Consumer<AgentEvent> events,
            long segment)
            throws LimitReached, InterruptedException {
        List<ToolExecutionRequest> requests = ai.toolExecutionRequests();
        for (int i = from; i < requests.size(); i++) {
            ToolExecutionRequest req = requests.get(i);
            boolean resumed = i == st.pendingIndex;
            if (!resumed) {
                if (st.toolCalls >= limits.maxToolCalls()) {
                    throw new LimitReached("the request stopped before its tool call number " + (st.toolCalls + 1)
                            + ": the limit maxToolCalls is " + limits.maxToolCalls());
                }
                st.toolCalls++;
            }
            long t0 = System.nanoTime();
            Outcome o = call(st, p, req, offered, events);
            st.toolNanos += System.nanoTime() - t0;
            if (o == null) {
                st.pendingIndex = i;
                return false;
            }
            st.pendingIndex = -1;
            st.pendingApproval = null;
            st.pendingTool = null;
            events.accept(new AgentEvent.ToolResult(req.name(), o.error ? o.text : null));
            st.messages.add(ToolExecutionResultMessage.builder()
                    .id(req.id())
                    .toolName(req.name())
                    .text(o.text)
                    .isError(o.error)
                    .build());
        }
        return true;
    }

    private record Outcome(String text, boolean error) {}

    /** One call; {@code null} when it waits for an approval. */
    private Outcome call(
            RunState st,
            Principal p,
            ToolExecutionRequest req,
            Map<String, Offered> offered,
            Consumer<AgentEvent> events)
            throws InterruptedException {
        String name = req.name() == null ? "" : req.name();
        Offered o = offered.get(name);
        String origin = o != null
                ? o.origin()
                : scout.isMetaTool(name)
                        ? "meta"
                        : st.preselected.contains(name)
                                ? "selected"
                                : st.discovered.contains(name) ? "discovery" : "other";
        ObjectNode record = F.objectNode().put("tool", name).put("origin", origin);
        boolean resumed = st.pendingApproval != null && name.equals(st.pendingTool);
        if (!resumed) {
            events.accept(new AgentEvent.ToolCall(name, origin));
        }
        ToolCalls.Outcome<ToolResult> outcome = runner.call(
                new ToolCalls.Request(p, null, st.requester, st.conversationId, name, req.arguments(), null),
                ToolCalls.queue(approvals, Approvals.Channel.AGENT, st.id));
        return switch (outcome) {
            case ToolCalls.Outcome.NotFound<ToolResult> nf ->
                recorded(st, record.put("outcome", "not_found"), nf.message(), true);
            case ToolCalls.Outcome.InvalidArguments<ToolResult> ia ->
                recorded(st, record.put("outcome", "error"), ia.message(), true);
            case ToolCalls.Outcome.Refused<ToolResult> rf ->
                recorded(st, record.put("outcome", "error"), rf.message(), true);
            case ToolCalls.Outcome.Failed<ToolResult> f -> {
                LOG.info("tool {} did not run in run {}: {}", name, st.id, f.message());
                yield recorded(st, record.put("outcome", "error"), f.message(), true);
            }
            case ToolCalls.Outcome.Held<ToolResult> h -> {
                String id = h.approval().id();
                if (h.filed()) {
                    LOG.warn(
                            "approval request {}: {} asks to run {} (agent run {}); decide with `toolscout approvals "
                                    + "approve {}` or `deny {}`",
                            id,
                            st.requester,
                            name,
                            st.id,
                            id,
                            id);
                }
                approval(st, id, name, "pending");
                st.pendingApproval = id;
                st.pendingTool = name;
                yield null;
            }
            case ToolCalls.Outcome.Denied<ToolResult> d -> {
                approval(st, d.approval().id(), name, "denied");
                yield recorded(
                        st,
                        record.put("outcome", "denied")
                                .put("approval", d.approval().id()),
                        d.message(),
                        true);
            }
            case ToolCalls.Outcome.Ran<ToolResult> ran -> {
                if (ran.approval() != null) {
                    approval(st, ran.approval().id(), name, "approved");
                    record.put("approval", ran.approval().id());
                }
                ToolResult r = ran.result();
                if (r.isError()) {
                    yield recorded(st, record.put("outcome", "error"), r.error(), true);
                }
                if (DiscoveryTools.FIND.equals(name)) {
                    int n = 0;
                    for (JsonNode t : r.output().path("tools")) {
                        st.discovered.add(t.path("name").asText());
                        n++;
                    }
                    record.put("found", n);
                }
                yield recorded(st, record.put("outcome", "ok"), text(r.output()), false);
            }
        };
    }

    private static Outcome recorded(RunState st, ObjectNode record, String text, boolean error) {
        st.calls.add(record);
        return new Outcome(cut(text, MAX_RESULT_CHARS), error);
    }

    private static void approval(RunState st, String id, String tool, String outcome) {
        for (JsonNode a : st.approvals) {
            if (a.path("id").asText().equals(id)) {
                ((ObjectNode) a).put("outcome", outcome);
                return;
            }
        }
        st.approvals.addObject().put("id", id).put("tool", tool).put("outcome", outcome);
    }

    private static String text(JsonNode output) {
        return output.isTextual() ? output.textValue() : output.toString();
    }

    private static String cut(String s, int max) {
        if (s == null) {
            return "";
        }
        return s.length() <= max ? s : s.substring(0, max) + "... (" + (s.length() - max) + " more characters cut)";
    }

    // --- state ---

    private List<ChatMessage> history(List<StoredRun> earlier) {
        for (int i = earlier.size() - 1; i >= 0; i--) {
            StoredRun r = earlier.get(i);
            if (r.status().equals(AgentResult.Status.DONE.id())) {
                List<ChatMessage> all = RunState.fromJson(r.stateJson()).messages;
                int start = Math.max(0, all.size() - MAX_HISTORY_MESSAGES);
                // start at a user message: never a tool result without the call it answers
                while (start < all.size() && !(all.get(start) instanceof UserMessage)) {
                    start++;
                }
                return new ArrayList<>(all.subList(start, all.size()));
            }
        }
        return List.of();
    }

    private void save(RunState st, String status) {
        Instant now = clock.instant();
        store.saveRun(new StoredRun(
                st.id,
                RunState.principalKey(st.principal),
                st.conversationId,
                status,
                st.pendingApproval,
                st.toJson(),
                st.createdAt,
                now));
    }

    private AgentResult pause(RunState st, long segment) {
        st.activeNanos += System.nanoTime() - segment;
        save(st, AgentResult.Status.AWAITING_APPROVAL.id());
        UsageRecord u = usage(st, AgentResult.Status.AWAITING_APPROVAL);
        store(u, st);
        return result(st, AgentResult.Status.AWAITING_APPROVAL, u);
    }

    private AgentResult finish(RunState st, AgentResult.Status status, String error, long segment) {
        st.activeNanos += System.nanoTime() - segment;
        st.error = error;
        st.pendingApproval = null;
        st.pendingTool = null;
        save(st, status.id());
        UsageRecord u = usage(st, status);
        store(u, st);
        if (status == AgentResult.Status.DONE) {
            // the newest finished run is the conversation's history: older finished ones are no longer needed
            for (StoredRun r : store.loadRuns(RunState.principalKey(st.principal), st.conversationId)) {
                if (!r.id().equals(st.id)
                        && !r.status().equals(AgentResult.Status.AWAITING_APPROVAL.id())
                        && !r.status().equals(RUNNING)) {
                    store.deleteRun(r.id());
                }
            }
        }
        return result(st, status, u);
    }

    private void store(UsageRecord u, RunState st) {
        usageStore.saveUsage(new StoredUsage(
                u.id(),
                u.at(),
                RunState.principalKey(st.principal),
                st.conversationId,
                u.json().toString()));
        for (Consumer<UsageRecord> l : listeners) {
            try {
                l.accept(u);
            } catch (RuntimeException e) {
                LOG.warn("a usage listener failed: {}", e.toString());
            }
        }
    }

    private static AgentResult result(RunState st, AgentResult.Status status, UsageRecord u) {
        return new AgentResult(
                st.id,
                st.conversationId,
                status,
                st.text,
                status == AgentResult.Status.AWAITING_APPROVAL ? st.pendingApproval : null,
                status == AgentResult.Status.AWAITING_APPROVAL ? st.pendingTool : null,
                st.error,
                u);
    }

    private UsageRecord usage(RunState st, AgentResult.Status status) {
        Instant at = clock.instant();
        ObjectNode j = F.objectNode();
        j.put("id", st.id);
        j.put("at", at.toString());
        j.put("status", status.id());
        j.put("conversation", st.conversationId);
        j.set("principal", RunState.principal(st.principal));
        j.put("requester", st.requester);
        j.put("message", st.message);
        j.put("provider", st.provider);
        j.set("selection", st.selection.deepCopy());
        j.put("discovery_suggested", st.discoverySuggested);
        j.set("calls", st.calls.deepCopy());
        j.set("approvals", st.approvals.deepCopy());
        j.putObject("tokens")
                .put("input", st.inputTokens)
                .put("output", st.outputTokens)
                .put("saved", st.savedTokens);
        j.put("turns", st.turns);
        j.put("tool_calls", st.toolCalls);
        long overhead = Math.max(0, st.activeNanos - st.providerNanos - st.toolNanos);
        j.putObject("latency_ms")
                .put("total", ms(st.activeNanos))
                .put("provider", ms(st.providerNanos))
                .put("tools", ms(st.toolNanos))
                .put("overhead", ms(overhead))
                .put("overhead_per_turn", st.turns == 0 ? 0 : ms(overhead / st.turns));
        if (st.error != null) {
            j.put("error", st.error);
        }
        if (st.route != null) {
            j.putObject("route")
                    .put("route", st.route)
                    .put("target", st.routeTarget)
                    .put("acted", st.routeActed);
        }
        return new UsageRecord(st.id, at, j);
    }

    private static double ms(long nanos) {
        return Math.round(nanos / 1_000.0) / 1_000.0;
    }

    private static String newId() {
        byte[] b = new byte[8];
        RANDOM.nextBytes(b);
        return "run-" + HexFormat.of().formatHex(b);
    }

    /** Builds an {@link Agent}. Not thread-safe. */
    public static final class Builder {
        private final ToolScout scout;
        private final ChatProvider provider;
        private final ToolRunner.Builder runner;
        private AgentLimits limits = AgentLimits.DEFAULTS;
        private Clock clock = Clock.systemUTC();
        private Consumer<UsageRecord> listener;

        private Builder(ToolScout scout, ChatProvider provider) {
            if (scout == null) {
                throw new IllegalArgumentException(
                        "the agent runs over a ToolScout made by ToolScout.builder(), got: null");
            }
            if (scout.readOnly()) {
                throw new IllegalArgumentException("the agent writes runs, conversations and usage records: open the "
                        + "ToolScout without readOnly(true)");
            }
            this.scout = scout;
            this.provider = Objects.requireNonNull(provider, "provider");
            this.runner = ToolRunner.builder(scout);
        }

        /**
         * Runs the tools of {@code source} (the part of their name before {@code __}) through {@code executor}. An
         * executor for a source wins over one for its kind.
         */
        public Builder executor(String source, ToolExecutor executor) {
            runner.executor(source, executor);
            return this;
        }

        /** Runs every tool of {@code kind} ({@code mcp}, {@code openapi}, ...) that no source executor claims. */
        public Builder executor(SourceKind kind, ToolExecutor executor) {
            runner.executor(kind, executor);
            return this;
        }

        /**
         * Tools outside the catalog the model may call by name (the MCP actions {@code mcp__*}), run by {@code
         * executor}; the access policy applies to them as to catalog tools.
         */
        public Builder tools(List<ToolSpec> specs, ToolExecutor executor) {
            runner.tools(specs, executor);
            return this;
        }

        /** The limits (default {@link AgentLimits#DEFAULTS}). */
        public Builder limits(AgentLimits l) {
            this.limits = Objects.requireNonNull(l, "limits");
            return this;
        }

        /** The clock of the records' times (default the system's, UTC). */
        public Builder clock(Clock c) {
            this.clock = Objects.requireNonNull(c, "clock");
            return this;
        }

        /** Told each usage record as it is stored. */
        public Builder onUsage(Consumer<UsageRecord> l) {
            this.listener = l;
            return this;
        }

        public Agent build() {
            return new Agent(this);
        }
    }
}
