package dev.toolscout.server.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** A message or query argument that may be {@code -}: then it is read from standard input (for long ones). */
final class MessageArgument {
    /**
     * The most bytes read from standard input (1 MiB). Bounded so a stray pipe cannot fill memory; the selector
     * applies its own, smaller, limit on the message with its own error.
     */
    static final int MAX_STDIN_BYTES = 1 << 20;

    private MessageArgument() {}

    /**
     * {@code value} itself, or standard input's text (UTF-8, stripped) when it is {@code -}.
     *
     * @param what the argument's name in messages, e.g. "MESSAGE"
     * @throws IllegalArgumentException when standard input is empty or longer than {@value #MAX_STDIN_BYTES}
     *     bytes
     */
    static String resolve(String value, InputStream stdin, String what) {
        if (!"-".equals(value)) {
            return value;
        }
        byte[] bytes;
        try {
            bytes = stdin.readNBytes(MAX_STDIN_BYTES + 1);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + what + " from standard input: " + e.getMessage(), e);
        }
        if (bytes.length > MAX_STDIN_BYTES) {
            throw new IllegalArgumentException(
                    what + " from standard input must be at most " + MAX_STDIN_BYTES + " bytes, got more");
        }
        String text = new String(bytes, StandardCharsets.UTF_8).strip();
        if (text.isEmpty()) {
            throw new IllegalArgumentException(what + " from standard input (-) is empty");
        }
        return text;
    }
}
