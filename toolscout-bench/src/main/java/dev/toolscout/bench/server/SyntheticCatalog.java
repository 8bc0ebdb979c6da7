package dev.toolscout.bench.server;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Generates realistic-looking catalogs of any size for benchmarks: vendors with actions (verb + object),
 * one-or-two-sentence descriptions and 1-4 typed parameters, and natural-language queries about them.
 * Deterministic for a seed.
 */
public final class SyntheticCatalog {
    private static final String[] VENDORS = {
        "acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne", "wonka", "tyrell", "cyberdyne",
        "soylent", "oscorp", "aperture", "blackmesa", "vandelay", "pied", "dunder", "sterling", "prestige", "monarch",
        "zenith", "apex", "nimbus", "quartz", "orbit", "pixel", "vertex", "summit", "harbor", "lumen"
    };
    private static final String[] DOMAINS = {
        "crm", "billing", "calendar", "mail", "chat", "storage", "docs", "tickets", "deploy", "analytics",
        "hr", "payroll", "inventory", "shipping", "maps", "weather", "news", "music", "video", "photos",
        "notes", "tasks", "wiki", "search", "ads", "social", "forms", "surveys", "sms", "voice"
    };
    private static final String[][] VERBS = {
        {"list", "Lists"},
        {"get", "Gets"},
        {"create", "Creates"},
        {"update", "Updates"},
        {"delete", "Deletes"},
        {"search", "Searches"},
        {"export", "Exports"},
        {"import", "Imports"},
        {"send", "Sends"},
        {"archive", "Archives"},
        {"share", "Shares"},
        {"schedule", "Schedules"},
        {"cancel", "Cancels"},
        {"approve", "Approves"},
        {"assign", "Assigns"},
        {"summarize", "Summarizes"},
        {"translate", "Translates"},
        {"sync", "Synchronizes"},
        {"upload", "Uploads"},
        {"download", "Downloads"}
    };
    private static final String[] OBJECTS = {
        "contact", "invoice", "event", "message", "file", "document", "ticket", "release", "report", "employee",
        "payment", "order", "shipment", "route", "forecast", "article", "playlist", "clip", "album", "note",
        "task", "page", "query", "campaign", "post", "form", "response", "text", "call", "folder",
        "customer", "subscription", "refund", "meeting", "reminder", "comment", "label", "project", "team", "user"
    };
    private static final String[] QUALIFIERS = {
        "by id",
        "in bulk",
        "for a date range",
        "with filters",
        "for the current user",
        "across all projects",
        "in a shared workspace",
        "with attachments",
        "older than a given age",
        "matching a keyword"
    };
    private static final String[][] PARAMS = {
        {"id", "string", "Identifier of the record."}, {"query", "string", "Free-text search terms."},
        {"limit", "integer", "Maximum number of results."}, {"start_time", "string", "Start, ISO 8601."},
        {"end_time", "string", "End, ISO 8601."}, {"recipient", "string", "Email address or user id."},
        {"title", "string", "A short title."}, {"body", "string", "The content."},
        {"folder_id", "string", "Destination folder."}, {"status", "string", "New status."},
        {"amount", "number", "Amount in the account currency."}, {"language", "string", "ISO 639-1 code."}
    };

    private SyntheticCatalog() {}

    /** {@code n} tools, names unique. */
    public static List<ToolSpec> tools(int n, long seed) {
        Random r = new Random(seed);
        List<ToolSpec> out = new ArrayList<>(n);
        JsonNodeFactory f = JsonNodeFactory.instance;
        for (int i = 0; i < n; i++) {
            String vendor = VENDORS[i % VENDORS.length];
            String domain = DOMAINS[(i / VENDORS.length) % DOMAINS.length];
            String[] verb = VERBS[r.nextInt(VERBS.length)];
            String object = OBJECTS[r.nextInt(OBJECTS.length)];
            String qualifier = QUALIFIERS[r.nextInt(QUALIFIERS.length)];
            // the instance number keeps names unique at any size
            String source = vendor + "-" + domain + (i / (VENDORS.length * DOMAINS.length));
            String action = verb[0] + "_" + object + (r.nextInt(4) == 0 ? "s" : "");
            String name = source + "__" + action + "_" + i;
            String desc = verb[1] + " " + object + "s " + qualifier + " in " + cap(vendor) + " " + cap(domain) + ". "
                    + "Returns the " + object + " records the " + domain + " service holds.";
            ObjectNode schema = f.objectNode().put("type", "object");
            ObjectNode props = schema.putObject("properties");
            int np = 1 + r.nextInt(4);
            for (int p = 0; p < np; p++) {
                String[] param = PARAMS[r.nextInt(PARAMS.length)];
                props.putObject(param[0]).put("type", param[1]).put("description", param[2]);
            }
            SideEffect se = switch (verb[0]) {
                case "delete", "cancel", "archive" -> SideEffect.DELETE;
                case "list", "get", "search", "export", "download", "summarize" -> SideEffect.READ;
                default -> SideEffect.WRITE;
            };
            out.add(ToolSpec.builder(name, desc)
                    .category(domain)
                    .tags(List.of(vendor, object))
                    .parameters(schema)
                    .sideEffect(se)
                    .build());
        }
        return out;
    }

    /**
     * A unit vector near {@code base}: each dimension plus Gaussian noise of standard deviation 0.02, then
     * normalized (a cosine of about 0.93 to {@code base} at 384 dimensions). Gives a catalog larger than what was
     * embedded for real vectors with the real ones' clusters, for the benchmarks.
     */
    public static float[] perturbed(float[] base, Random random) {
        float[] v = new float[base.length];
        double norm = 0;
        for (int d = 0; d < v.length; d++) {
            v[d] = (float) (base[d] + random.nextGaussian() * 0.02);
            norm += v[d] * v[d];
        }
        float inv = (float) (1 / Math.sqrt(norm));
        for (int d = 0; d < v.length; d++) {
            v[d] *= inv;
        }
        return v;
    }

    /** {@code n} distinct user messages in the catalog's vocabulary. */
    public static List<String> queries(int n, long seed) {
        Random r = new Random(seed);
        String[] openers = {"Please", "Can you", "I need to", "Help me", "Could you", "I want to", "Quickly"};
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String verb = VERBS[r.nextInt(VERBS.length)][0];
            String object = OBJECTS[r.nextInt(OBJECTS.length)];
            String vendor = VENDORS[r.nextInt(VENDORS.length)];
            String domain = DOMAINS[r.nextInt(DOMAINS.length)];
            String q = String.format(
                    Locale.ROOT,
                    "%s %s the %s %s in %s %s (request %d)",
                    openers[r.nextInt(openers.length)],
                    verb,
                    object,
                    QUALIFIERS[r.nextInt(QUALIFIERS.length)],
                    cap(vendor),
                    domain,
                    i);
            out.add(q);
        }
        return out;
    }

    private static String cap(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
