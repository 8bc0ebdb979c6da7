package dev.toolscout.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.access.AccessControl;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.access.AccessRule.Effect;
import dev.toolscout.access.AccessRule.Subject;
import dev.toolscout.access.AccessRule.Target;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.conversation.Conversation;
import dev.toolscout.conversation.Conversations;
import dev.toolscout.discovery.DiscoveryResult;
import dev.toolscout.discovery.DiscoveryTools;
import dev.toolscout.events.EventBus;
import dev.toolscout.indexing.HashingEmbeddingModel;
import dev.toolscout.indexing.ToolIndexer;
import dev.toolscout.lucene.LuceneToolIndex;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.render.SystemPrompt;
import dev.toolscout.render.TokenCounter;
import dev.toolscout.selection.HybridRanker;
import dev.toolscout.selection.Selection;
import dev.toolscout.selection.Selector;
import dev.toolscout.selection.SelectorConfig;
import dev.toolscout.skills.Skill;
import dev.toolscout.skills.SkillIndex;
import dev.toolscout.skills.SkillTools;
import dev.toolscout.skills.Skills;
import dev.toolscout.state.InMemoryStateStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Invariant 1 of the architecture, randomized: for random catalogs, policies, principals and queries, no
 * denied or BLOCKED tool appears in any select, find, list_all or describe output, nor in any count; and with
 * random skills (bringing random tools, some missing, their documentation naming random tools) and
 * conversations, no invisible skill and no denied tool appears in skills__activate's definition or result, in a
 * selection that pins a conversation's skill tools, or in find, list_all and describe, and no principal reads
 * another's conversation. Runs the
 * real Lucene index (in memory) and the real selector; the embedding is a hashing fake so 10,000 cases stay
 * fast. The expected allowed set comes from a separate, deliberately naive reading of the policy rules.
 * Reproduce a failure with {@code -Dtests.seed=<printed seed>}.
 */
class AccessInvariantTest {
    private static final String[] SOURCES = {"gmail", "calendar", "files", "crm", "admin", "memory"};
    private static final String[] CATEGORIES = {"communication", "planning", "files", "admin"};
    private static final String[] WORDS = {
        "send",
        "email",
        "meeting",
        "schedule",
        "file",
        "delete",
        "contact",
        "invoice",
        "search",
        "list",
        "create",
        "update",
        "note",
        "remember",
        "reset",
        "password",
        "report",
        "share"
    };
    private static final String[] USERS = {"ann", "bob", "cy"};
    private static final String[] GROUPS = {"kids", "staff", "admins"};
    private static final String[] SPACES = {"root", "home", "kitchen", "office", "lab"};

    private static final int CATALOGS = 200;
    private static final int CASES_PER_CATALOG = 50;
    /** Skills and conversations are checked on every fifth case (2,000), which keeps the test's time near what it was. */
    private static final int SKILL_CASE_EVERY = 5;

