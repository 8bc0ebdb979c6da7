package dev.toolscout.server.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.git.GitIndexer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code POST /v1/git/search}: the repository that {@code serve --git-repo} indexes, searched by meaning, under the
 * access policy. The search is judged as the tool {@code git__search} (source {@code git}, {@link GitIndexer#SPEC}), so a policy allows or denies
 * it like any tool ({@code {"effect": "deny", "source": "git", "group": "kids"}}); a caller it is denied to, and any
 * caller while no repository is indexed, get the same 404, so a denial says nothing of the repository.
 */
final class GitRoutes implements RouteGroup {
    private static final String NOT_FOUND = "no git repository is indexed here (serve --git-repo PATH)";

    private final Supplier<GitIndexer> git;

    /** @param git the indexed repository, or {@code null} while none is */
    GitRoutes(Supplier<GitIndexer> git) {
        this.git = git;
    }

    @Override
    public List<Endpoint> routes() {
        return List.of(Endpoint.post("/v1/git/search", "searchGit")
                .tag("git")
                .summary("Search the repository serve --git-repo indexes (commits and HEAD's text files), by meaning")
                .description("Judged by the access policy as the tool git__search (source git): a caller it denies, "
                        + "and every caller while no repository is indexed, get the same 404 (docs/INDEXING.md).")
                .request("GitSearchRequest")
                .response(200, "The entries nearest in meaning, best first", "GitSearchResult")
                .problem(404, "No repository is indexed, or the caller may not search it")
                .handle(this::search));
    }

    private Reply search(Call c) {
        GitIndexer g = git.get();
        // access first, before the body is read: a denied caller learns nothing, not even its input's faults
        if (g == null || !c.backend().scout().allows(c.principal(), GitIndexer.SPEC)) {
            throw ApiProblem.notFound(NOT_FOUND);
        }
        Fields f = Fields.of(c.json(), "", Set.of("query", "limit"));
        String query = f.text("query", true, 2_000);
        Integer limit = f.integer("limit", 1, 50);
        ObjectNode out = g.searchJson(query, limit == null ? GitIndexer.DEFAULT_LIMIT : limit);
        return Reply.json(out);
    }

    @Override
    public Map<String, JsonNode> schemas() {
        return Map.of(
                "GitSearchRequest", OpenApi.schema("""
            {"type": "object", "required": ["query"], "additionalProperties": false,
             "properties": {
              "query": {"type": "string", "minLength": 1, "maxLength": 2000, "description": "What to look for"},
              "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "Results (default 5)"}}}"""),
                "GitSearchResult", OpenApi.schema("""
            {"type": "object", "required": ["repository", "head", "score", "results"], "additionalProperties": false,
             "properties": {
              "repository": {"type": "string"}, "head": {"type": ["string", "null"]}, "score": {"type": "string"},
              "results": {"type": "array", "items": {
                "type": "object", "required": ["kind", "title", "commit", "when", "similarity", "snippet"],
                "additionalProperties": false,
                "properties": {"kind": {"type": "string", "enum": ["commit", "file"]}, "title": {"type": "string"},
                               "commit": {"type": "string"}, "path": {"type": "string"},
                               "when": {"type": "string"}, "similarity": {"type": "number"},
                               "snippet": {"type": "string"}}}}}}"""));
    }
}
