package dev.toolscout.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The seed's success metrics over usage records, and the (message, tools used) pairs issue 20 learns from. What
 * {@code toolscout usage} and {@code GET /v1/usage} print (docs/AGENT.md).
 */
public final class UsageReport {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private UsageReport() {}

    /**
     * The metrics over {@code records}: {@code requests} (by status), {@code tool_calls} (every call of a
     * catalog tool, meta-tools apart, by origin), {@code preselected_share} (of the calls of catalog tools, the
     * share whose tool the first selection held), {@code discovery_rate} (the share of requests that called
     * {@code tool_discovery__find}), {@code discovery_calls} and {@code discovery_empty} (calls that found
     * nothing), {@code approvals} (requested, approved, denied, pending), {@code tokens} (input, output, and
     * saved: the definitions left out by selecting, summed over model calls), {@code not_found}, {@code
     * tool_errors}; and {@code recall}, {@code precision} and {@code selection_by_origin} ({@link
     * #selectionFigures}).
     */
    public static ObjectNode summary(List<UsageRecord> records) {
        long done = 0;
        long awaiting = 0;
        long failed = 0;
        long calls = 0;
        long selected = 0;
        long routed = 0;
        long discovered = 0;
        long skill = 0;
        long other = 0;
        long meta = 0;
        long notFound = 0;
        long errors = 0;
        long withDiscovery = 0;
        long discoveryCalls = 0;
        long discoveryEmpty = 0;
        long requested = 0;
        long approved = 0;
        long denied = 0;
        long pending = 0;
        long in = 0;
        long out = 0;
        long saved = 0;
        for (UsageRecord r : records) {
            JsonNode j = r.json();
            switch (r.status()) {
                case "done" -> done++;
                case "awaiting_approval" -> awaiting++;
                default -> failed++;
            }
            boolean found = false;
            for (JsonNode c : j.path("calls")) {
                String origin = c.path("origin").asText();
                String outcome = c.path("outcome").asText();
                if (outcome.equals("not_found")) {
                    notFound++;
                    continue;
                }
                if (outcome.equals("error")) {
                    errors++;
                }
                switch (origin) {
                    case "meta" -> meta++;
                    case "selected" -> selected++;
                    case "route" -> routed++;
                    case "discovery" -> discovered++;
                    case "skill" -> skill++;
                    default -> other++;
                }
                if (!origin.equals("meta")) {
                    calls++;
                }
                if (c.path("tool").asText().equals("tool_discovery__find")) {
                    found = true;
                    discoveryCalls++;
                    if (c.path("found").asInt(-1) == 0 || outcome.equals("error")) {
                        discoveryEmpty++;
                    }
                }
            }
            if (found) {
                withDiscovery++;
            }
            for (JsonNode a : j.path("approvals")) {
                requested++;
                switch (a.path("outcome").asText()) {
                    case "approved" -> approved++;
                    case "denied" -> denied++;
                    default -> pending++;
                }
            }
            in += j.path("tokens").path("input").asLong();
            out += j.path("tokens").path("output").asLong();
            saved += j.path("tokens").path("saved").asLong();
        }
        long requests = records.size();
        ObjectNode n = F.objectNode();
        n.put("requests", requests);
        n.putObject("by_status")
                .put("done", done)
                .put("awaiting_approval", awaiting)
                .put("failed", failed);
        n.put("tool_calls", calls);
        n.putObject("by_origin")
                .put("selected", selected)
                .put("discovery", discovered)
                .put("skill", skill)
                .put("route", routed)
                .put("other", other)
                .put("meta", meta);
        // a tool the router ran without the model was ToolScout's own pick, before any model call: pre-selected
        n.put("preselected_share", calls == 0 ? 0 : round((selected + routed) / (double) calls));
        n.put("discovery_rate", requests == 0 ? 0 : round(withDiscovery / (double) requests));
        selectionFigures(records, n);
        n.put("discovery_calls", discoveryCalls);
        n.put("discovery_empty", discoveryEmpty);
        n.putObject("approvals")
                .put("requested", requested)
                .put("approved", approved)
                .put("denied", denied)
                .put("pending", pending);
        n.putObject("tokens").put("input", in).put("output", out).put("saved", saved);
        n.put("not_found", notFound);
        n.put("tool_errors", errors);
        return n;
    }

    /** The discovery tools' source: the escape hatch, measured by {@code discovery_rate}, not a tool used. */
    private static final String DISCOVERY_PREFIX = "tool_discovery__";

