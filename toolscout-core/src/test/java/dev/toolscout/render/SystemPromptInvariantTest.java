package dev.toolscout.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.toolscout.Fixture;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.access.AccessRule.Effect;
import dev.toolscout.access.AccessRule.Subject;
import dev.toolscout.access.AccessRule.Target;
import dev.toolscout.discovery.DiscoveryTools;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.Selection;
import dev.toolscout.selection.Selector;
import dev.toolscout.selection.SelectorConfig;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * For random catalogs (with and without the discovery tools of their own), core-tool settings, K, token budgets
 * and policies: the system prompt never names a tool that the rendered tool list lacks, in any render format.
 * The seed is printed so a failure can be replayed.
 */
class SystemPromptInvariantTest {
    private static final int CASES = 300;
    /** A wire tool name as the prompt could carry it: anything with the {@code __} separator. */
    private static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*__[A-Za-z0-9_-]+");

    private static final List<String> WORDS = List.of(
            "send",
            "email",
            "calendar",
            "event",
            "file",
            "read",
            "write",
            "search",
            "note",
            "task",
            "weather",
            "invoice",
            "contact",
            "meeting",
            "report",
            "photo",
            "music",
            "order");
    private static final List<String> SOURCES = List.of("gmail", "calendar", "files", "crm", "notes", "billing");

    enum Format {
        ANTHROPIC,
        OPENAI,
        MCP
    }

    @Test
    void system_prompt_never_names_a_tool_the_model_was_not_given_in_any_format() {
        long seed = new Random().nextLong();
        System.out.println("SystemPromptInvariantTest seed: " + seed);
        Random r = new Random(seed);
        int withFind = 0;
        int withoutFind = 0;
        for (int c = 0; c < CASES; c++) {
            List<String> core = new ArrayList<>();
            core.add(SelectorConfig.DISCOVERY_FIND);
            if (r.nextBoolean()) {
                core.add(DiscoveryTools.LIST_ALL);
            }
            if (r.nextBoolean()) {
                core.add(DiscoveryTools.DESCRIBE);
            }
            core.add("notes__action_0");
            Fixture f = new Fixture(SelectorConfig.DEFAULT.withCoreTools(r.nextInt(5) == 0 ? List.of() : core));
            List<ToolSpec> tools = randomCatalog(r);
            f.catalog.sync(tools);
            if (r.nextInt(4) == 0) {
                // sometimes the policy takes the discovery tools away (by source) or the tool a dependency needs
                String target = r.nextBoolean() ? "tool_discovery" : SOURCES.get(r.nextInt(SOURCES.size()));
                f.access.setPolicy(new AccessPolicy(
                        Effect.ALLOW,
                        Map.of(),
                        List.of(new AccessRule(Effect.DENY, Target.SOURCE, target, Subject.EVERYONE, null))));
            }
            Integer k = 1 + r.nextInt(12);
            Integer budget = r.nextInt(3) == 0 ? 40 + r.nextInt(600) : null;
            String message = WORDS.get(r.nextInt(WORDS.size())) + " " + WORDS.get(r.nextInt(WORDS.size()));
            Selection s = f.selector.select(new Selector.Request(message, Principal.ANONYMOUS, k, budget));
            String prompt = SystemPrompt.section(s);
            Set<String> named = namedTools(prompt);
            if (named.contains(SelectorConfig.DISCOVERY_FIND)) {
                withFind++;
            } else {
                withoutFind++;
            }
            for (Format format : Format.values()) {
                Set<String> given = renderedNames(format, s.specs());
                assertThat(given)
                        .as("seed %d case %d %s: rendered tools", seed, c, format)
                        .containsExactlyInAnyOrderElementsOf(s.selected().stream()
                                .map(Selection.SelectedTool::name)
                                .toList());
                assertThat(given)
                        .as(
                                "seed %d case %d %s: every tool the prompt names is given; prompt:%n%s",
                                seed, c, format, prompt)
                        .containsAll(named);
            }
        }
        // both sides of the rule were exercised: prompts that offer discovery and prompts that cannot
        assertThat(withFind).isPositive();
        assertThat(withoutFind).isPositive();
    }

    private static Set<String> namedTools(String prompt) {
        Set<String> out = new TreeSet<>();
        Matcher m = TOOL_NAME.matcher(prompt);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    private static Set<String> renderedNames(Format format, List<ToolSpec> specs) {
        ArrayNode a = switch (format) {
            case ANTHROPIC -> ToolRenderer.anthropic(specs);
            case OPENAI -> ToolRenderer.openai(specs);
            case MCP -> ToolRenderer.mcp(specs);
        };
        Set<String> out = new LinkedHashSet<>();
        for (JsonNode n : a) {
            out.add(
                    format == Format.OPENAI
                            ? n.path("function").path("name").asText()
                            : n.path("name").asText());
        }
        return out;
    }

    /** 3-40 tools over a few sources, some declaring dependencies; sometimes the catalog has its own find. */
    private static List<ToolSpec> randomCatalog(Random r) {
        List<ToolSpec> out = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        int n = 3 + r.nextInt(38);
        for (int i = 0; i < n; i++) {
            names.add(SOURCES.get(r.nextInt(SOURCES.size())) + "__action_" + i);
        }
        List<String> all = List.copyOf(names);
        for (String name : all) {
            List<String> deps = r.nextInt(4) == 0 ? List.of(all.get(r.nextInt(all.size()))) : List.of();
            String desc = WORDS.get(r.nextInt(WORDS.size())) + " the " + WORDS.get(r.nextInt(WORDS.size())) + ". More "
                    + WORDS.get(r.nextInt(WORDS.size())) + ".";
            out.add(ToolSpec.builder(name, desc)
                    .dependsOn(deps.contains(name) ? List.of() : deps)
                    .build());
        }
        if (r.nextInt(3) == 0) {
            out.add(ToolSpec.builder(SelectorConfig.DISCOVERY_FIND, "Search for tools by query.")
                    .build());
        }
        return out;
    }
}
