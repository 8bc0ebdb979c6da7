package dev.toolscout.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.conversation.Conversations;
import dev.toolscout.discovery.DiscoveryResult;
import dev.toolscout.discovery.DiscoveryTools;
import dev.toolscout.execution.ToolCalls;
import dev.toolscout.memory.MemoryTools;
import dev.toolscout.model.Principal;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.skills.SkillTools;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * ToolScout's own tools (the discovery tools, {@code skills__activate}, the memory tools, the tools of the
 * registered searchable indexes) as targets of the call
 * gate ({@link ToolCalls#call}): how each is found for a principal and what runs it. The gate checks access, the
 * role and the arguments; an executor here runs its tool without checking them again. Thread-safe.
 */
final class OwnTools {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Engine engine;
    private final EngineServices guards;
    private final IndexTools indexes;

    OwnTools(Engine engine, EngineServices guards) {
        this.engine = engine;
        this.guards = guards;
        this.indexes = new IndexTools(engine.router(), engine.access());
    }

    /** The tools of the searchable indexes registered with the router ({@code git__search}). */
    IndexTools indexes() {
        return indexes;
    }

    /** The definition of one of ToolScout's own tools, a registered index's tool among them, or empty. */
    Optional<ToolSpec> spec(String name) {
        Optional<ToolSpec> b = builtIn(name);
        return b.isPresent() ? b : indexes.byTool(name).map(i -> i.tool());
    }

    /** The built-in definition of one of ToolScout's own tools, or empty for any other name. */
    static Optional<ToolSpec> builtIn(String name) {
        if (SkillTools.ACTIVATE.equals(name)) {
            return Optional.of(SkillTools.SPEC);
        }
        return MemoryTools.isMemoryTool(name)
                ? MemoryTools.spec(name)
                : DiscoveryTools.SPECS.stream()
                        .filter(t -> t.fullName().equals(name))
                        .findFirst();
    }

    /**
     * The tool {@code p} may call by {@code name} in the conversation {@code conversationId} (or {@code null}), as
     * the gate's target: empty for another name and for a memory tool the policy denies {@code p}, alike. A memory
     * tool's access goes by the catalog's definition when it holds one (as listing does), its role and approval by
     * the built-in one, which is what runs; the discovery tools and {@code skills__activate} answer within what {@code
     * p} may see, so any principal may call them.
     *
     * @throws IllegalArgumentException for a conversation id that is not 1-128 characters of {@code [A-Za-z0-9._:-]}
     */
    Optional<ToolCalls.Target<ToolCallResult>> target(Principal p, String conversationId, String name) {
        if (conversationId != null) {
            Conversations.checkId(conversationId);
        }
        Optional<ToolSpec> builtIn = builtIn(name);
        if (builtIn.isEmpty()) {
            // a registered index's tool (git__search): the policy judges it like any tool
            return indexes.target(p, name);
        }
        ToolSpec own = builtIn.get();
        if (MemoryTools.isMemoryTool(name)) {
            return guards.visibleTool(p, own)
                    .map(described -> new ToolCalls.Target<>(
                            described, own, null, (tool, args, approved) -> remember(p, conversationId, own, args)));
        }
        if (SkillTools.ACTIVATE.equals(name)) {
            return Optional.of(new ToolCalls.Target<>(own, (tool, args, approved) -> {
                guards.writable("activate a skill in a conversation");
                return switch (engine.skillTools().activate(p, conversationId, json(args))) {
                    case SkillTools.Result.Ok ok -> new ToolCallResult(ok.output(), null);
                    case SkillTools.Result.Error e -> new ToolCallResult(null, e.message());
                };
            }));
        }
        return Optional.of(
                new ToolCalls.Target<>(own, (tool, args, approved) -> discover(p, conversationId, name, args)));
    }

    /**
     * Runs one of ToolScout's own tools through the gate, for the Java API: an answer, or an error for the model (a
     * denied and a missing name read alike); what an executor throws (a read-only instance refusing a write) is
     * thrown.
     */
    ToolCallResult call(Principal p, String conversationId, String name, JsonNode arguments) {
        ToolCalls.Outcome<ToolCallResult> outcome;
        try {
            outcome = ToolCalls.call(
                    new ToolCalls.Request(p, null, null, conversationId, name, null, arguments),
                    (who, tool) -> target(who, conversationId, tool),
                    ToolCalls.noApprovals());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + name, e);
        }
        return switch (outcome) {
            case ToolCalls.Outcome.Ran<ToolCallResult> r -> r.result();
            case ToolCalls.Outcome.NotFound<ToolCallResult> nf -> new ToolCallResult(null, nf.message());
            case ToolCalls.Outcome.InvalidArguments<ToolCallResult> ia -> new ToolCallResult(null, ia.message());
            case ToolCalls.Outcome.Refused<ToolCallResult> rf -> new ToolCallResult(null, rf.message());
            case ToolCalls.Outcome.Denied<ToolCallResult> d -> new ToolCallResult(null, d.message());
            case ToolCalls.Outcome.Held<ToolCallResult> h ->
                throw new IllegalStateException(name + " is held for approval request "
                        + h.approval().id() + ", and ToolScout's own tools never are");
            case ToolCalls.Outcome.Failed<ToolCallResult> f -> {
                if (f.cause() != null) {
                    throw f.cause();
                }
                yield new ToolCallResult(null, f.message());
            }
        };
    }

    /** A memory tool; whether it writes goes by {@code own}, the built-in definition that runs, as its role does. */
    private ToolCallResult remember(Principal p, String conversationId, ToolSpec own, Object args) {
        String name = own.fullName();
        if (own.sideEffect() != SideEffect.READ) {
            guards.writable("run " + name);
        }
        return switch (engine.memoryTools().call(p, conversationId, name, json(args))) {
            case MemoryTools.Result.Ok ok -> new ToolCallResult(ok.output(), null);
            case MemoryTools.Result.Error e -> new ToolCallResult(null, e.message());
        };
    }

    /** A discovery call; {@code find} in a conversation records the tools it disclosed (unless read-only). */
    private ToolCallResult discover(Principal p, String conversationId, String name, Object args) {
        return switch (engine.discovery().call(p, name, json(args))) {
            case DiscoveryResult.Ok ok -> {
                if (conversationId != null && DiscoveryTools.FIND.equals(name) && !engine.readOnly()) {
                    List<String> found = new ArrayList<>();
                    ok.output()
                            .path("tools")
                            .forEach(t -> found.add(t.path("name").asText()));
                    engine.conversations().disclose(p, conversationId, found);
                }
                yield new ToolCallResult(ok.output(), null);
            }
            case DiscoveryResult.Error e -> new ToolCallResult(null, e.message());
        };
    }

    /** The gate's arguments as JSON: an object node as it parsed them, or a map a channel parsed itself. */
    static JsonNode json(Object args) {
        return args instanceof JsonNode j ? j : JSON.valueToTree(args);
    }
}