    /**
     * How well the first selection matched what the model used, per request, summed over the requests: a request's
     * used tools are the distinct tools it called (a call answered "not found" apart), ToolScout's own tools counted
     * ({@code memory__store} as much as a catalog tool), the discovery tools ({@code tool_discovery__*}) apart, as
     * they are in its selected tools. Adds to {@code n}:
     *
     * <ul>
     *   <li>{@code recall}: of the used tools, the share the first selection held (or the router ran without the
     *       model), 0 when none was used;
     *   <li>{@code precision}: of the selected tools, the share the model used (seed 000's "selected tools actually
     *       used"), 0 when none was selected;
     *   <li>{@code used_tools}, {@code selected_tools}, {@code used_selected}: the counts behind them;
     *   <li>{@code selection_by_origin}: per origin of a selected tool ({@code core}, {@code offered}, {@code
     *       skill}, {@code ranked}, {@code dependency}, {@code used_with}; {@code route} for a tool the router ran;
     *       {@code unknown} for a record written before origins were kept) {@code {"selected", "used",
     *       "precision", "recall"}}, {@code recall} the share of all used tools that came by that origin (they add
     *       up to {@code recall}); and {@code not_selected}: {@code {"used", "recall"}}, the used tools the first
     *       selection lacked and their share.
     * </ul>
     */
    static void selectionFigures(List<UsageRecord> records, ObjectNode n) {
        long used = 0;
        long selected = 0;
        long usedSelected = 0;
        long notSelected = 0;
        // selected and used, per origin: the selection's origins in their order, then route and unknown if seen
        java.util.Map<String, long[]> byOrigin = new java.util.LinkedHashMap<>();
        for (String origin : List.of("core", "offered", "skill", "ranked", "dependency", "used_with")) {
            byOrigin.put(origin, new long[2]);
        }
        for (UsageRecord r : records) {
            JsonNode j = r.json();
            java.util.Map<String, String> originOf = new java.util.LinkedHashMap<>();
            for (JsonNode t : j.path("selection")) {
                String name = t.path("name").asText();
                if (!name.isEmpty() && !name.startsWith(DISCOVERY_PREFIX)) {
                    originOf.putIfAbsent(name, t.path("origin").asText("unknown"));
                }
            }
            Set<String> usedHere = new LinkedHashSet<>();
            Set<String> routed = new LinkedHashSet<>();
            for (JsonNode c : j.path("calls")) {
                String tool = c.path("tool").asText();
                if (tool.isEmpty()
                        || tool.startsWith(DISCOVERY_PREFIX)
                        || c.path("outcome").asText().equals("not_found")) {
                    continue;
                }
                usedHere.add(tool);
                if (c.path("origin").asText().equals("route")) {
                    routed.add(tool);
                }
            }
            selected += originOf.size();
            originOf.values().forEach(o -> byOrigin.computeIfAbsent(o, k -> new long[2])[0]++);
            used += usedHere.size();
            for (String tool : usedHere) {
                String origin = originOf.get(tool);
                if (origin != null) {
                    usedSelected++;
                    byOrigin.get(origin)[1]++;
                } else if (routed.contains(tool)) {
                    byOrigin.computeIfAbsent("route", k -> new long[2])[1]++;
                } else {
                    notSelected++;
                }
            }
        }
        long preselected = used - notSelected;
        n.put("recall", used == 0 ? 0 : round(preselected / (double) used));
        n.put("precision", selected == 0 ? 0 : round(usedSelected / (double) selected));
        n.put("used_tools", used);
        n.put("selected_tools", selected);
        n.put("used_selected", usedSelected);
        ObjectNode o = n.putObject("selection_by_origin");
        long all = used;
        byOrigin.forEach((origin, c) -> o.putObject(origin)
                .put("selected", c[0])
                .put("used", c[1])
                .put("precision", c[0] == 0 ? 0 : round(c[1] / (double) c[0]))
                .put("recall", all == 0 ? 0 : round(c[1] / (double) all)));
        o.putObject("not_selected")
                .put("used", notSelected)
                .put("recall", used == 0 ? 0 : round(notSelected / (double) used));
    }

    /**
     * One pair per finished request ({@code done}): {@code {"message", "tools", "principal", "conversation",
     * "at"}}, {@code tools} the catalog tools the model called successfully, in call order, once each, meta-tools
     * left out. The format issue 20's {@code toolscout learn --pairs FILE} reads (JSON Lines, docs/AGENT.md).
     */
    public static List<ObjectNode> pairs(List<UsageRecord> records) {
        return records.stream()
                .filter(r -> r.status().equals("done"))
                .map(UsageReport::pair)
                .toList();
    }

    private static ObjectNode pair(UsageRecord r) {
        ObjectNode p = F.objectNode();
        p.put("message", r.json().path("message").asText());
        Set<String> tools = new LinkedHashSet<>();
        for (JsonNode c : r.json().path("calls")) {
            if (!c.path("origin").asText().equals("meta")
                    && c.path("outcome").asText().equals("ok")) {
                tools.add(c.path("tool").asText());
            }
        }
        ArrayNode t = p.putArray("tools");
        tools.forEach(t::add);
        String user = r.json().path("principal").path("user").asText(null);
        if (user != null) {
            p.put("principal", user);
        }
        p.put("conversation", r.json().path("conversation").asText());
        p.put("at", r.at().toString());
        return p;
    }

    private static double round(double v) {
        return Math.round(v * 10_000) / 10_000.0;
    }
}
