package dev.toolscout.server.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.agent.Agent;
import dev.toolscout.agent.AgentEvent;
import dev.toolscout.agent.AgentResult;
import dev.toolscout.agent.UsageRecord;
import dev.toolscout.agent.UsageReport;
import dev.toolscout.approval.ApprovalStore.ApprovalStatus;
import dev.toolscout.approval.ApprovalStore.StoredApproval;
import dev.toolscout.approval.Approvals;
import dev.toolscout.conversation.Conversations;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Role;
import dev.toolscout.server.AgentJson;
import dev.toolscout.server.ApprovalJson;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent loop over HTTP (docs/AGENT.md): a message in a conversation run to its end (JSON, or server-sent
 * events when the client asks), a run's state, the usage records and their metrics, and the approval queue for
 * admin keys. An approval decided here resumes the runs waiting for it, in the background.
 *
 * <p>A run is made off the request thread ({@link Reply#deferred}): the exchange is suspended while the run waits
 * for its model, so runs in progress hold no thread of the server's pool and every other request is served. Runs
 * in progress are capped per principal and in all ({@link RunLimits}): one more is refused with 429 before it starts.
 */
final class AgentRoutes implements RouteGroup {
    private static final Logger LOG = LoggerFactory.getLogger(AgentRoutes.class);
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final RunSlots slots;

    AgentRoutes(RunLimits limits) {
        this.slots = new RunSlots(limits);
    }

    @Override
    public List<Endpoint> routes() {
        JsonNode id = OpenApi.schema("{\"type\": \"string\", \"pattern\": \"^[A-Za-z0-9._:-]{1,128}$\"}");
        JsonNode runId = OpenApi.schema("{\"type\": \"string\", \"maxLength\": 64}");
        return List.of(
                Endpoint.post("/v1/conversations/{id}/messages", "sendMessage")
                        .tag("agent")
                        .summary(
                                "Run a user message through the agent loop: select tools, call the LLM, run its tool calls")
                        .description(
                                "Answers when the run ends: done, awaiting_approval (a PROPOSE tool waits for an "
                                        + "approver other than the caller; POST /v1/approvals/{id} decides it and the run goes on), or "
                                        + "failed (a limit, the provider). With Accept: text/event-stream the answer is server-sent events: "
                                        + "text (the model's text as it streams), tool_call, tool_result, then result (the AgentRun).")
                        .pathParam("id", "The conversation id", id)
                        .request("MessageRequest")
                        .responseOrStream(200, "The run's result", "AgentRun")
                        .problem(403, "A reader key: the agent loop runs tools, which needs the role user or admin")
                        .problem(409, "The conversation has a run awaiting approval, or no LLM provider is configured")
                        .problem(
                                429,
                                "The principal's runs in progress (--max-runs-per-principal) or the server's (--max-runs) "
                                        + "are at their limit; Retry-After says when to try again, the members limit and value name the limit")
                        .handle(this::message),
                Endpoint.get("/v1/runs/{id}", "getRun")
                        .tag("agent")
                        .summary(
                                "One of the caller's agent runs, as it stands (a paused one goes on once its approval is decided)")
                        .pathParam("id", "The run id", runId)
                        .response(200, "The run", "AgentRun")
                        .problem(404, "No such run of the caller's")
                        .handle(this::run),
                Endpoint.get("/v1/usage", "getUsage")
                        .tag("agent")
                        .access(Endpoint.Access.ADMIN)
                        .summary("The agent loop's success metrics over its usage records")
                        .query(
                                "since",
                                "An ISO-8601 instant; default 7 days ago",
                                OpenApi.schema("{\"type\": \"string\", \"maxLength\": 64}"))
                        .query(
                                "limit",
                                "The most records read, oldest first (1-100000, default 100000)",
                                OpenApi.schema("{\"type\": \"integer\", \"minimum\": 1, \"maximum\": 100000}"))
                        .query(
                                "records",
                                "true: every record too",
                                OpenApi.schema("{\"type\": \"string\", \"enum\": [\"true\", \"false\"]}"))
                        .response(200, "The metrics", "Usage")
                        .handle(this::usage),
                Endpoint.get("/v1/approvals", "listApprovals")
                        .tag("agent")
                        .access(Endpoint.Access.ADMIN)
                        .summary("The approval requests: pending ones, or all with ?all=true")
                        .query(
                                "all",
                                "true: decided, used and expired ones too",
                                OpenApi.schema("{\"type\": \"string\", \"enum\": [\"true\", \"false\"]}"))
                        .response(200, "The requests, oldest first", "ApprovalList")
                        .handle(this::approvals),
                Endpoint.post("/v1/approvals/{id}", "decideApproval")
                        .tag("agent")
                        .access(Endpoint.Access.READ)
                        .summary(
                                "Approve or deny a pending request (admin; never approve one's own), or withdraw one's own")
                        .description(
                                "An admin approves or denies any request but never approves its own; any caller may deny "
                                        + "(withdraw) its own request, and to a caller who is not an admin another's request answers 404 "
                                        + "as a missing one does. The runs waiting for it go on in the background (GET /v1/runs/{id} shows "
                                        + "them).")
                        .pathParam("id", "The request id", runId)
                        .request("Decision")
                        .response(200, "The request as decided", "Approval")
                        .problem(403, "Approving needs the role admin")
                        .problem(404, "No such request (of the caller's own, for one who is not an admin)")
                        .problem(409, "Not pending, or the caller made it")
                        .handle(this::decide));
    }

    private static Agent agent(Call c) {
        Agent a = c.backend().agent();
        if (a == null) {
            throw ApiProblem.conflict("the agent loop is off: no LLM provider is configured (start serve with "
                    + "ANTHROPIC_API_KEY or OPENAI_API_KEY set, or --provider)");
        }
        return a;
    }

    private static Approvals queue(Call c) {
        return c.backend().scout().approvals();
    }

    private Reply message(Call c) {
        // checked first: the loop runs the model's tool calls (writes, memory, approvals), which a reader may not
        if (c.caller() != null && c.caller().role() == Role.READER) {
            throw ApiProblem.of(
                    403,
                    "forbidden",
                    "Forbidden",
                    "the agent loop runs tools: it needs an API key with the "
                            + "role user or admin; this key's role is reader");
        }
        String conv = conversationId(c.path("id"));
        Fields f = Fields.of(c.json(), "", Set.of("message"));
        String message = f.text("message", true, InputLimits.MAX_REQUEST_MESSAGE_CHARS);
        Agent agent = agent(c);
        String requester = c.caller() == null ? "local" : c.caller().id();
        boolean stream = c.wantsEventStream();
        if (stream) {
            // checked before the stream starts, so a conflict is still a problem document, not an event
            agent.waiting(conv, c.principal()).ifPresent(run -> {
                throw ApiProblem.conflict("conversation " + conv + " has run " + run
                        + " waiting for an approval; it goes " + "on once that is decided, before a new message");
            });
        }
        RunSlots.Slot slot = slots.take(c.principal());
        if (!stream) {
            return Reply.deferred(
                    () -> Reply.json(AgentJson.result(run(agent, conv, c, requester, message, e -> {}))), slot::close);
        }
        return Reply.deferred(
                () -> Reply.stream("text/event-stream; charset=utf-8", out -> {
                    AgentResult r;
                    try {
                        r = run(agent, conv, c, requester, message, e -> event(out, e.name(), eventJson(e)));
                    } catch (ApiProblem p) {
                        event(
                                out,
                                "error",
                                F.objectNode().put("status", p.status()).put("detail", p.getMessage()));
                        return;
                    } catch (dev.toolscout.conversation.ConversationsFullException e) {
                        event(out, "error", F.objectNode().put("status", 503).put("detail", e.getMessage()));
                        return;
                    }
                    event(out, "result", AgentJson.result(r));
                }),
                slot::close);
    }

    private static AgentResult run(
            Agent agent,
            String conv,
            Call c,
            String requester,
            String message,
            java.util.function.Consumer<AgentEvent> events) {
        try {
            return agent.run(conv, c.principal(), requester, message, events);
        } catch (dev.toolscout.conversation.ConversationsFullException e) {
            throw e; // the servlet's 503 with Retry-After, as for a selection
        } catch (IllegalStateException e) {
            throw ApiProblem.conflict(e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiProblem.of(503, "interrupted", "Interrupted", "the server is stopping");
        }
    }

    private static ObjectNode eventJson(AgentEvent e) {
        return switch (e) {
            case AgentEvent.Text t -> F.objectNode().put("text", t.text());
            case AgentEvent.ToolCall t -> F.objectNode().put("tool", t.tool()).put("origin", t.origin());
            case AgentEvent.ToolResult t -> {
                ObjectNode n = F.objectNode().put("tool", t.tool());
                if (t.error() != null) {
                    n.put("error", t.error());
                }
                yield n;
            }
        };
    }

    private static void event(OutputStream out, String name, JsonNode data) {
        try {
            out.write(("event: " + name + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            // the client went away: the run goes on to its end and is stored; GET /v1/runs/{id} shows it
            LOG.debug("an event stream's client went away: {}", e.toString());
        }
    }

    private Reply run(Call c) {
        String id = c.path("id");
        return Reply.json(AgentJson.result(agent(c).get(id, c.principal())
                .orElseThrow(() -> ApiProblem.notFound("Run not found: " + Fields.shown(id)))));
    }

    private Reply usage(Call c) {
        String since = c.query("since");
        Instant from;
        try {
            from = since == null ? Instant.now().minus(java.time.Duration.ofDays(7)) : Instant.parse(since);
        } catch (DateTimeParseException e) {
            throw ApiProblem.invalid(
                    "since",
                    "an ISO-8601 instant",
                    since,
                    "since must be an ISO-8601 instant such as " + "2026-11-26T00:00:00Z, got: '" + Fields.shown(since)
                            + "'");
        }
        int limit = c.queryInt("limit", 1, 100_000, 100_000);
        List<UsageRecord> records = Agent.usage(c.backend().scout().usage(), from, limit);
        ObjectNode out = UsageReport.summary(records);
        out.put("since", from.toString());
        if ("true".equals(c.query("records"))) {
            ArrayNode arr = out.putArray("records");
            records.forEach(r -> arr.add(r.json()));
        }
        return Reply.json(out);
    }

    private Reply approvals(Call c) {
        boolean all = "true".equals(c.query("all"));
        List<StoredApproval> shown = queue(c).list().stream()
                .filter(a -> all || a.status() == ApprovalStatus.PENDING)
                .toList();
        Map<String, ObjectNode> runs = runsOf(c, shown);
        ObjectNode o = F.objectNode();
        o.put("count", shown.size());
        ArrayNode arr = o.putArray("approvals");
        shown.forEach(a -> {
            ObjectNode n = ApprovalJson.of(a);
            ObjectNode run = runs.get(a.id());
            if (run != null) {
                n.set("run", run);
            }
            arr.add(n);
        });
        return Reply.json(o);
    }

    /** The most usage records read to find the agent runs of the listed approvals, and how many at a time. */
    private static final int MAX_RUN_RECORDS = 20_000;

    private static final int RUN_RECORDS_PAGE = 2_000;
    /** Approvals older than this are listed without their run: the lookup reads the usage records from here on. */
    private static final java.time.Duration RUN_LOOKBACK = java.time.Duration.ofDays(7);

    /**
     * The agent run that asked for each approval, as it stands ({@code id}, {@code status}, {@code conversation}),
     * by approval id: from the usage records (each names its approvals), which the loop rewrites when a paused run
     * goes on. A call the MCP gateway held has none. Reads the records from the oldest listed approval of the last 7
     * days on, a page at a time, until every listed id is found or {@value #MAX_RUN_RECORDS} were read (the page
     * refreshes every few seconds: the cost stays bounded).
     */
    private static Map<String, ObjectNode> runsOf(Call c, List<StoredApproval> approvals) {
        if (approvals.isEmpty()) {
            return Map.of();
        }
        Instant horizon = Instant.now().minus(RUN_LOOKBACK);
        Set<String> wanted = new java.util.HashSet<>();
        Instant from = null;
        for (StoredApproval a : approvals) {
            if (!a.createdAt().isBefore(horizon)) {
                wanted.add(a.id());
                from = from == null || a.createdAt().isBefore(from) ? a.createdAt() : from;
            }
        }
        Map<String, ObjectNode> out = new java.util.HashMap<>();
        int read = 0;
        // a record is saved when its run pauses, after the approval was filed; a second of slack for clocks
        Instant since = from == null ? null : from.minusSeconds(1);
        while (since != null && out.size() < wanted.size() && read < MAX_RUN_RECORDS) {
            List<UsageRecord> page = Agent.usage(c.backend().scout().usage(), since, RUN_RECORDS_PAGE);
            read += page.size();
            for (UsageRecord r : page) {
                for (JsonNode ap : r.json().path("approvals")) {
                    String id = ap.path("id").asText();
                    if (wanted.contains(id)) {
                        out.put(
                                id,
                                F.objectNode()
                                        .put("id", r.id())
                                        .put("status", r.json().path("status").asText())
                                        .put(
                                                "conversation",
                                                r.json().path("conversation").asText()));
                    }
                }
            }
            Instant last = page.isEmpty() ? since : page.get(page.size() - 1).at();
            // the next page starts at the last record's time (records of that millisecond are read again): stop when
            // the page was not full, or a whole page shared one millisecond
            since = page.size() < RUN_RECORDS_PAGE || !last.isAfter(since) ? null : last;
        }
        return out;
    }

    private Reply decide(Call c) {
        String id = c.path("id");
        Fields f = Fields.of(c.json(), "", Set.of("decision"));
        String decision = f.text("decision", true, 16);
        if (!decision.equals("approve") && !decision.equals("deny")) {
            throw ApiProblem.invalid(
                    "decision",
                    "approve or deny",
                    decision,
                    "decision must be approve or deny, got: '" + Fields.shown(decision) + "'");
        }
        // without API keys the caller is the local user, as the loop records it
        Approvals.Approver who = c.caller() == null
                ? new Approvals.Approver("local", Role.USER)
                : new Approvals.Approver(c.caller().id(), c.caller().role());
        if (decision.equals("approve") && who.role() != Role.ADMIN) {
            throw ApiProblem.of(
                    403,
                    "forbidden",
                    "Forbidden",
                    "approving needs an API key with the role admin; this " + "caller's role is "
                            + who.role().id() + " (a requester may deny, that is withdraw, its own request)");
        }
        Approvals q = queue(c);
        StoredApproval a;
        try {
            a = q.decide(id, decision.equals("approve"), who);
        } catch (Approvals.UnknownRequest e) {
            throw ApiProblem.notFound(e.getMessage());
        } catch (IllegalArgumentException e) {
            throw ApiProblem.conflict(e.getMessage());
        }
        Agent agent = c.backend().agent();
        if (agent != null) {
            Thread.ofVirtual().name("resume-" + id).start(() -> {
                try {
                    agent.resumeDecided();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    LOG.warn("resuming the runs waiting for approval request {} failed", id, e);
                }
            });
        }
        return Reply.json(ApprovalJson.of(a));
    }

    private static String conversationId(String id) {
        try {
            return Conversations.checkId(id);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.invalid("id", "1-128 characters of A-Z a-z 0-9 . _ : -", id, e.getMessage());
        }
    }

    @Override
    public Map<String, JsonNode> schemas() {
        return Map.of(
                "MessageRequest", OpenApi.schema("""
            {"type": "object", "required": ["message"], "additionalProperties": false,
             "properties": {"message": {"type": "string", "minLength": 1, "maxLength": 16384}}}"""),
                "AgentRun", OpenApi.schema("""
            {"type": "object", "required": ["run_id", "conversation_id", "status", "text", "usage"],
             "additionalProperties": false,
             "properties": {"run_id": {"type": "string"}, "conversation_id": {"type": "string"},
              "status": {"type": "string", "enum": ["done", "awaiting_approval", "failed"]},
              "text": {"type": "string", "description": "The model's last text"},
              "approval": {"type": "object", "required": ["id", "tool"], "additionalProperties": false,
                           "properties": {"id": {"type": "string"}, "tool": {"type": "string"}}},
              "error": {"type": "string", "description": "What stopped a failed run: a limit, the provider"},
              "usage": {"$ref": "#/components/schemas/UsageRecord"}}}"""),
                "UsageRecord", OpenApi.schema("""
            {"type": "object", "description": "One request's usage record (docs/AGENT.md, Usage records)",
             "required": ["id", "at", "status", "conversation", "message", "calls", "approvals", "tokens",
                          "latency_ms"],
             "properties": {"id": {"type": "string"}, "at": {"type": "string", "format": "date-time"},
              "status": {"type": "string"}, "conversation": {"type": "string"}, "message": {"type": "string"},
              "selection": {"type": "array", "items": {"type": "object", "required": ["name", "score", "reason"],
                "properties": {"name": {"type": "string"}, "score": {"type": "number"}, "reason": {"type": "string"},
                  "origin": {"type": "string", "enum": ["core", "offered", "skill", "ranked", "dependency", "used_with"],
                    "description": "Why the selection holds the tool (absent in records written before it was kept)"}}}},
              "calls": {"type": "array", "items": {"type": "object", "required": ["tool", "origin", "outcome"],
                "properties": {"tool": {"type": "string"},
                  "origin": {"type": "string", "enum": ["selected", "discovery", "skill", "meta", "route", "other"]},
                  "outcome": {"type": "string", "enum": ["ok", "error", "not_found", "denied"]}}}},
              "approvals": {"type": "array", "items": {"type": "object"}},
              "tokens": {"type": "object"}, "latency_ms": {"type": "object"}}}"""),
                "Usage", OpenApi.schema("""
            {"type": "object", "required": ["requests", "tool_calls", "preselected_share", "recall", "precision",
                                            "used_tools", "selected_tools", "used_selected", "selection_by_origin",
                                            "discovery_rate", "discovery_calls", "discovery_empty", "approvals",
                                            "tokens", "since"],
             "properties": {"requests": {"type": "integer"}, "by_status": {"type": "object"},
              "tool_calls": {"type": "integer", "description": "Calls of catalog tools (meta-tools apart)"},
              "by_origin": {"type": "object"},
              "preselected_share": {"type": "number", "description": "Of the calls of catalog tools (ToolScout's own tools apart), the share whose tool the first selection held; see recall"},
              "recall": {"type": "number", "description": "Of the tools used (distinct per request, ToolScout's own memory, skill and MCP tools counted, the discovery tools apart), the share the first selection held or the router ran"},
              "precision": {"type": "number", "description": "Of the tools the first selection held (the discovery tools apart), the share the model used"},
              "used_tools": {"type": "integer"}, "selected_tools": {"type": "integer"},
              "used_selected": {"type": "integer", "description": "Tools both selected and used"},
              "selection_by_origin": {"type": "object", "description": "Per origin of a selected tool (core, offered, skill, ranked, dependency, used_with; route, unknown when seen): selected, used, precision, and recall (that origin's share of the used tools); not_selected: used and recall of the tools the selection lacked",
                "additionalProperties": {"type": "object", "properties": {"selected": {"type": "integer"},
                  "used": {"type": "integer"}, "precision": {"type": "number"}, "recall": {"type": "number"}}}},
              "discovery_rate": {"type": "number", "description": "Share of requests that called tool_discovery__find"},
              "discovery_calls": {"type": "integer"},
              "discovery_empty": {"type": "integer", "description": "Discovery calls that found nothing"},
              "approvals": {"type": "object"}, "tokens": {"type": "object"},
              "not_found": {"type": "integer"}, "tool_errors": {"type": "integer"},
              "since": {"type": "string", "format": "date-time"},
              "records": {"type": "array", "items": {"$ref": "#/components/schemas/UsageRecord"}}}}"""),
                "Decision", OpenApi.schema("""
            {"type": "object", "required": ["decision"], "additionalProperties": false,
             "properties": {"decision": {"type": "string", "enum": ["approve", "deny"]}}}"""),
                "Approval", OpenApi.schema("""
            {"type": "object", "required": ["id", "status", "requester", "tool", "created_at"],
             "properties": {"id": {"type": "string"},
              "status": {"type": "string", "enum": ["pending", "approved", "denied", "expired", "used"]},
              "requester": {"type": "string"}, "tool": {"type": "string"},
              "arguments": {"description": "As stored: each secret masked as [redacted …tail sha256:digest]"},
              "channel": {"type": ["string", "null"], "enum": ["gateway", "agent", null]},
              "scope": {"type": ["string", "null"], "description": "The agent run that asked (channel agent)"},
              "created_at": {"type": "string"}, "decided_by": {"type": ["string", "null"]},
              "decided_at": {"type": ["string", "null"]},
              "run": {"type": "object", "description": "The agent run that asked for it, as it stands (none for a call the MCP gateway held)",
                      "required": ["id", "status", "conversation"], "additionalProperties": false,
                      "properties": {"id": {"type": "string"}, "conversation": {"type": "string"},
                                     "status": {"type": "string", "enum": ["done", "awaiting_approval", "failed"]}}}}}"""),
                "ApprovalList", OpenApi.schema("""
            {"type": "object", "required": ["count", "approvals"], "additionalProperties": false,
             "properties": {"count": {"type": "integer"},
              "approvals": {"type": "array", "items": {"$ref": "#/components/schemas/Approval"}}}}"""));
    }
}
