package dev.toolscout.server.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.approval.Approvals;
import dev.toolscout.catalog.StateStore.ApprovalStatus;
import dev.toolscout.catalog.StateStore.StoredApproval;
import dev.toolscout.mcp.gateway.Caller;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.model.Role;
import dev.toolscout.server.ApprovalJson;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;

/**
 * The approval queue over HTTP, for admin API keys: {@code GET /approvals} (pending; {@code ?all=true} for
 * every request), {@code POST /approvals/ID/approve} and {@code POST /approvals/ID/deny}. Out of band on
 * purpose: it is not an MCP tool, so no model can call it through the gateway. Behind {@link GatewayAuth}'s
 * filter; listing and approving need the role admin, others get 403 (without API keys nobody is an admin here,
 * and the operator uses {@code toolscout approvals}). An admin never approves its own request. A requester of
 * any role may deny (withdraw) its own request; to it, another's request answers 404 as a missing one does.
 * Thread-safe.
 */
final class ApprovalsServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final ObjectMapper JSON = new ObjectMapper();
  private final transient Approvals approvals;

  ApprovalsServlet(Approvals approvals) {
    this.approvals = approvals;
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    if (admin(req, resp) == null) {
      return;
    }
    if (req.getPathInfo() != null && !req.getPathInfo().equals("/")) {
      answer(resp, 404, error("no such resource: GET /approvals" + req.getPathInfo() + " (GET /approvals lists)"));
      return;
    }
    boolean all = "true".equals(req.getParameter("all"));
    List<StoredApproval> shown = approvals.list().stream()
        .filter(a -> all || a.status() == ApprovalStatus.PENDING).toList();
    ArrayNode arr = JSON.createArrayNode();
    shown.forEach(a -> arr.add(ApprovalJson.of(a)));
    ObjectNode o = JSON.createObjectNode();
    o.put("count", shown.size());
    o.set("approvals", arr);
    answer(resp, 200, o);
  }

  @Override
  protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    // a requester of any role may withdraw (deny) its own request: the role is checked for approving only
    Caller c = req.getAttribute(GatewayAuth.CALLER_ATTRIBUTE) instanceof Caller caller ? caller : null;
    String[] parts = req.getPathInfo() == null ? new String[0] : req.getPathInfo().split("/");
    // "/ID/approve" splits into "", ID, "approve"
    if (parts.length != 3 || !(parts[2].equals("approve") || parts[2].equals("deny"))) {
      answer(resp, 404, error("POST /approvals/ID/approve or /approvals/ID/deny, got: POST /approvals"
          + (req.getPathInfo() == null ? "" : req.getPathInfo())));
      return;
    }
    String id = parts[1];
    boolean approve = parts[2].equals("approve");
    if (c == null || approve && c.role() != Role.ADMIN) {
      admin(req, resp);
      return;
    }
    try {
      StoredApproval a = approvals.decide(id, approve, new Approvals.Approver(c.id(), c.role()));
      answer(resp, 200, ApprovalJson.of(a));
    } catch (Approvals.UnknownRequest e) {
      // no such request, or (to a non-admin) another's: alike
      answer(resp, 404, error(e.getMessage()));
    } catch (IllegalArgumentException e) {
      // the requester approving its own request is forbidden; anything else refused here is a state conflict
      // (already decided, used or expired)
      answer(resp, approve && approvals.get(id).requester().equals(c.id()) ? 403 : 409, error(e.getMessage()));
    }
  }

  /** The caller when it is an admin; else answers 403 and returns null. */
  private static Caller admin(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    Object c = req.getAttribute(GatewayAuth.CALLER_ATTRIBUTE);
    if (c instanceof Caller caller && caller.role() == Role.ADMIN) {
      return caller;
    }
    answer(resp, 403, error("approvals are decided by an API key with the role admin, or by the operator with "
        + "`toolscout approvals`; this caller's role is "
        + (c instanceof Caller caller ? caller.role().id() : "unknown")));
    return null;
  }

  private static ObjectNode error(String message) {
    return JSON.createObjectNode().put("error", message);
  }

  private static void answer(HttpServletResponse resp, int status, ObjectNode body) throws IOException {
    resp.setStatus(status);
    resp.setContentType("application/json");
    resp.setCharacterEncoding("UTF-8");
    resp.getWriter().write(body.toString());
  }
}