    @Test
    void denied_and_blocked_tools_never_appear_in_any_output_or_count() {
        long seed = Long.getLong("tests.seed", System.nanoTime());
        System.out.println("AccessInvariantTest seed: " + seed + " (rerun with -Dtests.seed=" + seed + ")");
        Random r = new Random(seed);
        int cases = 0;
        int skillCases = 0;
        for (int c = 0; c < CATALOGS; c++) {
            List<ToolSpec> tools = randomCatalog(r);
            HashingEmbeddingModel model = new HashingEmbeddingModel(64);
            InMemoryStateStore store = new InMemoryStateStore();
            EventBus bus = new EventBus();
            try (LuceneToolIndex index = LuceneToolIndex.inMemory(64);
                    HybridRanker ranker = new HybridRanker(index)) {
                Catalog catalog = Catalog.load(store, bus, Map.of());
                new ToolIndexer(store, index, model).attach(bus::subscribe);
                catalog.sync(tools);
                AccessControl access = new AccessControl(AccessPolicy.ALLOW_ALL);
                TokenCounter tokens = new TokenCounter();
                SelectorConfig config = SelectorConfig.DEFAULT.withCoreTools(
                        List.of("memory__search", "gmail__send", "tool_discovery__find"));
                Selector selector = new Selector(catalog, ranker, model, access, tokens, config);
                SkillIndex skillIndex = new SkillIndex(store, model);
                Skills skills = Skills.load(store, bus::publishSkills);
                bus.subscribeSkills(skillIndex::onEvents);
                skills.apply(randomSkills(r, tools), List.of());
                Conversations conversations = new Conversations(store, java.time.Clock.systemUTC());
                SkillTools skillTools =
                        new SkillTools(skills, skillIndex, catalog, access, conversations, DiscoveryTools.SPECS);
                DiscoveryTools discovery =
                        new DiscoveryTools(catalog, ranker, model, access, config.fusion()).withSkills(skillTools);
                for (int i = 0; i < CASES_PER_CATALOG; i++, cases++) {
                    AccessPolicy policy = randomPolicy(r);
                    access.setPolicy(policy);
                    Principal p = new Principal(pick(r, USERS, 0.2), pick(r, GROUPS, 0.2), pick(r, SPACES, 0.2));
                    Set<String> allowed = expectedAllowed(tools, policy, p);
                    Set<String> denied = new HashSet<>();
                    tools.forEach(t -> denied.add(t.fullName()));
                    denied.removeAll(allowed);
                    String query = words(r, 1 + r.nextInt(4));
                    String ctx = "seed " + seed + ", catalog " + c + ", case " + i + ", principal " + p + ", query '"
                            + query + "', policy " + policy;
                    checkCase(
                            catalog,
                            selector,
                            discovery,
                            tokens,
                            access,
                            p,
                            query,
                            1 + r.nextInt(15),
                            allowed,
                            denied,
                            ctx,
                            r);
                    if (i % SKILL_CASE_EVERY == 0) {
                        checkSkills(
                                skills.all(),
                                skillTools,
                                selector,
                                discovery,
                                policy,
                                p,
                                query,
                                allowed,
                                denied,
                                "case-" + c + "-" + i,
                                ctx,
                                r);
                        skillCases++;
                    }
                }
            }
        }
        assertThat(cases).isGreaterThanOrEqualTo(10_000);
        assertThat(skillCases).isGreaterThanOrEqualTo(2_000);
    }

    private static void checkCase(
            Catalog catalog,
            Selector selector,
            DiscoveryTools discovery,
            TokenCounter tokens,
            AccessControl access,
            Principal p,
            String query,
            int k,
            Set<String> allowed,
            Set<String> denied,
            String ctx,
            Random r) {
        // select
        Selection s = selector.select(new Selector.Request(query, p, k, null));
        List<String> names =
                s.selected().stream().map(Selection.SelectedTool::name).toList();
        assertThat(allowed).as(ctx).containsAll(names);
        assertThat(s.visibleCount()).as(ctx).isEqualTo(allowed.size());
        assertThat(s.excludedCount()).as(ctx).isEqualTo(allowed.size() - names.size());
        assertThat(names.size()).as(ctx).isEqualTo(Math.min(k, allowed.size()));
        assertNoDenied(s.reason() + SystemPrompt.section(s) + s.coreIncluded(), denied, ctx);
        Catalog.Snapshot snap = catalog.snapshot();
        long expectedTokens = 0;
        for (String a : allowed) {
            expectedTokens += tokens.definitionTokens(snap.get(a).spec());
        }
        assertThat(tokens.allowedTokens(snap, access.allowed(snap, p))).as(ctx).isEqualTo(expectedTokens);

        // find
        JsonNode found = ok(discovery.find(p, query, 1 + r.nextInt(20)), ctx);
        for (JsonNode t : found.get("tools")) {
            assertThat(allowed).as(ctx).contains(t.get("name").asText());
        }
        assertThat(found.get("count").asInt()).as(ctx).isLessThanOrEqualTo(allowed.size());
        assertNoDenied(found.toString(), denied, ctx);

        // list_all, with and without a category
        JsonNode all = ok(discovery.listAll(p, null), ctx);
        Set<String> listed = new HashSet<>();
        all.get("tools").forEach(t -> listed.add(t.get("name").asText()));
        assertThat(listed).as(ctx).isEqualTo(allowed);
        assertThat(all.get("total").asInt()).as(ctx).isEqualTo(allowed.size());
        int categorySum = 0;
        for (JsonNode n : all.get("categories")) {
            categorySum += n.asInt();
        }
        assertThat(categorySum).as(ctx).isEqualTo(allowed.size());
        assertNoDenied(all.toString(), denied, ctx);
        String cat = CATEGORIES[r.nextInt(CATEGORIES.length)];
        JsonNode byCat = ok(discovery.listAll(p, cat), ctx);
        byCat.get("tools")
                .forEach(t -> assertThat(allowed).as(ctx).contains(t.get("name").asText()));
        assertNoDenied(byCat.toString(), denied, ctx);

        // describe: a denied tool reads exactly like a missing one
        for (String d : denied) {
            DiscoveryResult res = discovery.describe(p, d);
            assertThat(res).as(ctx).isEqualTo(new DiscoveryResult.Error("Tool not found: " + d));
        }
        for (String a : allowed) {
            JsonNode desc = ok(discovery.describe(p, a), ctx);
            assertNoDenied(desc.toString().replace(a, ""), denied, ctx);
        }
    }

