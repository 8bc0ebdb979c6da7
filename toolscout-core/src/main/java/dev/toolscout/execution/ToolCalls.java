package dev.toolscout.execution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.approval.ApprovalStore.StoredApproval;
import dev.toolscout.approval.Approvals;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.ToolSpec;
import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The one gate every tool call passes, whoever makes it (the agent loop, the MCP gateway, the HTTP API's memory
 * routes, the Java API's {@code callMetaTool}): {@link #call} checks the call in a fixed order and either runs it or
 * says why not, as an {@link Outcome}.
 *
 * <ol>
 *   <li><b>access</b>: a tool the principal may not see and a missing one are {@link Outcome.NotFound}, the same
 *       answer, before anything else of the call is looked at (invariant 8);
 *   <li><b>{@code BLOCKED}</b>: never runs, and reads as missing too;
 *   <li><b>role</b>: a {@link Role#READER} runs only tools that read and need no approval ({@link
 *       Outcome.Refused});
 *   <li><b>size cap</b>: raw arguments over {@link InputLimits#MAX_ARGUMENT_BYTES} are refused before they are
 *       parsed ({@link Outcome.InvalidArguments});
 *   <li><b>shape and schema</b>: the arguments are a JSON object, then the channel's own check of them;
 *   <li><b>approval</b>: a {@code PROPOSE} tool runs only as its {@link ApprovalStep} decides ({@link
 *       Outcome.Held}, {@link Outcome.Denied});
 *   <li><b>executor</b>: the tool's executor runs it ({@link Outcome.Ran}); none, or one that throws, is {@link
 *       Outcome.Failed}.
 * </ol>
 *
 * <p>What differs per channel stays with the channel: how a name is looked up ({@link Tools}), how an approval is
 * asked for ({@link ApprovalStep}: the approval queue, or the gateway's single-user modes), what the result type
 * is, and what the outcome becomes on the wire. Stateless and thread-safe.
 */
public final class ToolCalls {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SHOWN_ARGUMENT_CHARS = 200;

    private ToolCalls() {}

    /**
     * One call as a channel received it.
     *
     * @param principal who the call runs for (access, the executor)
     * @param role the caller's role, or {@code null} when the channel has none (the agent loop)
     * @param requester who asks, as approvals record it ({@code key:alice}, {@code local})
     * @param conversationId the conversation the call belongs to, or {@code null}
     * @param tool the called tool's name ({@code null} reads as the empty name)
     * @param rawArguments the arguments as the model wrote them (JSON text, capped and parsed here), or {@code null}
     *     when the channel parsed them already
     * @param arguments the parsed arguments (a JSON object as a {@code Map} or an {@link ObjectNode}) when {@code
     *     rawArguments} is {@code null}; {@code null} for none
     */
    public record Request(
            Principal principal,
            Role role,
            String requester,
            String conversationId,
            String tool,
            String rawArguments,
            Object arguments) {
        public Request {
            Objects.requireNonNull(principal, "principal");
            tool = tool == null ? "" : tool;
        }
    }

    /**
     * A tool a channel can call.
     *
     * @param spec the definition access went by (the catalog's), checked for {@code BLOCKED}
     * @param governs the definition the role and the approval go by (usually {@code spec}; the built-in one where
     *     a catalog entry only describes it, the reached tool's for a call-through)
     * @param check the channel's own check of the parsed arguments (a schema), or {@code null} for none
     * @param executor what runs the call, or {@code null} when nothing here runs tools of its kind
     */
    public record Target<R>(ToolSpec spec, ToolSpec governs, ArgumentCheck check, Executor<R> executor) {
        public Target {
            Objects.requireNonNull(spec, "spec");
            Objects.requireNonNull(governs, "governs");
        }

        public Target(ToolSpec spec, Executor<R> executor) {
            this(spec, spec, null, executor);
        }

        /**
         * This tool, found and governed as it is, run by {@code executor} instead: for an edge that answers in its own
         * type, or does over its own API what the tool does (the HTTP API's memory routes).
         */
        public <S> Target<S> withExecutor(Executor<S> executor) {
            return new Target<>(spec, governs, check, executor);
        }

        /**
         * Whether {@link ToolCalls#call} lets a caller with {@code role} that found this tool past access and the role:
         * not {@code BLOCKED} by {@link #spec}, and runnable by the role as {@link #governs} says. A channel lists a tool
         * for a role by this, so that what it lists and what it runs agree.
         */
        public boolean offeredTo(Role role) {
            return spec.aiAccess() != AiAccess.BLOCKED && roleMayRun(role, governs);
        }
    }

    /** How a channel finds the tool a call names. */
    @FunctionalInterface
    public interface Tools<R> {
        /** The tool {@code principal} may see by {@code name}: empty for a denied and a missing one alike. */
        Optional<Target<R>> find(Principal principal, String name);
    }

    /** A channel's check of a call's parsed arguments. */
    @FunctionalInterface
    public interface ArgumentCheck {
        /** What is wrong with {@code arguments}, in words the caller can act on, or {@code null} when they fit. */
        String problem(Object arguments);
    }

    /** Runs a call that passed the gate. */
    @FunctionalInterface
    public interface Executor<R> {
        /**
         * @param tool the definition access went by
         * @param arguments the parsed arguments: an {@link ObjectNode} when the gate parsed them, else as given
         * @param approved whether a {@code PROPOSE} call was approved (the gateway's modes may let one through
         *     unapproved, for the executor to refuse)
         */
        R run(ToolSpec tool, Object arguments, boolean approved) throws InterruptedException;
    }

    /** How a channel gets a {@code PROPOSE} call approved. */
    @FunctionalInterface
    public interface ApprovalStep {
        Decision decide(Request request, ToolSpec tool, Object arguments) throws InterruptedException;
    }

    /** What an {@link ApprovalStep} decided. */
    public sealed interface Decision {
        /** Go on to the executor; {@code request} is the approval that ran it, or {@code null} (a single-user mode). */
        record Proceed(boolean approved, StoredApproval request) implements Decision {}

        /** Waiting for a decision ({@code filed} when this call made the request). */
        record Held(StoredApproval request, boolean filed) implements Decision {}

        /** Denied: the call does not run. */
        record Denied(StoredApproval request) implements Decision {}
    }

    /**
     * The approval step of a channel whose tools never need an approval (ToolScout's own tools, each governed by its
     * built-in definition, none of which is {@code PROPOSE}): asking it is a bug, thrown as an {@link
     * IllegalStateException} naming the tool.
     */
    public static ApprovalStep noApprovals() {
        return (request, tool, arguments) -> {
            throw new IllegalStateException(tool.fullName() + " asks for an approval, and this channel runs only tools "
                    + "that never need one");
        };
    }

    /** The approval queue as an {@link ApprovalStep}: requests filed in {@code channel} within {@code scope}. */
    public static ApprovalStep queue(Approvals approvals, Approvals.Channel channel, String scope) {
        Objects.requireNonNull(approvals, "approvals");
        Objects.requireNonNull(channel, "channel");
        return (request, tool, arguments) -> switch (approvals.request(
                channel, scope, request.requester(), tool.fullName(), arguments)) {
            case Approvals.Outcome.Run r -> new Decision.Proceed(true, r.request());
            case Approvals.Outcome.Held h -> new Decision.Held(h.request(), h.filed());
            case Approvals.Outcome.Denied d -> new Decision.Denied(d.request());
        };
    }

    /** What became of a call. */
    public sealed interface Outcome<R> {
        /** It ran; {@code approval} is the request that approved it, or {@code null}. */
        record Ran<R>(ToolSpec tool, R result, StoredApproval approval) implements Outcome<R> {}

        /** No such tool for this principal: missing, denied and {@code BLOCKED} alike. */
        record NotFound<R>(String tool) implements Outcome<R> {
            public String message() {
                return "Tool not found: " + tool;
            }
        }

        /** The arguments are too large, not a JSON object, or break the channel's check. */
        record InvalidArguments<R>(String message) implements Outcome<R> {}

        /** The caller's role may not run this tool. */
        record Refused<R>(String message) implements Outcome<R> {}

        /** Held for an approval ({@code filed} when this call filed the request). */
        record Held<R>(ToolSpec tool, StoredApproval approval, boolean filed) implements Outcome<R> {}

        /** Its approval request was denied. */
        record Denied<R>(ToolSpec tool, StoredApproval approval) implements Outcome<R> {
            public String message() {
                return tool.fullName() + " was not run: approval request " + approval.id()
                        + " for this call was denied by " + approval.decidedBy() + ".";
            }
        }

        /**
         * Nothing here runs it, or its executor failed.
         *
         * @param cause what the executor threw, for an edge whose own API throws it (a Java API, the HTTP API's
         *     problems); {@code null} when nothing ran
         */
        record Failed<R>(String message, RuntimeException cause) implements Outcome<R> {
            public Failed(String message) {
                this(message, null);
            }
        }
    }

    /**
     * Checks one call in the gate's order and runs it when it passes.
     *
     * @param approval asked only for a {@code PROPOSE} tool
     * @throws InterruptedException when the calling request is cancelled (an approval step or an executor waits)
     */
    public static <R> Outcome<R> call(Request request, Tools<R> tools, ApprovalStep approval)
            throws InterruptedException {
        String name = request.tool();
        // access first, before the arguments are looked at: denied, missing and BLOCKED read alike
        Optional<Target<R>> found = tools.find(request.principal(), name);
        if (found.isEmpty() || found.get().spec().aiAccess() == AiAccess.BLOCKED) {
            return new Outcome.NotFound<>(name);
        }
        Target<R> target = found.get();
        ToolSpec governs = target.governs();
        if (!roleMayRun(request.role(), governs)) {
            return new Outcome.Refused<>(governs.fullName() + " was not run: an API key with the role reader may run "
                    + "only tools that read and need no approval, and this one "
                    + (governs.aiAccess() == AiAccess.PROPOSE
                            ? "needs approval"
                            : "has side effect " + governs.sideEffect().name().toLowerCase(Locale.ROOT))
                    + ". Ask the gateway's operator for a key with the role user.");
        }
        Object arguments;
        if (request.rawArguments() != null) {
            // the bound the gateway and the HTTP API put on a call's arguments, checked before they are parsed
            String tooLarge = InputLimits.argumentsTooLarge(name, request.rawArguments());
            if (tooLarge != null) {
                return new Outcome.InvalidArguments<>(tooLarge);
            }
            String raw = request.rawArguments();
            try {
                JsonNode a = raw.isBlank() ? JsonNodeFactory.instance.objectNode() : JSON.readTree(raw);
                if (!a.isObject()) {
                    return new Outcome.InvalidArguments<>(
                            name + ": the arguments must be a JSON object, got: " + cut(raw, SHOWN_ARGUMENT_CHARS));
                }
                arguments = a;
            } catch (IOException e) {
                return new Outcome.InvalidArguments<>(
                        name + ": the arguments are not JSON: " + cut(raw, SHOWN_ARGUMENT_CHARS));
            }
        } else if (request.arguments() == null) {
            arguments = JsonNodeFactory.instance.objectNode();
        } else if (request.arguments() instanceof Map<?, ?> || request.arguments() instanceof ObjectNode) {
            arguments = request.arguments();
        } else {
            return new Outcome.InvalidArguments<>(name + ": the arguments must be a JSON object, got: "
                    + cut(String.valueOf(request.arguments()), SHOWN_ARGUMENT_CHARS));
        }
        if (target.check() != null) {
            String problem = target.check().problem(arguments);
            if (problem != null) {
                return new Outcome.InvalidArguments<>(problem);
            }
        }
        boolean approved = false;
        StoredApproval approvedBy = null;
        if (governs.aiAccess() == AiAccess.PROPOSE) {
            switch (approval.decide(request, governs, arguments)) {
                case Decision.Held h -> {
                    return new Outcome.Held<>(governs, h.request(), h.filed());
                }
                case Decision.Denied d -> {
                    return new Outcome.Denied<>(governs, d.request());
                }
                case Decision.Proceed p -> {
                    approved = p.approved();
                    approvedBy = p.request();
                }
            }
        }
        ToolSpec tool = target.spec();
        if (target.executor() == null) {
            return new Outcome.Failed<>(name + " is not executable here: no executor runs tools of source '"
                    + tool.name().source() + "' (" + tool.sourceKind().name().toLowerCase(Locale.ROOT)
                    + ") in this ToolScout");
        }
        try {
            return new Outcome.Ran<>(tool, target.executor().run(tool, arguments, approved), approvedBy);
        } catch (RuntimeException e) {
            return new Outcome.Failed<>(
                    name + " failed: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        }
    }

    /** A reader runs only tools that read and need no approval; no role (the agent loop) runs any. */
    public static boolean roleMayRun(Role role, ToolSpec spec) {
        return role != Role.READER || spec.sideEffect() == SideEffect.READ && spec.aiAccess() == AiAccess.EXECUTE;
    }

    /** {@code s} cut to {@code max} characters with a note of how many more there were; "" for null. */
    public static String cut(String s, int max) {
        if (s == null) {
            return "";
        }
        return s.length() <= max ? s : s.substring(0, max) + "... (" + (s.length() - max) + " more characters cut)";
    }
}
