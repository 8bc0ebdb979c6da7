package dev.toolscout.agent.openapi;

import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One imported API as stored with the catalog: where it is called, with what credential, and how each of its
 * tools becomes a request. Immutable.
 *
 * @param name the source (the part of its tools' names before {@code __})
 * @param document the file it was imported from, as given (for messages)
 * @param baseUrl the base URL every request goes to (no user info, query or fragment; no trailing slash)
 * @param auth the credential, or {@code null} for an API that needs none
 * @param operations each tool's full name to its operation, in name order
 */
public record OpenApiSource(
        String name, String document, URI baseUrl, OpenApiAuth auth, Map<String, OpenApiOperation> operations) {
    public OpenApiSource {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(document, "document");
        baseUrl = BaseUrls.check(baseUrl);
        operations = java.util.Collections.unmodifiableMap(new TreeMap<>(operations));
    }

    /** This source with another credential. */
    public OpenApiSource withAuth(OpenApiAuth a) {
        return new OpenApiSource(name, document, baseUrl, a, operations);
    }
}
