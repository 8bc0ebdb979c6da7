package dev.toolscout.server.http;

import dev.toolscout.mcp.gateway.Caller;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.server.http.api.ApiProblem;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;

/**
 * {@code /approvals} and every path under it, retired: the approval queue is the HTTP API's {@code GET
 * /v1/approvals} and {@code POST /v1/approvals/{id}} with {@code {"decision": "approve"|"deny"}}, whose decision
 * also resumes the agent runs waiting for it. A caller with a known key (or the local user, without API keys) gets
 * {@code 410 Gone} naming them, in the problem's {@code replacement} member and a {@code Link} header; none or an
 * unknown key still gets 401 first, as before, so the path tells an unauthenticated caller nothing new. Served
 * behind the same Host and Origin checks as every path. Thread-safe.
 */
final class RetiredApprovalsServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    /** What serves the approval queue now: the HTTP API's routes (docs/HTTP_API.md). */
    static final List<String> REPLACEMENT = List.of("GET /v1/approvals", "POST /v1/approvals/{id}");

    private final transient GatewayAuth auth;

    RetiredApprovalsServlet(GatewayAuth auth) {
        this.auth = auth;
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String key = GatewayAuth.presentedKey(req);
        Caller c = auth.caller(key);
        ApiProblem p = c == null
                ? ApiProblem.of(
                                401,
                                "unauthorized",
                                "Unauthorized",
                                key != null
                                        ? "unknown API key"
                                        : "an API key is required: send Authorization: Bearer <key> or X-API-Key: <key>")
                        .withHeader("WWW-Authenticate", "Bearer")
                : ApiProblem.gone(
                                "/approvals is retired: the approval queue is GET /v1/approvals (pending requests; "
                                        + "?all=true for every one) and POST /v1/approvals/{id} with {\"decision\": \"approve\"} or "
                                        + "{\"decision\": \"deny\"} (docs/HTTP_API.md)",
                                REPLACEMENT)
                        .withHeader("Link", "</v1/approvals>; rel=\"successor-version\"");
        p.write(resp, req.getRequestURI());
    }
}