    /**
     * Skills and conversations: the visible skills are exactly those whose tools the principal may see some of (or
     * that bring none) when it may use skills__activate; an invisible skill's name, and a denied tool's, appear in
     * no output; an activation is recorded for its principal only.
     */
    private static void checkSkills(
            List<Skill> all,
            SkillTools skillTools,
            Selector selector,
            DiscoveryTools discovery,
            AccessPolicy policy,
            Principal p,
            String query,
            Set<String> allowed,
            Set<String> denied,
            String conversation,
            String ctx,
            Random r) {
        boolean mayActivate =
                expectedAllowed(List.of(SkillTools.SPEC), policy, p).contains(SkillTools.ACTIVATE);
        Set<String> visible = new HashSet<>();
        for (Skill s : all) {
            if (mayActivate && (s.tools().isEmpty() || s.tools().stream().anyMatch(allowed::contains))) {
                visible.add(s.name());
            }
        }
        Set<String> invisible = new HashSet<>();
        all.forEach(s -> invisible.add(s.name()));
        invisible.removeAll(visible);
        Set<String> hidden = new HashSet<>(denied);
        hidden.addAll(invisible);

        assertThat(skillTools.visible(p))
                .as(ctx)
                .extracting(SkillTools.Visible::name)
                .containsExactlyInAnyOrderElementsOf(visible);
        for (SkillTools.Visible v : skillTools.visible(p)) {
            assertThat(allowed)
                    .as(ctx)
                    .containsAll(v.tools().stream().map(ToolSpec::fullName).toList());
        }
        Optional<ToolSpec> activate = skillTools.activateTool(p);
        assertThat(activate.isPresent()).as(ctx).isEqualTo(!visible.isEmpty());
        activate.ifPresent(t -> assertNoDenied(t.description() + t.parameters(), hidden, ctx));
        // listed as not offered: exactly the skills whose tools are all missing from the catalog (for everyone), with
        // no denied tool named in them
        Set<String> allMissing = new HashSet<>();
        for (Skill s : all) {
            if (mayActivate
                    && !s.tools().isEmpty()
                    && s.tools().stream().noneMatch(t -> allowed.contains(t) || denied.contains(t))) {
                allMissing.add(s.name());
            }
        }
        assertThat(skillTools.unoffered(p))
                .as(ctx)
                .extracting(Skill::name)
                .containsExactlyInAnyOrderElementsOf(allMissing);
        for (Skill u : skillTools.unoffered(p)) {
            assertNoDenied(u.description() + u.documentation() + u.tools(), denied, ctx);
        }

        // find, list_all and describe name only visible skills, with their visible tools
        JsonNode found = ok(discovery.find(p, query, 10), ctx);
        found.path("skills")
                .forEach(sk ->
                        assertThat(visible).as(ctx).contains(sk.get("name").asText()));
        assertNoDenied(found.toString(), hidden, ctx);
        JsonNode listed = ok(discovery.listAll(p, null), ctx);
        Set<String> listedSkills = new HashSet<>();
        listed.path("skills").forEach(sk -> listedSkills.add(sk.get("name").asText()));
        assertThat(listedSkills).as(ctx).isEqualTo(visible);
        assertNoDenied(listed.toString(), hidden, ctx);
        for (String name : invisible) {
            assertThat(discovery.describe(p, name))
                    .as(ctx)
                    .isEqualTo(new DiscoveryResult.Error("Tool not found: " + name));
            assertThat(skillTools.activate(p, conversation, args(name)))
                    .as(ctx)
                    .isEqualTo(new SkillTools.Result.Error("Skill not found: " + name));
        }
        for (String name : visible) {
            assertNoDenied(ok(discovery.describe(p, name), ctx).toString(), hidden, ctx);
        }

        // activating a visible skill: its result and the conversation's next selection show nothing hidden
        if (!visible.isEmpty()) {
            List<String> names = new ArrayList<>(visible);
            names.sort(null);
            String name = names.get(r.nextInt(names.size()));
            SkillTools.Result result = skillTools.activate(p, conversation, args(name));
            assertThat(result).as(ctx).isInstanceOf(SkillTools.Result.Ok.class);
            assertNoDenied(((SkillTools.Result.Ok) result).output().toString(), hidden, ctx);
            Conversation conv = skillTools.conversations().get(p, conversation).orElseThrow();
            assertThat(conv.activeSkills()).as(ctx).containsExactly(name);
            Map<String, String> pinned = skillTools.activeTools(p, conv);
            assertThat(allowed).as(ctx).containsAll(pinned.keySet());
            int k = 1 + r.nextInt(15);
            Selection s = selector.select(new Selector.Request(
                    query,
                    p,
                    k,
                    null,
                    pinned,
                    skillTools
                            .activateTool(p, conv.activeSkills())
                            .map(List::of)
                            .orElse(List.of())));
            for (Selection.SelectedTool t : s.selected()) {
                assertThat(allowed.contains(t.name()) || t.name().equals(SkillTools.ACTIVATE))
                        .as(ctx + ", " + t.name())
                        .isTrue();
            }
            // what reaches the model: names, reasons, the sentence and the system prompt, as checkCase checks (a spec's
            // raw depends_on is trimmed to visible names by the API, LocalToolScout)
            StringBuilder shown = new StringBuilder(s.reason());
            s.selected()
                    .forEach(t -> shown.append(' ').append(t.name()).append(' ').append(t.reason()));
            assertNoDenied(shown + SystemPrompt.section(s, conv.activeSkills(), null), hidden, ctx);
            // another principal reads nothing of it, and forgetting it there removes nothing
            Principal other = new Principal(p.user() == null ? "zed" : p.user() + "-other", p.group(), p.space());
            assertThat(skillTools.conversations().get(other, conversation))
                    .as(ctx)
                    .isEmpty();
            assertThat(skillTools.conversations().forget(other, conversation))
                    .as(ctx)
                    .isFalse();
            assertThat(skillTools.conversations().get(p, conversation)).as(ctx).isPresent();
        }
    }

