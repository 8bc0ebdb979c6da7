package dev.toolscout.model;

import java.util.Locale;

/**
 * Size limits on text that callers send in: a message to select tools for, a {@code tool_discovery__find}
 * query, a tool name to describe, a category to list. Every entry point checks them before any work, so
 * the cost of one request is bounded whoever sends it (docs/SECURITY.md, "Limits").
 *
 * <p>A request's message (select, route, chat) may be far longer than the ranking reads: the selector and the
 * router read its first {@code Selector.MAX_MESSAGE_CHARS} characters and say so in the result ({@code
 * Shortened}), since an agent's message with a pasted document is a real request and the model still gets it
 * whole. Such a message is capped at {@link #MAX_REQUEST_MESSAGE_CHARS} only so that its cost stays bounded.
 *
 * <p>Why 16,384 characters for a query or a description: what a model or a tool author writes there is a few
 * sentences, and the ranking reads far less (the lexical search its first 64 distinct terms, the selector its
 * first {@code Selector.MAX_MESSAGE_CHARS}), so anything longer only costs time. A name is at most 64 characters on
 * the wire, so 256 leaves room for a name with its prefix and white space and nothing else.
 */
public final class InputLimits {
    /**
     * The longest {@code tool_discovery__find} query, description or learned message, in UTF-16 characters (Java's
     * {@code String.length()}).
     */
    public static final int MAX_MESSAGE_CHARS = 16_384;

    /**
     * The longest message of a request (select, route, chat), in UTF-16 characters: 1 Mi, a pasted document of some
     * hundred pages. Only its first {@code Selector.MAX_MESSAGE_CHARS} are ranked. Over HTTP the request body cap
     * ({@link #MAX_ARGUMENT_BYTES} bytes) applies as well.
     */
    public static final int MAX_REQUEST_MESSAGE_CHARS = 1024 * 1024;

    /** The longest tool name or category an argument may hold. */
    public static final int MAX_NAME_CHARS = 256;

    /**
     * The largest arguments of one tool call, in bytes of UTF-8 JSON (4 MiB): the request body limit of the MCP
     * gateway and the HTTP API, and the bound on the arguments the agent loop sends from a model to any executor,
     * so a call runs on no surface that another would refuse.
     */
    public static final int MAX_ARGUMENT_BYTES = 4 * 1024 * 1024;

    private InputLimits() {}

    /**
     * The error for a message or query over {@link #MAX_MESSAGE_CHARS}, or {@code null} when it fits.
     *
     * @param input what the caller called it ({@code "query"}, {@code "message"})
     */
    public static String messageTooLong(String input, CharSequence value) {
        return tooLong(input, value, MAX_MESSAGE_CHARS);
    }

    /** The error for a request's message over {@link #MAX_REQUEST_MESSAGE_CHARS}, or {@code null} when it fits. */
    public static String requestMessageTooLong(String input, CharSequence value) {
        return tooLong(input, value, MAX_REQUEST_MESSAGE_CHARS);
    }

    /**
     * The check every request's message passes (select, route, chat): not blank and not over
     * {@link #MAX_REQUEST_MESSAGE_CHARS}. A message longer than the ranking reads passes and is ranked on its first part.
     *
     * @throws IllegalArgumentException naming the rule and the value
     */
    public static void checkRequestMessage(String message) {
        if (message == null || message.isBlank()) {
            throw new IllegalArgumentException(
                    "message must not be blank, got: " + (message == null ? "null" : "'" + message + "'"));
        }
        String tooLong = requestMessageTooLong("message", message);
        if (tooLong != null) {
            throw new IllegalArgumentException(tooLong);
        }
    }

    /** The error for a name over {@link #MAX_NAME_CHARS}, or {@code null} when it fits. */
    public static String nameTooLong(String input, CharSequence value) {
        return tooLong(input, value, MAX_NAME_CHARS);
    }

    /**
     * The error for tool call arguments over {@link #MAX_ARGUMENT_BYTES} bytes of UTF-8, or {@code null} when they
     * fit. Counts without copying the text.
     *
     * @param tool the tool the arguments are for
     */
    public static String argumentsTooLarge(String tool, CharSequence json) {
        if (json == null || json.length() <= MAX_ARGUMENT_BYTES / 3) {
            return null; // at most 3 bytes per UTF-16 unit
        }
        long bytes = 0;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            bytes += c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3; // a surrogate pair: 4 in all
        }
        if (bytes <= MAX_ARGUMENT_BYTES) {
            return null;
        }
        return String.format(
                Locale.ROOT,
                "the arguments of %s must be at most %,d bytes (UTF-8 JSON), got: %,d bytes;"
                        + " send less in one call (e.g. a large content in parts)",
                tool,
                MAX_ARGUMENT_BYTES,
                bytes);
    }

    private static String tooLong(String input, CharSequence value, int limit) {
        if (value == null || value.length() <= limit) {
            return null;
        }
        return String.format(
                Locale.ROOT, "%s must be at most %,d characters, got: %,d characters", input, limit, value.length());
    }
}
