package dev.toolscout.selection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.Fixture;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.model.Principal;
import dev.toolscout.selection.Selection.SelectedTool;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SelectorTest {
    private static Selection select(Fixture f, String message, Integer k) {
        return f.selector.select(new Selector.Request(message, Principal.ANONYMOUS, k, null));
    }

    @Test
    void k_outside_1_to_50_is_a_clear_error() {
        assertThatThrownBy(() -> new Selector.Request("hi", Principal.ANONYMOUS, 0, null))
                .hasMessage("k must be between 1 and 50, got: 0");
        assertThatThrownBy(() -> new Selector.Request("hi", Principal.ANONYMOUS, 51, null))
                .hasMessage("k must be between 1 and 50, got: 51");
    }

    @Test
    void a_message_over_the_size_limit_is_refused_naming_the_limit_and_its_size() {
        assertThatThrownBy(() -> Selector.Request.of(
                        "a".repeat(dev.toolscout.model.InputLimits.MAX_REQUEST_MESSAGE_CHARS + 1), Principal.ANONYMOUS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("message must be at most 1,048,576 characters, got: 1,048,577 characters");
        // longer than the ranking reads is no error: it is ranked on its first part
        assertThat(Selector.Request.of("a".repeat(64 * 1024), Principal.ANONYMOUS)
                        .message())
                .hasSize(64 * 1024);
    }

    @Test
    void blank_message_is_a_clear_error() {
        assertThatThrownBy(() -> Selector.Request.of("  ", Principal.ANONYMOUS)).hasMessageContaining("message");
    }

    @Test
    void relevant_tools_rank_first_and_core_tools_take_about_30_percent() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        Selection s = select(f, "create a calendar event for the meeting", 10);
        assertThat(s.selected()).hasSize(10);
        assertThat(s.selected().get(0).name()).isEqualTo("calendar__create_event");
        // 3 reserved core slots, the discovery tool first since tools are left out
        assertThat(s.coreIncluded()).contains("tool_discovery__find");
        assertThat(s.selected().stream().filter(SelectedTool::core).count()).isGreaterThanOrEqualTo(3);
        assertThat(s.excludedCount()).isEqualTo(Fixture.assistantCatalog().size() - 10);
        assertThat(s.discoverySuggested()).isTrue();
        assertThat(s.reason()).contains("Selected 10 of 34");
    }

    @Test
    void core_slots_the_principal_cannot_use_go_to_ranked_tools() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        f.access.setPolicy(new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(
                        new AccessRule(
                                AccessRule.Effect.DENY,
                                AccessRule.Target.SOURCE,
                                "memory",
                                AccessRule.Subject.EVERYONE,
                                null),
                        new AccessRule(
                                AccessRule.Effect.DENY,
                                AccessRule.Target.SOURCE,
                                "tasks",
                                AccessRule.Subject.EVERYONE,
                                null),
                        new AccessRule(
                                AccessRule.Effect.DENY,
                                AccessRule.Target.SOURCE,
                                "notifications",
                                AccessRule.Subject.EVERYONE,
                                null),
                        new AccessRule(
                                AccessRule.Effect.DENY,
                                AccessRule.Target.SOURCE,
                                "frontend",
                                AccessRule.Subject.EVERYONE,
                                null))));
        Selection s = select(f, "send an email", 10);
        assertThat(s.selected()).hasSize(10);
        assertThat(s.coreIncluded()).containsExactly("tool_discovery__find");
        assertThat(s.selected()).extracting(SelectedTool::name).contains("gmail__send_email");
    }

    @Test
    void everything_fits_so_discovery_is_not_suggested() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog().subList(0, 8));
        Selection s = select(f, "anything", 10);
        assertThat(s.selected()).hasSize(8);
        assertThat(s.excludedCount()).isZero();
        assertThat(s.discoverySuggested()).isFalse();
    }

    @Test
    void same_catalog_and_request_give_the_same_selection_in_the_same_order() {
        Fixture a = new Fixture();
        a.catalog.sync(Fixture.assistantCatalog());
        Fixture b = new Fixture();
        // the other order of registration must not matter
        b.catalog.sync(Fixture.assistantCatalog().reversed());
        for (String m : List.of("widgets", "send email to bob", "unrelated thing", "list")) {
            assertThat(select(a, m, 7).selected())
                    .extracting(SelectedTool::name, SelectedTool::score)
                    .isEqualTo(select(b, m, 7).selected().stream()
                            .map(t -> org.assertj.core.groups.Tuple.tuple(t.name(), t.score()))
                            .toList());
        }
    }

    @Test
    void the_token_budget_is_respected() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        Selection s = f.selector.select(new Selector.Request("send an email", Principal.ANONYMOUS, 10, 150));
        assertThat(f.tokens.definitionTokens(s.specs())).isLessThanOrEqualTo(150);
        assertThat(s.selected()).isNotEmpty().hasSizeLessThan(10);
        assertThat(s.selected()).extracting(SelectedTool::name).contains("tool_discovery__find");
    }

    @Test
    void each_selected_tool_says_why() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        Selection s = select(f, "send an email", 10);
        SelectedTool email = s.selected().stream()
                .filter(t -> t.name().equals("gmail__send_email"))
                .findFirst()
                .orElseThrow();
        assertThat(email.reason()).contains("'send'", "'email'").contains("keyword rank");
        assertThat(s.selected()).allSatisfy(t -> assertThat(t.reason()).isNotBlank());
    }

    private static List<dev.toolscout.model.ToolSpec> calendarHeavyCatalog() {
        List<dev.toolscout.model.ToolSpec> tools = new java.util.ArrayList<>();
        for (String action : List.of(
                "create_event",
                "update_event",
                "move_event",
                "copy_event",
                "invite_guests",
                "book_room",
                "list_events",
                "cancel_event")) {
            tools.add(Fixture.tool(
                    "calendar__" + action,
                    "Calendar: " + action.replace('_', ' ') + " for a team meeting event, with room and invitees."));
        }
        tools.add(Fixture.tool("weather__forecast", "Weather forecast for a city."));
        return tools;
    }

    @Test
    void each_clause_of_a_multi_step_request_can_bring_its_own_tool() {
        SelectorConfig noCore = SelectorConfig.DEFAULT.withCoreTools(List.of());
        String message = "Create a calendar event for the team meeting on Friday, book the meeting room and invite"
                + " the team to the meeting event. Then check the forecast.";
        Fixture whole = new Fixture(noCore.withFusion(noCore.fusion().withClausePenalty(Double.POSITIVE_INFINITY)));
        whole.catalog.sync(calendarHeavyCatalog());
        Fixture split = new Fixture(noCore);
        split.catalog.sync(calendarHeavyCatalog());

        Selection w = select(whole, message, 3);
        Selection s = select(split, message, 3);

        assertThat(w.selected()).extracting(SelectedTool::name).doesNotContain("weather__forecast");
        SelectedTool forecast = s.selected().stream()
                .filter(t -> t.name().equals("weather__forecast"))
                .findFirst()
                .orElseThrow();
        assertThat(forecast.reason())
                .startsWith("for the part 'check the forecast'")
                .contains("'forecast'");
        // the message's best tool keeps a place; the step's own best tool may rank before it (its step's score)
        assertThat(s.selected())
                .extracting(SelectedTool::name)
                .contains(w.selected().get(0).name());
    }

    private static List<dev.toolscout.model.ToolSpec> filesCatalog() {
        return List.of(
                dev.toolscout.model.ToolSpec.builder("files__upload", "Upload a file to the shared drive.")
                        .dependsOn(List.of("auth__login", "auth__missing", "admin__audit"))
                        .build(),
                Fixture.tool("auth__login", "Log in and get a session token."),
                Fixture.tool("admin__audit", "Write an entry to the audit log."),
                Fixture.tool("weather__forecast", "Weather forecast for a city."),
                Fixture.tool("files__download", "Download a file from the shared drive."));
    }

    @Test
    void a_selected_tool_brings_its_allowed_dependencies_after_the_close_runner_up() {
        Fixture f = new Fixture(SelectorConfig.DEFAULT.withCoreTools(List.of()));
        f.catalog.sync(filesCatalog());
        f.access.setPolicy(new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(new AccessRule(
                        AccessRule.Effect.DENY,
                        AccessRule.Target.SOURCE,
                        "admin",
                        AccessRule.Subject.EVERYONE,
                        null))));
        Selection s = select(f, "upload a file to the drive", 3);
        // files__download ranks close to files__upload: the dependency does not push it down
        assertThat(s.selected())
                .extracting(SelectedTool::name)
                .containsExactly("files__upload", "files__download", "auth__login");
        assertThat(s.selected().get(2).reason()).isEqualTo("needed by files__upload");
        assertThat(s.selected().get(2).score()).isLessThan(s.selected().get(0).score());
        // the denied dependency never appears, whatever K
        assertThat(select(f, "upload a file to the drive", 5).selected())
                .extracting(SelectedTool::name)
                .doesNotContain("admin__audit");
    }

    @Test
    void dependencies_are_brought_transitively_and_a_cycle_ends_at_a_chosen_tool() {
        // BM25 alone ranks only the tools sharing a word with the message: the others come only as dependencies
        Fixture f = new Fixture(SelectorConfig.DEFAULT
                .withCoreTools(List.of())
                .withFusion(Fusion.DEFAULT.withMethod(Fusion.Method.LEXICAL)));
        f.catalog.sync(List.of(
                dev.toolscout.model.ToolSpec.builder("files__upload", "Upload a file to the shared drive.")
                        .dependsOn(List.of("auth__login"))
                        .build(),
                dev.toolscout.model.ToolSpec.builder("auth__login", "Log in and get a session token.")
                        .dependsOn(List.of("auth__token"))
                        .build(),
                dev.toolscout.model.ToolSpec.builder("auth__token", "Issues signed credentials.")
                        .dependsOn(List.of("files__upload"))
                        .build(),
                Fixture.tool("weather__forecast", "Weather forecast for a city."),
                Fixture.tool("mail__send", "Send an email.")));
        Selection s = select(f, "upload a file to the drive", 4);
        // the chain follows files__upload in order, once each; the cycle back to files__upload ends there
        assertThat(s.selected())
                .extracting(SelectedTool::name)
                .startsWith("files__upload", "auth__login", "auth__token")
                .doesNotHaveDuplicates();
        assertThat(s.selected().subList(1, 3))
                .extracting(SelectedTool::reason)
                .containsExactly("needed by files__upload", "needed by auth__login");
    }

    @Test
    void a_utility_many_tools_need_is_brought_once() {
        Fixture f = new Fixture(SelectorConfig.DEFAULT.withCoreTools(List.of()));
        f.catalog.sync(List.of(
                dev.toolscout.model.ToolSpec.builder("files__upload", "Upload a file to the shared drive.")
                        .dependsOn(List.of("time__now"))
                        .build(),
                dev.toolscout.model.ToolSpec.builder("files__share", "Share a file on the shared drive.")
                        .dependsOn(List.of("time__now"))
                        .build(),
                Fixture.tool("time__now", "The current date and time."),
                Fixture.tool("weather__forecast", "Weather forecast for a city.")));
        Selection s = select(f, "upload and share a file on the shared drive", 4);
        assertThat(s.selected())
                .extracting(SelectedTool::name)
                .containsOnlyOnce("time__now")
                .contains("files__upload", "files__share");
    }

    @Test
    void a_dependency_never_displaces_a_ranked_tool_whose_score_is_close() {
        Fixture f = new Fixture(SelectorConfig.DEFAULT.withCoreTools(List.of()));
        f.catalog.sync(List.of(
                dev.toolscout.model.ToolSpec.builder("files__upload", "Upload a file to the shared drive.")
                        .dependsOn(List.of("auth__login"))
                        .build(),
                Fixture.tool("files__put", "Upload a file to the shared drive."),
                Fixture.tool("auth__login", "Log in and get a session token."),
                Fixture.tool("weather__forecast", "Weather forecast for a city.")));
        Selection s = select(f, "upload a file to the shared drive", 3);
        // the near-duplicate keeps its place; the dependency comes after both
        assertThat(s.selected())
                .extracting(SelectedTool::name)
                .containsExactlyInAnyOrder("files__upload", "files__put", "auth__login");
        assertThat(s.selected().get(2).name()).isEqualTo("auth__login");
    }

    @Test
    void dependencies_only_fill_slots_that_remain() {
        Fixture f = new Fixture(SelectorConfig.DEFAULT.withCoreTools(List.of()));
        f.catalog.sync(filesCatalog());
        Selection s = select(f, "upload a file to the drive", 1);
        assertThat(s.selected()).extracting(SelectedTool::name).containsExactly("files__upload");
    }

    /** A catalog of the user's own: no discovery tools of its own, more tools than K. */
    private static List<dev.toolscout.model.ToolSpec> ownCatalog(int n) {
        List<dev.toolscout.model.ToolSpec> out = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(Fixture.tool("crm__action_" + i, "Update customer record number " + i + "."));
        }
        return out;
    }

    @Test
    void the_engine_offers_the_discovery_tool_when_a_catalog_without_one_leaves_tools_out() {
        Fixture f = new Fixture();
        f.catalog.sync(ownCatalog(15));

        Selection s = select(f, "update a customer record", 5);

        assertThat(f.catalog.get(SelectorConfig.DISCOVERY_FIND)).isEmpty();
        assertThat(s.selected()).extracting(SelectedTool::name).contains(SelectorConfig.DISCOVERY_FIND);
        SelectedTool find = s.selected().stream()
                .filter(t -> t.name().equals(SelectorConfig.DISCOVERY_FIND))
                .findFirst()
                .orElseThrow();
        assertThat(find.spec()).isEqualTo(dev.toolscout.discovery.DiscoveryTools.SPECS.get(0));
        assertThat(find.core()).isTrue();
        // 15 catalog tools and the offered find: 4 of the catalog's are given, 11 left out
        assertThat(s.visibleCount()).isEqualTo(16);
        assertThat(s.excludedCount()).isEqualTo(11);
        assertThat(s.reason()).endsWith("11 more are available through tool_discovery__find.");
    }

    @Test
    void the_engine_discovery_tool_is_not_offered_when_nothing_is_left_out() {
        Fixture f = new Fixture();
        f.catalog.sync(ownCatalog(4));

        Selection s = select(f, "update a customer record", 5);

        assertThat(s.selected())
                .extracting(SelectedTool::name)
                .doesNotContain(SelectorConfig.DISCOVERY_FIND)
                .hasSize(4);
        assertThat(s.excludedCount()).isZero();
        assertThat(s.discoverySuggested()).isFalse();
    }

    @Test
    void a_policy_that_denies_discovery_removes_the_engine_tool_and_its_mention() {
        Fixture f = new Fixture();
        f.catalog.sync(ownCatalog(15));
        f.access.setPolicy(new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(new AccessRule(
                        AccessRule.Effect.DENY,
                        AccessRule.Target.SOURCE,
                        "tool_discovery",
                        AccessRule.Subject.EVERYONE,
                        null))));

        Selection s = select(f, "update a customer record", 5);

        assertThat(s.selected())
                .extracting(SelectedTool::name)
                .doesNotContain(SelectorConfig.DISCOVERY_FIND)
                .hasSize(5);
        assertThat(s.excludedCount()).isEqualTo(10);
        assertThat(s.reason()).endsWith("10 more are left out.").doesNotContain("tool_discovery");
    }

    private static Selector.Request withSkills(String message, Integer k, Integer budget, Map<String, String> tools) {
        return new Selector.Request(message, Principal.ANONYMOUS, k, budget, tools, List.of());
    }

    @Test
    void the_active_skills_tools_are_pinned_whatever_the_message_and_their_reason_names_the_skill() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());

        Selection s = f.selector.select(
                withSkills("create a calendar event for the meeting", 10, null, Map.of("misc__tool_7", "widgets")));

        SelectedTool pinned = s.selected().stream()
                .filter(t -> t.name().equals("misc__tool_7"))
                .findFirst()
                .orElseThrow();
        assertThat(pinned.reason()).startsWith("tool of active skill 'widgets'");
        assertThat(s.selected()).hasSize(10);
        assertThat(s.selected().get(0).name()).isEqualTo("calendar__create_event");
        assertThat(s.reason()).contains("1 for this conversation").contains("The active skills' tool is pinned.");
        // without the skill the tool is not chosen for this message
        assertThat(select(f, "create a calendar event for the meeting", 10).selected())
                .extracting(SelectedTool::name)
                .doesNotContain("misc__tool_7");
    }

    @Test
    void when_the_skills_tools_do_not_fit_k_the_message_ranks_them_and_the_reason_says_so() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        Map<String, String> many = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 8; i++) {
            many.put("misc__tool_" + i, "misc");
        }
        many.put("gmail__send_email", "mail");
        many.put("gmail__list_emails", "mail");

        Selection s = f.selector.select(withSkills("send an email to the team", 5, null, many));

        assertThat(s.selected()).hasSize(5);
        List<String> names = s.selected().stream().map(SelectedTool::name).toList();
        // the discovery tool keeps its place; the two email tools win the remaining slots over the unrelated ones
        assertThat(names).contains("tool_discovery__find", "gmail__send_email", "gmail__list_emails");
        assertThat(s.selected().stream()
                        .filter(t -> t.reason().startsWith("tool of active skill"))
                        .count())
                .isEqualTo(4);
        assertThat(s.reason()).contains("4 of the active skills' 10 tools fit K, chosen by relevance to the message.");
        assertThat(s.selected().stream()
                        .filter(t -> t.name().equals("gmail__send_email"))
                        .findFirst()
                        .orElseThrow()
                        .reason())
                .contains("ranked by the message: 4 of the skills' 10 tools fit");
    }

    @Test
    void within_a_token_budget_the_skills_tools_are_kept_before_ranked_and_core_tools() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        int findCost = f.tokens.definitionTokens(
                f.catalog.get("tool_discovery__find").orElseThrow().spec());
        int fileCost = f.tokens.definitionTokens(
                f.catalog.get("filesystem__write_file").orElseThrow().spec());

        Selection s = f.selector.select(withSkills(
                "create a calendar event for the meeting",
                10,
                findCost + fileCost,
                Map.of("filesystem__write_file", "files")));

        assertThat(s.selected())
                .extracting(SelectedTool::name)
                .containsExactlyInAnyOrder("tool_discovery__find", "filesystem__write_file");
    }

    @Test
    void a_skill_tool_the_principal_may_not_see_or_the_catalog_lacks_is_never_pinned() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        f.access.setPolicy(new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(new AccessRule(
                        AccessRule.Effect.DENY,
                        AccessRule.Target.TOOL,
                        "filesystem__write_file",
                        AccessRule.Subject.EVERYONE,
                        null))));

        Selection s = f.selector.select(withSkills(
                "create a calendar event", 10, null, Map.of("filesystem__write_file", "files", "ghost__boo", "files")));

        assertThat(s.selected()).extracting(SelectedTool::name).doesNotContain("filesystem__write_file", "ghost__boo");
        assertThat(s.reason()).doesNotContain("skill");
    }

    @Test
    void an_offered_engine_tool_comes_right_after_the_discovery_tool_and_counts_as_visible() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        dev.toolscout.model.ToolSpec activate = dev.toolscout.model.ToolSpec.builder(
                        "skills__activate", "Activate a skill.")
                .build();

        Selection s = f.selector.select(new Selector.Request(
                "create a calendar event", Principal.ANONYMOUS, 2, null, Map.of(), List.of(activate)));

        assertThat(s.selected())
                .extracting(SelectedTool::name)
                .containsExactlyInAnyOrder("tool_discovery__find", "skills__activate");
        assertThat(s.visibleCount()).isEqualTo(Fixture.assistantCatalog().size() + 1);
        assertThat(s.excludedCount()).isEqualTo(Fixture.assistantCatalog().size() - 1);
    }

    @Test
    void each_selected_tool_carries_how_it_came_in_as_a_value_beside_its_reason() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        dev.toolscout.model.ToolSpec activate = dev.toolscout.model.ToolSpec.builder(
                        "skills__activate", "Activate a skill.")
                .build();

        Selection s = f.selector.select(new Selector.Request(
                "create a calendar event for the meeting",
                Principal.ANONYMOUS,
                10,
                null,
                Map.of("misc__tool_7", "widgets"),
                List.of(activate)));

        Map<String, SelectedTool> byName = new java.util.HashMap<>();
        s.selected().forEach(t -> byName.put(t.name(), t));
        assertThat(byName.get("tool_discovery__find").origin()).isEqualTo(Origin.CORE);
        assertThat(byName.get("skills__activate").origin()).isEqualTo(Origin.OFFERED);
        assertThat(byName.get("skills__activate").reason()).isEqualTo("offered for this conversation");
        assertThat(byName.get("misc__tool_7").origin()).isEqualTo(Origin.SKILL);
        assertThat(byName.get("misc__tool_7").reason()).startsWith("tool of active skill 'widgets'");
        assertThat(byName.get("calendar__create_event").origin()).isEqualTo(Origin.RANKED);
        // a pinned core tool is CORE; a core tool the message ranked is RANKED and still core
        assertThat(s.selected())
                .filteredOn(SelectedTool::core)
                .allSatisfy(t -> assertThat(t.origin()).isIn(Origin.CORE, Origin.RANKED));
        assertThat(s.selected())
                .filteredOn(t -> t.origin().forConversation())
                .extracting(SelectedTool::name)
                .containsExactlyInAnyOrder("skills__activate", "misc__tool_7");
    }

    @Test
    void a_dependency_is_of_origin_dependency_and_keeps_it_when_the_budget_drops_the_tool_that_needed_it() {
        // BM25 alone: auth__login shares no word with the message, so it comes in only as a dependency
        Fixture f = new Fixture(SelectorConfig.DEFAULT
                .withCoreTools(List.of())
                .withFusion(Fusion.DEFAULT.withMethod(Fusion.Method.LEXICAL)));
        String longer = " It takes the file's name, its folder, its sharing settings and a note for the people it is "
                + "shared with, and answers with the file's link and its size.";
        f.catalog.sync(List.of(
                dev.toolscout.model.ToolSpec.builder("files__upload", "Upload a file to the shared drive." + longer)
                        .dependsOn(List.of("auth__login"))
                        .build(),
                Fixture.tool("files__download", "Download a file from the shared drive." + longer),
                Fixture.tool("auth__login", "Log in."),
                Fixture.tool("weather__forecast", "Weather forecast for a city.")));
        Selection s = select(f, "upload a file to the drive", 3);
        SelectedTool login = s.selected().stream()
                .filter(t -> t.name().equals("auth__login"))
                .findFirst()
                .orElseThrow();
        assertThat(login.reason()).isEqualTo("needed by files__upload");
        assertThat(login.origin()).isEqualTo(Origin.DEPENDENCY);
        assertThat(login.origin().neededByAnother()).isTrue();

        // a budget that fits the dependency but not the tool that needs it: the reason no longer names that tool
        int loginCost = f.tokens.definitionTokens(
                f.catalog.get("auth__login").orElseThrow().spec());
        Selection tight = f.selector.select(
                new Selector.Request("upload a file to the drive", Principal.ANONYMOUS, 3, loginCost));
        assertThat(tight.selected()).extracting(SelectedTool::name).containsExactly("auth__login");
        assertThat(tight.selected().get(0).origin()).isEqualTo(Origin.DEPENDENCY);
        assertThat(tight.selected().get(0).reason()).isEqualTo("needed by a tool the token budget left out");
    }

    @Test
    void a_selection_request_of_another_principal_or_message_than_its_context_is_refused() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        RequestContext ctx = f.selector.context("send an email", Principal.ANONYMOUS, null, false);
        Principal ann = new Principal("ann", null, null);
        assertThatThrownBy(() -> f.selector.select(new Selector.Request("send an email", ann, null, null), ctx))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("context's principal");
        assertThatThrownBy(() -> f.selector.select(Selector.Request.of("send a letter", Principal.ANONYMOUS), ctx))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a selection request must be of its context's message, got another one (13 characters, the "
                        + "context's 13)");
    }
}