    private static JsonNode args(String skill) {
        return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                .objectNode()
                .put("skill_name", skill);
    }

    /**
     * 2-5 skills, each bringing 0-3 tools of the catalog and sometimes one it lacks, their documentation naming
     * random tools of the catalog (which the principal may not see).
     */
    private static List<Skill> randomSkills(Random r, List<ToolSpec> tools) {
        List<Skill> out = new ArrayList<>();
        int n = 2 + r.nextInt(4);
        for (int i = 0; i < n; i++) {
            List<String> brings = new ArrayList<>();
            int m = r.nextInt(4);
            for (int j = 0; j < m; j++) {
                brings.add(tools.get(r.nextInt(tools.size())).fullName());
            }
            if (r.nextInt(4) == 0) {
                brings.add("ghost__missing_" + i);
            }
            String doc = "Use " + tools.get(r.nextInt(tools.size())).fullName() + " then "
                    + tools.get(r.nextInt(tools.size())).fullName() + ".";
            out.add(Skill.of(
                    "sk-" + i + "-" + WORDS[r.nextInt(WORDS.length)], words(r, 3 + r.nextInt(5)) + ".", doc, brings));
        }
        return out;
    }

    private static JsonNode ok(DiscoveryResult r, String ctx) {
        assertThat(r).as(ctx).isInstanceOf(DiscoveryResult.Ok.class);
        return ((DiscoveryResult.Ok) r).output();
    }

