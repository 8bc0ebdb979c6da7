package dev.toolscout.mcp.upstream;

/**
 * A call or registration that an upstream server could not serve. {@link #retriable()} tells the caller
 * whether trying again later can help (the server is down, slow or restarting) or not (unknown tool, denied,
 * bad arguments, a response over the cap).
 */
public final class UpstreamException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The JSON-RPC error code of a response dropped for its size. */
    public static final int TOO_LARGE_CODE = -32001;

    /** What went wrong, grouped by what the caller can do about it. */
    public enum Kind {
        /** No such server or tool (or the principal may not see it). */
        NOT_FOUND(false),
        /** The server is not running or not reachable; it is being restarted. */
        DOWN(true),
        /** The server did not answer within its timeout. */
        TIMEOUT(true),
        /** The server already has as many calls in progress as it may ({@link UpstreamLimits#maxConcurrentCalls}). */
        BUSY(true),
        /** The call was cancelled because its client went away (its session ended). */
        CANCELLED(false),
        /** The server answered with more than the response cap. */
        TOO_LARGE(false),
        /** The server broke the protocol (a line that is not JSON-RPC, an error response). */
        PROTOCOL(false);

        private final boolean retriable;

        Kind(boolean retriable) {
            this.retriable = retriable;
        }
    }

    private final Kind kind;
    private final String server;

    public UpstreamException(Kind kind, String server, String message, Throwable cause) {
        super(server == null ? message : "MCP server '" + server + "': " + message, cause);
        this.kind = kind;
        this.server = server;
    }

    public Kind kind() {
        return kind;
    }

    /** The server's name, or {@code null} when the error is not about one server. */
    public String server() {
        return server;
    }

    public boolean retriable() {
        return kind.retriable;
    }
}
