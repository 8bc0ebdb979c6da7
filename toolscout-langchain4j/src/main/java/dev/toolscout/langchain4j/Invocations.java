package dev.toolscout.langchain4j;

import dev.langchain4j.invocation.InvocationContext;
import dev.toolscout.model.Principal;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Who an AI Service invocation runs for, and which ToolScout conversation it belongs to.
 *
 * <p>The default principal is the invocation's chat memory id as the user id ({@link #memoryIdAsUser}): an AI
 * Service whose method takes a {@code @MemoryId} per user gets each user's access; one without a {@code @MemoryId}
 * runs every call as the user {@code default} (LangChain4j's memory id when there is none). An application whose
 * memory ids are not user ids gives its own resolver (from {@link InvocationContext#invocationParameters()}, say).
 */
public final class Invocations {
    private static final Pattern CONVERSATION_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    private Invocations() {}

    /** The invocation's chat memory id as the user id, no group or space; no memory id is the anonymous principal. */
    public static Function<InvocationContext, Principal> memoryIdAsUser() {
        return context -> {
            Object id = context == null ? null : context.chatMemoryId();
            return id == null ? Principal.ANONYMOUS : new Principal(String.valueOf(id), null, null);
        };
    }

    /**
     * The ToolScout conversation of the invocation: its chat memory id when it is a valid conversation id (1-128
     * characters of {@code [A-Za-z0-9._:-]}), else {@code null} (no conversation: nothing is remembered between
     * calls, such as the tools {@code tool_discovery__find} disclosed).
     */
    public static String conversationId(InvocationContext context) {
        Object id = context == null ? null : context.chatMemoryId();
        if (id == null) {
            return null;
        }
        String s = String.valueOf(id);
        return CONVERSATION_ID.matcher(s).matches() ? s : null;
    }
}