    /**
     * No denied name appears as a whole token. Names are made of [A-Za-z0-9_-] (checked), so a name appears as a
     * whole token exactly when it is one of the text's maximal runs of those characters: one pass over the text
     * and a set lookup per run, where a pattern per name and call (the former check) cost most of this test's time.
     */
    private static void assertNoDenied(String text, Set<String> denied, String ctx) {
        for (String d : denied) {
            if (d.isEmpty() || !d.chars().allMatch(c -> isNameChar((char) c))) {
                throw new AssertionError("not a tool or skill name (allowed: A-Z a-z 0-9 _ -): '" + d + "'");
            }
        }
        int start = -1;
        for (int i = 0; i <= text.length(); i++) {
            boolean nameChar = i < text.length() && isNameChar(text.charAt(i));
            if (nameChar && start < 0) {
                start = i;
            } else if (!nameChar && start >= 0) {
                String token = text.substring(start, i);
                assertThat(denied.contains(token))
                        .as("denied tool %s appears in output; %s", token, ctx)
                        .isFalse();
                start = -1;
            }
        }
    }

    private static boolean isNameChar(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    }

    private static List<ToolSpec> randomCatalog(Random r) {
        int n = 5 + r.nextInt(40);
        Map<String, ToolSpec> tools = new HashMap<>();
        // some fixed names so core tools exist in some catalogs
        if (r.nextBoolean()) {
            tools.put("memory__search", tool(r, "memory__search"));
        }
        if (r.nextBoolean()) {
            tools.put("gmail__send", tool(r, "gmail__send"));
        }
        while (tools.size() < n) {
            String name = SOURCES[r.nextInt(SOURCES.length)] + "__" + WORDS[r.nextInt(WORDS.length)] + "_"
                    + WORDS[r.nextInt(WORDS.length)];
            tools.putIfAbsent(name, tool(r, name));
        }
        List<String> names = new ArrayList<>(tools.keySet());
        List<ToolSpec> out = new ArrayList<>();
        for (ToolSpec t : tools.values()) {
            // dependencies may point at tools the principal cannot see
            List<String> deps = r.nextInt(4) == 0 ? List.of(names.get(r.nextInt(names.size()))) : List.of();
            out.add(
                    deps.contains(t.fullName())
                            ? t
                            : t.toBuilder().dependsOn(deps).build());
        }
        return out;
    }

    private static ToolSpec tool(Random r, String name) {
        AiAccess access =
                r.nextInt(10) == 0 ? AiAccess.BLOCKED : r.nextInt(5) == 0 ? AiAccess.PROPOSE : AiAccess.EXECUTE;
        return ToolSpec.builder(name, words(r, 4 + r.nextInt(8)) + ".")
                .category(CATEGORIES[r.nextInt(CATEGORIES.length)])
                .tags(List.of(WORDS[r.nextInt(WORDS.length)]))
                .aiAccess(access)
                .build();
    }

