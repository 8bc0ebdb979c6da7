package dev.toolscout.model;

/** Where a tool comes from. */
public enum SourceKind {
    INTEGRATION,
    SKILL,
    MCP,
    OPENAPI,
    /**
     * An action verb registered with {@code toolscout verbs register} (seed 002's verb manifests): named {@code
     * verbs__<VERB>}, owned by the verb registry, never by catalog files or MCP servers.
     */
    VERB
}
