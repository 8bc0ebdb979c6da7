package dev.toolscout.agent.openapi;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * How one imported tool becomes an HTTP request: the operation's method and path template, and where each
 * argument of the tool goes.
 *
 * @param method the HTTP method, upper case ({@code GET}, {@code POST}, ...)
 * @param path the path template from the document, relative to the base URL: {@code /pets/{petId}}
 * @param params the arguments that become path, query or header parameters, in the document's order
 * @param bodyArgument the argument that holds the JSON request body, or {@code null} when the operation takes none
 */
public record OpenApiOperation(String method, String path, List<Param> params, String bodyArgument) {
    /** The methods an OpenAPI path item can hold, as the document spells them. */
    static final List<String> METHODS = List.of("get", "put", "post", "delete", "options", "head", "patch", "trace");

    private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

    public OpenApiOperation {
        Objects.requireNonNull(method, "method");
        method = method.toUpperCase(Locale.ROOT);
        if (!METHODS.contains(method.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("method must be one of " + METHODS + ", got: '" + method + "'");
        }
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("path must start with '/', got: '" + path + "'");
        }
        params = List.copyOf(params);
    }

    /** Whether the method only reads ({@code GET}, {@code HEAD}, {@code OPTIONS}). */
    public boolean reads() {
        return READS.contains(method);
    }

    /** {@code GET /pets/{petId}}: how messages name the operation. */
    public String label() {
        return method + " " + path;
    }

    /** Where a parameter goes. */
    public enum In {
        PATH,
        QUERY,
        HEADER;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        static In of(String s) {
            return switch (s) {
                case "path" -> PATH;
                case "query" -> QUERY;
                case "header" -> HEADER;
                default ->
                    throw new IllegalArgumentException(
                            "parameter location must be path, query or header, got: '" + s + "'");
            };
        }
    }

    /**
     * One parameter.
     *
     * @param argument the tool argument that holds its value (the name in the tool's schema)
     * @param name the parameter's name in the request
     * @param in path, query or header
     * @param explode for an array or object in a query: one {@code name=value} pair per item (the OpenAPI default
     *     for the {@code form} style) rather than one comma-separated value
     * @param deepObject a query object sent as {@code name[key]=value} (the {@code deepObject} style)
     */
    public record Param(String argument, String name, In in, boolean explode, boolean deepObject) {
        public Param {
            Objects.requireNonNull(argument, "argument");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(in, "in");
        }
    }
}
