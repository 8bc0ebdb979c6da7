package dev.toolscout.server.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.approval.Approvals;
import dev.toolscout.approval.ApprovalStore.ApprovalStatus;
import dev.toolscout.approval.ApprovalStore.StoredApproval;
import dev.toolscout.mcp.gateway.Caller;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.model.Role;
import dev.toolscout.server.ApprovalJson;
import dev.toolscout.server.http.api.ApiProblem;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The approval queue over HTTP, for admin API keys: {@code GET /approvals} (pending; {@code ?all=true} for
 * every request), {@code POST /approvals/ID/approve} and {@code POST /approvals/ID/deny}. Out of band on
 * purpose: it is not an MCP tool, so no model can call it through the gateway. It checks the key itself: none or
 * an unknown one gets 401; listing and approving need the role admin, others get 403 (without API keys nobody is
 * an admin here, and the operator uses {@code toolscout approvals}). An admin never approves its own request. A
 * requester of any role may deny (withdraw) its own request; to it, another's request answers 404 as a missing
 * one does. Every error is {@code
 * application/problem+json}, as the HTTP API's ({@link ApiProblem}); an unexpected failure is logged and answered
 * as a plain 500. Thread-safe.
 */
final class ApprovalsServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(ApprovalsServlet.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private final transient Approvals approvals;
  private final transient GatewayAuth auth;

  ApprovalsServlet(Approvals approvals, GatewayAuth auth) {
    this.approvals = approvals;
    this.auth = auth;
  }

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    try {
      Caller c = caller(req);
      switch (req.getMethod()) {
        case "GET" -> {
          admin(c);
          list(req, resp);
        }
        // a requester of any role may withdraw (deny) its own request: the role is checked for approving only
        case "POST" -> decide(req, resp, c);
        default -> throw ApiProblem.of(405, "method-not-allowed", "Method not allowed", "/approvals takes GET "
            + "and POST, not " + shown(req.getMethod())).withHeader("Allow", "GET, POST");
      }
    } catch (ApiProblem p) {
      p.write(resp, req.getRequestURI());
    } catch (RuntimeException e) {
      LOG.warn("{} {} failed", req.getMethod(), req.getRequestURI(), e);
      if (!resp.isCommitted()) {
        resp.reset();
        ApiProblem.of(500, "internal", "Internal error", "the request failed inside the server; its log has the "
            + "details").write(resp, req.getRequestURI());
      }
    }
  }

  private void list(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    if (req.getPathInfo() != null && !req.getPathInfo().equals("/")) {
      throw ApiProblem.notFound("no such resource: GET /approvals" + shown(req.getPathInfo())
          + " (GET /approvals lists)");
    }
    boolean all = "true".equals(req.getParameter("all"));
    List<StoredApproval> listed = approvals.list().stream()
        .filter(a -> all || a.status() == ApprovalStatus.PENDING).toList();
    ArrayNode arr = JSON.createArrayNode();
    listed.forEach(a -> arr.add(ApprovalJson.of(a)));
    ObjectNode o = JSON.createObjectNode();
    o.put("count", listed.size());
    o.set("approvals", arr);
    answer(resp, 200, o);
  }

  private void decide(HttpServletRequest req, HttpServletResponse resp, Caller c) throws IOException {
    String[] parts = req.getPathInfo() == null ? new String[0] : req.getPathInfo().split("/");
    // "/ID/approve" splits into "", ID, "approve"
    if (parts.length != 3 || !(parts[2].equals("approve") || parts[2].equals("deny"))) {
      throw ApiProblem.notFound("POST /approvals/ID/approve or /approvals/ID/deny, got: POST /approvals"
          + (req.getPathInfo() == null ? "" : shown(req.getPathInfo())));
    }
    String id = parts[1];
    boolean approve = parts[2].equals("approve");
    if (approve) {
      admin(c);
    }
    try {
      StoredApproval a = approvals.decide(id, approve, new Approvals.Approver(c.id(), c.role()));
      answer(resp, 200, ApprovalJson.of(a));
    } catch (Approvals.UnknownRequest e) {
      // no such request, or (to a caller that is not an admin) another's: alike
      throw ApiProblem.notFound(e.getMessage());
    } catch (IllegalArgumentException e) {
      // the requester approving its own request is forbidden; anything else refused here is a state conflict
      // (already decided, used or expired)
      throw approve && approvals.get(id).requester().equals(c.id())
          ? ApiProblem.of(403, "forbidden", "Forbidden", e.getMessage()) : ApiProblem.conflict(e.getMessage());
    }
  }

  /** The caller, when its key is known. */
  private Caller caller(HttpServletRequest req) {
    String key = GatewayAuth.presentedKey(req);
    Caller c = auth.caller(key);
    if (c == null) {
      throw ApiProblem.of(401, "unauthorized", "Unauthorized", key != null ? "unknown API key"
          : "an API key is required: send Authorization: Bearer <key> or X-API-Key: <key>")
          .withHeader("WWW-Authenticate", "Bearer");
    }
    return c;
  }

  /** {@code c}, when its role is admin. */
  private static Caller admin(Caller c) {
    if (c.role() != Role.ADMIN) {
      throw ApiProblem.of(403, "forbidden", "Forbidden", "approvals are decided by an API key with the role admin, "
          + "or by the operator with `toolscout approvals`; this caller's role is " + c.role().id());
    }
    return c;
  }

  /** A path or method as an error repeats it: at most 120 characters. */
  private static String shown(String s) {
    return s.length() > 120 ? s.substring(0, 120) + "..." : s;
  }

  private static void answer(HttpServletResponse resp, int status, ObjectNode body) throws IOException {
    resp.setStatus(status);
    resp.setContentType("application/json");
    resp.setCharacterEncoding("UTF-8");
    resp.getWriter().write(body.toString());
  }
}
