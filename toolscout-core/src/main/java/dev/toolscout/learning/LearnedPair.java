package dev.toolscout.learning;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.model.InputLimits;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * One message and the tools it actually needed: what {@code toolscout learn --pairs FILE} reads, one JSON object
 * a line: {@code {"message": "...", "tools": ["source__action", ...]}} with optional {@code "principal"}, {@code
 * "conversation"} and {@code "at"} (ISO-8601). The agent loop exports its usage record in this form.
 *
 * @param tools distinct, in order, at least one
 * @param principal who sent it, or null
 * @param conversation the conversation, or null
 * @param at when, or null
 */
public record LearnedPair(String message, List<String> tools, String principal, String conversation, Instant at) {
    /** The most tools one pair may name. */
    public static final int MAX_TOOLS = 50;

    /** The most pairs one file may hold. */
    public static final int MAX_PAIRS = 100_000;

    /** The longest line read (a message at its limit plus its tools). */
    public static final int MAX_LINE_CHARS = 64 * 1024;

    public LearnedPair {
        if (message == null || message.isBlank()) {
            throw new IllegalArgumentException("message must not be blank, got: '" + message + "'");
        }
        String tooLong = InputLimits.messageTooLong("message", message);
        if (tooLong != null) {
            throw new IllegalArgumentException(tooLong);
        }
        message = message.strip();
        Objects.requireNonNull(tools, "tools");
        if (tools.isEmpty() || tools.size() > MAX_TOOLS) {
            throw new IllegalArgumentException(
                    "tools must name between 1 and " + MAX_TOOLS + " tools, got: " + tools.size());
        }
        for (String t : tools) {
            if (t == null || t.isBlank()) {
                throw new IllegalArgumentException("tools must not hold a blank name, got: '" + t + "'");
            }
            String nameTooLong = InputLimits.nameTooLong("tool name", t);
            if (nameTooLong != null) {
                throw new IllegalArgumentException(nameTooLong);
            }
        }
        tools = List.copyOf(new LinkedHashSet<>(tools));
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Reads JSON Lines: one pair a line, blank lines skipped.
     *
     * @param source named in errors (the file)
     * @throws IllegalArgumentException naming the source, the line, the rule and the bad value; nothing is returned
     *     for a file with one bad line
     */
    public static List<LearnedPair> readLines(Reader in, String source) throws IOException {
        List<LearnedPair> out = new ArrayList<>();
        BufferedReader r = in instanceof BufferedReader b ? b : new BufferedReader(in);
        int lineNo = 0;
        for (String line = r.readLine(); line != null; line = r.readLine()) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            String where = source + " line " + lineNo + ": ";
            if (line.length() > MAX_LINE_CHARS) {
                throw new IllegalArgumentException(
                        where + "a line must be at most " + MAX_LINE_CHARS + " characters, got: " + line.length());
            }
            if (out.size() == MAX_PAIRS) {
                throw new IllegalArgumentException(where + "a file must hold at most " + MAX_PAIRS + " pairs");
            }
            JsonNode n;
            try {
                n = JSON.readTree(line);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(where + "not a JSON object: " + e.getOriginalMessage());
            }
            if (n == null || !n.isObject()) {
                throw new IllegalArgumentException(where + "expected a JSON object, got: " + abbreviate(line));
            }
            try {
                out.add(of(n));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + e.getMessage(), e);
            }
        }
        return List.copyOf(out);
    }

    private static LearnedPair of(JsonNode n) {
        JsonNode m = n.get("message");
        if (m == null || !m.isTextual()) {
            throw new IllegalArgumentException("\"message\" must be a string, got: " + m);
        }
        JsonNode t = n.get("tools");
        if (t == null || !t.isArray()) {
            throw new IllegalArgumentException("\"tools\" must be an array of tool names, got: " + t);
        }
        List<String> tools = new ArrayList<>();
        for (JsonNode e : t) {
            if (!e.isTextual()) {
                throw new IllegalArgumentException("\"tools\" must hold tool names (strings), got: " + e);
            }
            tools.add(e.asText());
        }
        Instant at = null;
        JsonNode a = n.get("at");
        if (a != null && !a.isNull()) {
            try {
                at = Instant.parse(a.asText());
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("\"at\" must be an ISO-8601 instant, got: '" + a.asText() + "'", e);
            }
        }
        return new LearnedPair(m.asText(), tools, text(n, "principal"), text(n, "conversation"), at);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new IllegalArgumentException("\"" + field + "\" must be a string, got: " + v);
        }
        String nameTooLong = InputLimits.nameTooLong(field, v.asText());
        if (nameTooLong != null) {
            throw new IllegalArgumentException(nameTooLong);
        }
        return v.asText();
    }

    private static String abbreviate(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
