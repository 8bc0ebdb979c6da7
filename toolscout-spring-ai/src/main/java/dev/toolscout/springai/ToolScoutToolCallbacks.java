package dev.toolscout.springai;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.approval.Approvals;
import dev.toolscout.engine.ToolRunner;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * ToolScout's tools as Spring AI {@link ToolCallback}s. Every call goes through ToolScout's one call gate ({@link
 * ToolRunner#reply}): access first (a tool the principal may not see answers exactly as a missing one, "Tool not
 * found: name"), {@code BLOCKED} never runs, argument size and shape, then {@code PROPOSE}: the call is filed in the
 * approval queue of the data directory ({@code toolscout approvals}) and the model is told it is held, with the
 * request's id; once a person approves it, the same call with the same arguments runs, once. The approvals are filed
 * in the {@link Approvals.Channel#AGENT agent} channel, scoped to the conversation ({@code spring-ai:<conversation
 * id>}, or {@code spring-ai:-} without one), requested by {@code spring-ai:<user>} ({@code spring-ai:anonymous}).
 *
 * <p>A tool's own failure (an upstream error, bad arguments) is answered to the model as {@code Error: ...}, not
 * thrown. Thread-safe.
 */
public final class ToolScoutToolCallbacks {
    private final ToolRunner runner;

    public ToolScoutToolCallbacks(ToolRunner runner) {
        this.runner = Objects.requireNonNull(runner, "runner");
    }

    /** A callback for {@code tool} that always runs for {@code principal} in {@code conversationId} (or none). */
    public ToolCallback callback(ToolSpec tool, Principal principal, String conversationId) {
        Principal p = principal == null ? Principal.ANONYMOUS : principal;
        return new Callback(tool, ctx -> p, ctx -> conversationId);
    }

    /**
     * A callback for {@code tool} that runs for the principal {@code resolver} reads from the call's tool context
     * ({@code ChatClient...toolContext(Map)}), in the conversation {@link PrincipalResolver#CONVERSATION} names.
     */
    public ToolCallback callback(ToolSpec tool, PrincipalResolver resolver) {
        Objects.requireNonNull(resolver, "resolver");
        return new Callback(tool, resolver, PrincipalResolver::conversation);
    }

    /**
     * Runs one call through the gate and says what became of it, in words for the model.
     *
     * @param arguments the arguments as the model wrote them (JSON text)
     */
    public String call(Principal principal, String conversationId, String tool, String arguments) {
        ToolRunner.Reply r = runner.reply("spring-ai", principal, conversationId, tool, arguments);
        // a denied tool reads as a missing one, word for word; the other failures say they are errors
        return r.error() && !r.text().startsWith("Tool not found: ") ? "Error: " + r.text() : r.text();
    }

    /** Whether {@code callback} is one this class made (a ToolScout tool, not one of the application's own). */
    public static boolean isToolScout(ToolCallback callback) {
        return callback instanceof Callback;
    }

    /** The JSON Schema a model gets for {@code tool}'s parameters: always an object schema with properties. */
    static String inputSchema(ToolSpec tool) {
        ObjectNode schema = tool.parameters().deepCopy();
        if (!schema.has("type")) {
            schema.put("type", "object");
        }
        if (!schema.has("properties")) {
            schema.putObject("properties");
        }
        return schema.toString();
    }

    /** The definition a model gets for {@code tool}: its wire name, description and parameters. */
    static ToolDefinition definition(ToolSpec tool) {
        return ToolDefinition.builder()
                .name(tool.fullName())
                .description(tool.description())
                .inputSchema(inputSchema(tool))
                .build();
    }

    private interface ConversationResolver {
        String resolve(Map<String, ?> context);
    }

    private final class Callback implements ToolCallback {
        private final ToolDefinition definition;
        private final PrincipalResolver principal;
        private final ConversationResolver conversation;

        Callback(ToolSpec tool, PrincipalResolver principal, ConversationResolver conversation) {
            this.definition = definition(tool);
            this.principal = principal;
            this.conversation = conversation;
        }

        @Override
        public ToolDefinition getToolDefinition() {
            return definition;
        }

        @Override
        public String call(String toolInput) {
            return call(toolInput, null);
        }

        @Override
        public String call(String toolInput, @Nullable ToolContext toolContext) {
            Map<String, Object> ctx = toolContext == null ? Map.of() : toolContext.getContext();
            return ToolScoutToolCallbacks.this.call(
                    principal.resolve(ctx), conversation.resolve(ctx), definition.name(), toolInput);
        }

        @Override
        public String toString() {
            return "ToolScout tool " + definition.name();
        }
    }
}
