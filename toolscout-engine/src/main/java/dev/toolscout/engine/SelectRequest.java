package dev.toolscout.engine;

import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Principal;
import dev.toolscout.selection.SelectorConfig;
import java.util.regex.Pattern;

/**
 * What to select tools for. Validated here, so a bad request fails before any work, with a message naming the
 * input, the rule and the value.
 *
 * @param message the user's message (required, not blank, at most {@link InputLimits#MAX_REQUEST_MESSAGE_CHARS}
 *     characters; only the first 8,192 are ranked, and a longer one's result says so: {@link
 *     SelectResult#shortened()})
 * @param principal who asks; {@code null} means {@link Principal#ANONYMOUS} (what a policy's default rules apply
 *     to)
 * @param k how many tools, {@value SelectorConfig#MIN_K}-{@value SelectorConfig#MAX_K}; {@code null} for the
 *     configured default (10 unless the builder set another)
 * @param tokenBudget the most tokens the selected definitions may take, at least 1; {@code null} for no limit
 * @param conversationId the conversation this message belongs to, 1-128 characters of {@code
 *     [A-Za-z0-9._:-]}, or {@code null}. Accepted and checked; nothing is stored per conversation yet
 */
public record SelectRequest(
        String message, Principal principal, Integer k, Integer tokenBudget, String conversationId) {
    /** The longest conversation id. */
    public static final int MAX_CONVERSATION_ID_CHARS = 128;

    private static final Pattern CONVERSATION_ID =
            Pattern.compile("[A-Za-z0-9._:-]{1," + MAX_CONVERSATION_ID_CHARS + "}");

    public SelectRequest {
        InputLimits.checkRequestMessage(message);
        if (principal == null) {
            principal = Principal.ANONYMOUS;
        }
        if (k != null) {
            SelectorConfig.checkK(k);
        }
        if (tokenBudget != null && tokenBudget < 1) {
            throw new IllegalArgumentException("token budget must be at least 1, got: " + tokenBudget);
        }
        if (conversationId != null && !CONVERSATION_ID.matcher(conversationId).matches()) {
            String shown = conversationId.length() > 64 ? conversationId.substring(0, 64) + "..." : conversationId;
            throw new IllegalArgumentException("conversation id must be 1-" + MAX_CONVERSATION_ID_CHARS
                    + " characters of A-Z a-z 0-9 . _ : -, got: '" + shown + "' (" + conversationId.length()
                    + " characters)");
        }
    }

    /** A request for {@code message} by the anonymous principal, with the defaults. */
    public static SelectRequest of(String message) {
        return new SelectRequest(message, null, null, null, null);
    }

    /** This request for {@code p}. */
    public SelectRequest withPrincipal(Principal p) {
        return new SelectRequest(message, p, k, tokenBudget, conversationId);
    }

    /** This request with {@code k} tools. */
    public SelectRequest withK(Integer value) {
        return new SelectRequest(message, principal, value, tokenBudget, conversationId);
    }
}