    private static AccessPolicy randomPolicy(Random r) {
        Map<String, String> parents = new HashMap<>();
        parents.put("home", "root");
        parents.put("kitchen", "home");
        parents.put("office", "root");
        List<AccessRule> rules = new ArrayList<>();
        int n = r.nextInt(7);
        for (int i = 0; i < n; i++) {
            Target target = Target.values()[r.nextInt(3)];
            String value = switch (target) {
                case TOOL ->
                    SOURCES[r.nextInt(SOURCES.length)] + "__" + WORDS[r.nextInt(WORDS.length)] + "_"
                            + WORDS[r.nextInt(WORDS.length)];
                case SOURCE -> SOURCES[r.nextInt(SOURCES.length)];
                case CATEGORY -> CATEGORIES[r.nextInt(CATEGORIES.length)];
            };
            Subject subject = Subject.values()[r.nextInt(4)];
            String sv = switch (subject) {
                case USER -> USERS[r.nextInt(USERS.length)];
                case GROUP -> GROUPS[r.nextInt(GROUPS.length)];
                case SPACE -> SPACES[r.nextInt(SPACES.length)];
                case EVERYONE -> null;
            };
            rules.add(new AccessRule(r.nextBoolean() ? Effect.ALLOW : Effect.DENY, target, value, subject, sv));
        }
        return new AccessPolicy(r.nextInt(4) == 0 ? Effect.DENY : Effect.ALLOW, parents, rules);
    }

    /**
     * The reference reading of the policy, written independently of AccessControl: collect every rule that
     * applies, keep the most specific ones (subject first, then target), deny if any of those denies.
     */
    static Set<String> expectedAllowed(List<ToolSpec> tools, AccessPolicy policy, Principal p) {
        List<String> chain = new ArrayList<>();
        for (String s = p.space(); s != null; s = policy.spaceParents().get(s)) {
            chain.add(s);
        }
        Set<String> out = new HashSet<>();
        for (ToolSpec t : tools) {
            if (t.aiAccess() == AiAccess.BLOCKED) {
                continue;
            }
            int bestSubject = Integer.MAX_VALUE;
            int bestTarget = Integer.MAX_VALUE;
            List<AccessRule> best = new ArrayList<>();
            for (AccessRule rule : policy.rules()) {
                int subj;
                if (rule.subject() == Subject.USER) {
                    subj = rule.subjectValue().equals(p.user()) ? 0 : -1;
                } else if (rule.subject() == Subject.GROUP) {
                    subj = rule.subjectValue().equals(p.group()) ? 1 : -1;
                } else if (rule.subject() == Subject.SPACE) {
                    subj = chain.contains(rule.subjectValue()) ? 2 + chain.indexOf(rule.subjectValue()) : -1;
                } else {
                    subj = 2 + chain.size();
                }
                boolean matches = switch (rule.target()) {
                    case TOOL -> rule.targetValue().equals(t.fullName());
                    case SOURCE -> rule.targetValue().equals(t.name().source());
                    case CATEGORY -> rule.targetValue().equals(t.category());
                };
                if (subj < 0 || !matches) {
                    continue;
                }
                int tgt = rule.target().ordinal();
                if (subj < bestSubject || (subj == bestSubject && tgt < bestTarget)) {
                    bestSubject = subj;
                    bestTarget = tgt;
                    best.clear();
                }
                if (subj == bestSubject && tgt == bestTarget) {
                    best.add(rule);
                }
            }
            boolean allow = best.isEmpty()
                    ? policy.defaultEffect() == Effect.ALLOW
                    : best.stream().noneMatch(x -> x.effect() == Effect.DENY);
            if (allow) {
                out.add(t.fullName());
            }
        }
        return out;
    }

    private static String words(Random r, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : " ").append(WORDS[r.nextInt(WORDS.length)]);
        }
        return b.toString();
    }

    private static String pick(Random r, String[] values, double nullChance) {
        return r.nextDouble() < nullChance ? null : values[r.nextInt(values.length)];
    }
}
