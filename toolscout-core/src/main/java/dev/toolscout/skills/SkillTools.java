package dev.toolscout.skills;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.access.AccessControl;
import dev.toolscout.access.AllowedSet;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.conversation.Conversation;
import dev.toolscout.conversation.Conversations;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Principal;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.ToolSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Skills as a principal sees them, and the {@code skills__activate} meta-tool (the design's {@code
 * activate_skill}; every tool name here is {@code source__action}).
 *
 * <p>Access: a skill is visible to a principal who may use {@code skills__activate} when it brings no tools (a
 * skill of instructions only) or at least one of its tools is visible; a skill whose tools are all denied (or
 * missing: the two read alike) is invisible. Of a visible skill, only its visible tools are ever named, and
 * the names of catalog tools the principal may not see are blanked out of its description and documentation
 * ({@value #HIDDEN}), since those are free text written by the skill's author. An invisible skill and a missing
 * one get the same answer, {@code Skill not found: <name>}.
 *
 * <p>Thread-safe.
 */
public final class SkillTools {
    public static final String ACTIVATE = "skills__activate";
    /** The most skills named in {@code skills__activate}'s enum; past it the parameter is a plain string. */
    public static final int MAX_ENUM = 100;
    /** What a tool name the principal may not see reads as in a skill's text. */
    public static final String HIDDEN = "[unavailable tool]";

    /** A tool name inside free text: {@code source__action}. */
    private static final Pattern TOOL_NAME =
            Pattern.compile("(?<![A-Za-z0-9_-])[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*__" + "[A-Za-z0-9_-]+");

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final int MAX_ECHO = 100;

    /**
     * {@code skills__activate} as access rules see it, with no enum: its enum depends on who asks. An MCP gateway,
     * which serves one definition of a tool to every session, offers this one.
     */
    public static final ToolSpec SPEC = activateSpec(null);

    private final Skills skills;
    private final SkillIndex index;
    private final Catalog catalog;
    private final AccessControl access;
    private final Conversations conversations;
    private final Map<String, ToolSpec> engineTools;
    private final Predicate<ToolSpec> scope;

    /**
     * @param engineTools tools the engine serves itself (the discovery meta-tools): a skill's text may name them
     *     when the principal may use them; {@code skills__activate} is always one
     */
    public SkillTools(
            Skills skills,
            SkillIndex index,
            Catalog catalog,
            AccessControl access,
            Conversations conversations,
            List<ToolSpec> engineTools) {
        this(skills, index, catalog, access, conversations, own(engineTools), t -> true);
    }

    private SkillTools(
            Skills skills,
            SkillIndex index,
            Catalog catalog,
            AccessControl access,
            Conversations conversations,
            Map<String, ToolSpec> engineTools,
            Predicate<ToolSpec> scope) {
        this.skills = Objects.requireNonNull(skills, "skills");
        this.index = Objects.requireNonNull(index, "index");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.access = Objects.requireNonNull(access, "access");
        this.conversations = Objects.requireNonNull(conversations, "conversations");
        this.engineTools = engineTools;
        this.scope = scope;
    }

    private static Map<String, ToolSpec> own(List<ToolSpec> engineTools) {
        Map<String, ToolSpec> m = new LinkedHashMap<>();
        engineTools.forEach(t -> m.put(t.fullName(), t));
        m.put(ACTIVATE, SPEC);
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * These skill tools with a skill's tools restricted to those that also pass {@code scope} (an MCP gateway
     * offers only the tools it can run): a skill none of whose tools pass is invisible.
     */
    public SkillTools scoped(Predicate<ToolSpec> scope) {
        return new SkillTools(skills, index, catalog, access, conversations, engineTools, this.scope.and(scope));
    }

    public Conversations conversations() {
        return conversations;
    }

    /** The skills' change counter ({@link Skills#version()}). */
    public long skillsVersion() {
        return skills.version();
    }

    /**
     * {@code skills__activate}'s definition.
     *
     * @param names the skills its enum lists, or {@code null} for none (the definition access rules see)
     */
    private static ToolSpec activateSpec(List<String> names) {
        ObjectNode schema = F.objectNode();
        schema.put("type", "object");
        ObjectNode name = schema.putObject("properties").putObject("skill_name");
        name.put("type", "string");
        name.put("description", "Name of the skill to activate.");
        if (names != null && !names.isEmpty() && names.size() <= MAX_ENUM) {
            ArrayNode e = name.putArray("enum");
            names.forEach(e::add);
        }
        schema.putArray("required").add("skill_name");
        String listed = names != null && !names.isEmpty() && names.size() <= MAX_ENUM
                ? " Available skills: " + String.join(", ", names) + "."
                : " Find skills with tool_discovery__find or tool_discovery__list_all (category skills).";
        return ToolSpec.builder(
                        ACTIVATE,
                        "Activate a skill to get its instructions and its tools for the rest of " + "this conversation."
                                + listed)
                .category("skills")
                .tags(List.of("skill", "activate", "capabilities"))
                .parameters(schema)
                .aiAccess(AiAccess.EXECUTE)
                .sideEffect(SideEffect.WRITE)
                .build();
    }

    /** A skill as one principal sees it: its tools the principal may see, in the skill's order. */
    public record Visible(Skill skill, List<ToolSpec> tools) {
        public Visible {
            tools = List.copyOf(tools);
        }

        public String name() {
            return skill.name();
        }
    }

    /** Whether {@code principal} may use {@code skills__activate} at all (and so see any skill). */
    public boolean mayActivate(Principal principal) {
        return access.allows(principal, SPEC);
    }

    /** Every skill {@code principal} may see, in name order. */
    public List<Visible> visible(Principal principal) {
        if (!mayActivate(principal)) {
            return List.of();
        }
        View v = view(principal);
        List<Visible> out = new ArrayList<>();
        for (Skill s : skills.all()) {
            v.visible(s).ifPresent(out::add);
        }
        return out;
    }

    /**
     * The tools {@code skill} names that the catalog does not hold and ToolScout does not serve itself, in the
     * skill's order: why it brings fewer tools than it names, or, when every tool it names is missing, why it is
     * offered to nobody. The same for every principal: a tool the policy denies is not missing, and never named here.
     */
    public List<String> missingTools(Skill skill) {
        Catalog.Snapshot snap = catalog.snapshot();
        return skill.tools().stream()
                .filter(t -> snap.get(t) == null && !engineTools.containsKey(t))
                .toList();
    }

    /**
     * The skills offered to nobody because every tool they name is missing from the catalog ({@link #missingTools}),
     * in name order, as {@code principal} may read them (tool names it may not see blanked out of the text): listed
     * beside {@link #visible(Principal)} with why, so a skill added before its tools never reads as absent. Empty
     * for a principal that may not use {@code skills__activate}.
     */
    public List<Skill> unoffered(Principal principal) {
        if (!mayActivate(principal)) {
            return List.of();
        }
        View view = view(principal);
        List<Skill> out = new ArrayList<>();
        for (Skill s : skills.all()) {
            if (!s.tools().isEmpty() && missingTools(s).size() == s.tools().size()) {
                out.add(new Skill(
                        s.name(),
                        cut(view.redact(s.description()), Skill.MAX_DESCRIPTION),
                        cut(view.redact(s.documentation()), Skill.MAX_DOCUMENTATION),
                        s.tools(),
                        s.source(),
                        s.resources()));
            }
        }
        return out;
    }

    /** The skill of this name, if {@code principal} may see it. */
    public Optional<Visible> visible(Principal principal, String name) {
        Optional<Skill> s = skills.get(name);
        if (s.isEmpty() || !mayActivate(principal)) {
            return Optional.empty();
        }
        return view(principal).visible(s.get());
    }

    /**
     * {@code skills__activate} as {@code principal} is given it, its enum naming the skills it may see; empty
     * when it may see none (or may not use the tool).
     */
    public Optional<ToolSpec> activateTool(Principal principal) {
        return activateTool(principal, List.of());
    }

    /**
     * {@code skills__activate} for a conversation whose {@code active} skills need no activation: its enum names
     * the other skills {@code principal} may see; empty when there are none.
     */
    public Optional<ToolSpec> activateTool(Principal principal, java.util.Collection<String> active) {
        List<String> names = visible(principal).stream()
                .map(Visible::name)
                .filter(n -> !active.contains(n))
                .toList();
        return names.isEmpty() ? Optional.empty() : Optional.of(activateSpec(names));
    }

    /**
     * {@code v} as {@code principal} may read it: its visible tools only, the names of tools it may not see
     * blanked out of its description and documentation.
     */
    public Skill readable(Principal principal, Visible v) {
        View view = view(principal);
        Skill s = v.skill();
        // blanking a short name out can lengthen the text past its limit: cut it there
        return new Skill(
                s.name(),
                cut(view.redact(s.description()), Skill.MAX_DESCRIPTION),
                cut(view.redact(s.documentation()), Skill.MAX_DOCUMENTATION),
                v.tools().stream().map(ToolSpec::fullName).toList(),
                s.source(),
                s.resources());
    }

    private static String cut(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }

    /**
     * The visible skills ranked for {@code message} ({@link SkillIndex#rank}), access applied before ranking.
     */
    public List<Ranked> rank(Principal principal, String message, Supplier<float[]> vector) {
        if (!mayActivate(principal)) {
            return List.of();
        }
        View v = view(principal);
        Map<String, Visible> seen = new LinkedHashMap<>();
        List<SkillIndex.Match> matches = index.rank(message, vector, s -> {
            Optional<Visible> vis = v.visible(s);
            vis.ifPresent(x -> seen.put(x.name(), x));
            return vis.isPresent();
        });
        return matches.stream()
                .map(m -> new Ranked(seen.get(m.skill().name()), m))
                .toList();
    }

    /** A visible skill and how it matched a message. */
    public record Ranked(Visible skill, SkillIndex.Match match) {}

    /**
     * The tools the conversation's active skills bring that {@code principal} may see, in activation order, each
     * once (the skill that brought it first), for the selector to pin. A skill removed or no longer visible brings
     * nothing.
     */
    public Map<String, String> activeTools(Principal principal, Conversation conversation) {
        Map<String, String> out = new LinkedHashMap<>();
        if (conversation == null || !mayActivate(principal)) {
            return out;
        }
        View v = view(principal);
        for (String name : conversation.activeSkills()) {
            skills.get(name)
                    .flatMap(v::visible)
                    .ifPresent(vis -> vis.tools().forEach(t -> out.putIfAbsent(t.fullName(), name)));
        }
        return out;
    }

    /** One skill's entry in a find or list_all answer. */
    public ObjectNode summary(Principal principal, Visible v) {
        View view = view(principal);
        ObjectNode n = F.objectNode();
        n.put("name", v.name());
        n.put("kind", "skill");
        n.put("description", view.redact(v.skill().description()));
        ArrayNode tools = n.putArray("tools");
        v.tools().forEach(t -> tools.add(t.fullName()));
        return n;
    }

    /** What {@code skills__activate} returns: a JSON output, or an error the model can act on. */
    public sealed interface Result {
        record Ok(JsonNode output, boolean added) implements Result {}

        record Error(String message) implements Result {}
    }

    /**
     * Runs {@code skills__activate} with the model's arguments: records the activation in the conversation and
     * returns the skill's documentation and its tools.
     *
     * @param conversationId the conversation to activate it in; without one nothing can be remembered
     */
    public Result activate(Principal principal, String conversationId, JsonNode args) {
        JsonNode n = args == null ? null : args.get("skill_name");
        if (n == null || !n.isTextual() || n.asText().isBlank()) {
            return new Result.Error("skill_name is required: the name of a skill, e.g. \"database\"");
        }
        String name = n.asText().strip();
        String tooLong = InputLimits.nameTooLong("skill_name", name);
        if (tooLong != null) {
            return new Result.Error(tooLong);
        }
        Optional<Visible> v = visible(principal, name);
        if (v.isEmpty()) {
            return new Result.Error(notFound(name));
        }
        if (conversationId == null) {
            return new Result.Error(ACTIVATE + " needs a conversation to remember the skill in: send the conversation "
                    + "id with the request");
        }
        Conversations.Activation a;
        try {
            a = conversations.activate(principal, conversationId, name);
        } catch (IllegalArgumentException e) {
            return new Result.Error(e.getMessage());
        }
        Visible skill = v.get();
        View view = view(principal);
        ObjectNode out = F.objectNode();
        out.put("skill", skill.name());
        out.put("activated", a.added());
        out.put(
                "message",
                (a.added() ? "Activated skill '" : "Skill '") + skill.name() + "'"
                        + (a.added() ? "" : " was already active")
                        + ": its tools stay available for the rest of this conversation"
                        + (skill.tools().isEmpty() ? " (it brings no tools; follow its instructions)." : "."));
        out.put("description", view.redact(skill.skill().description()));
        out.put("documentation", view.redact(skill.skill().documentation()));
        ArrayNode tools = out.putArray("tools");
        for (ToolSpec t : skill.tools()) {
            ObjectNode tn = tools.addObject();
            tn.put("name", t.fullName());
            tn.put("description", view.redact(t.description()));
        }
        ArrayNode resources = out.putArray("resources");
        skill.skill().resources().forEach(resources::add);
        return new Result.Ok(out, a.added());
    }

    private static String notFound(String name) {
        String n = name.length() > MAX_ECHO ? name.substring(0, MAX_ECHO) + "..." : name;
        return "Skill not found: " + n;
    }

    private View view(Principal principal) {
        Catalog.Snapshot snap = catalog.snapshot();
        return new View(snap, access.allowed(snap, principal), principal);
    }

    /** One principal's view of the catalog at one version. */
    private final class View {
        private final Catalog.Snapshot snap;
        private final AllowedSet allowed;
        private final Principal principal;

        View(Catalog.Snapshot snap, AllowedSet allowed, Principal principal) {
            this.snap = snap;
            this.allowed = allowed;
            this.principal = principal;
        }

        ToolSpec tool(String name) {
            CatalogEntry e = snap.get(name);
            return e != null && allowed.contains(e.ord()) && scope.test(e.spec()) ? e.spec() : null;
        }

        Optional<Visible> visible(Skill s) {
            List<ToolSpec> tools = new ArrayList<>(s.tools().size());
            for (String t : s.tools()) {
                ToolSpec spec = tool(t);
                if (spec != null) {
                    tools.add(spec);
                }
            }
            if (!s.tools().isEmpty() && tools.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new Visible(s, tools));
        }

        /**
         * {@code text} with every tool name blanked out but those of the skill's visible tools, of other catalog
         * tools the principal may see and of engine tools it may use: a denied name and a missing one read alike.
         */
        String redact(String text) {
            Matcher m = TOOL_NAME.matcher(text);
            StringBuilder out = new StringBuilder(text.length());
            while (m.find()) {
                String name = m.group();
                ToolSpec own = snap.get(name) == null ? engineTools.get(name) : null;
                boolean shown = tool(name) != null || own != null && access.allows(principal, own);
                m.appendReplacement(out, Matcher.quoteReplacement(shown ? name : HIDDEN));
            }
            m.appendTail(out);
            return out.toString();
        }
    }
}
