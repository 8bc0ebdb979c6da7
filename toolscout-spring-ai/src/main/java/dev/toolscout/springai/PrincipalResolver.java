package dev.toolscout.springai;

import dev.toolscout.model.Principal;
import java.util.Map;

/**
 * Who a Spring AI call runs for: the principal whose access policy decides what ToolScout finds, offers and runs.
 * The application gives one; {@link #fromContext()} is the default.
 *
 * <p>{@code context} is what the call carries: the {@code ChatClient} request's advisor parameters and its tool
 * context, merged (for the search advisor), or the tool context alone (for a callback a model calls). Keep it quick
 * and free of side effects: it is asked once per {@code ChatClient} call and once per tool call.
 */
@FunctionalInterface
public interface PrincipalResolver {
    /** The context key {@link #fromContext()} reads: a {@link Principal}, or a user id as a string. */
    String PRINCIPAL = "toolscout.principal";

    /** The context key of the conversation id a call belongs to (1-128 characters of {@code [A-Za-z0-9._:-]}). */
    String CONVERSATION = "toolscout.conversation";

    /** The principal the call runs for; never {@code null} ({@link Principal#ANONYMOUS} for nobody known). */
    Principal resolve(Map<String, ?> context);

    /**
     * Reads {@link #PRINCIPAL} from the context: a {@link Principal} as it is, a string as that user (no group, no
     * space), absent as {@link Principal#ANONYMOUS}, what the policy's default rules apply to.
     *
     * @throws IllegalArgumentException from {@code resolve}, for a value of another type
     */
    static PrincipalResolver fromContext() {
        return context -> {
            Object value = context == null ? null : context.get(PRINCIPAL);
            return switch (value) {
                case null -> Principal.ANONYMOUS;
                case Principal p -> p;
                case String user when !user.isBlank() -> new Principal(user, null, null);
                default ->
                    throw new IllegalArgumentException("context key " + PRINCIPAL + " must hold a "
                            + "dev.toolscout.model.Principal or a non-blank user id, got: "
                            + (value instanceof String
                                    ? "a blank string"
                                    : value.getClass().getName()));
            };
        };
    }

    /** Always {@code principal}, whatever the call carries: for an application that serves one user. */
    static PrincipalResolver fixed(Principal principal) {
        Principal p = principal == null ? Principal.ANONYMOUS : principal;
        return context -> p;
    }

    /** The conversation id of {@link #CONVERSATION} in {@code context}, or {@code null}. */
    static String conversation(Map<String, ?> context) {
        Object value = context == null ? null : context.get(CONVERSATION);
        return value == null ? null : value.toString();
    }
}
