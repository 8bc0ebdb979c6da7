package dev.toolscout.engine.files;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.ToolName;
import dev.toolscout.model.ToolSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DemoCatalogTest {
    /** The pinned core tools the selector uses (the seed's set): the demo catalog must have them all. */
    private static final List<String> CORE_TOOLS = dev.toolscout.selection.SelectorConfig.SEED_CORE_TOOLS;

    private static final List<ToolSpec> DEMO = CatalogFiles.demo();
    private static final Map<String, ToolSpec> BY_NAME =
            DEMO.stream().collect(Collectors.toMap(ToolSpec::fullName, Function.identity()));

    @Test
    void demo_catalog_holds_at_least_sixty_tools_with_unique_names() {
        assertThat(DEMO).hasSizeGreaterThanOrEqualTo(60);
        assertThat(BY_NAME).hasSameSizeAs(DEMO);
    }

    @Test
    void demo_catalog_holds_every_core_tool() {
        assertThat(BY_NAME.keySet()).containsAll(CORE_TOOLS);
    }

    @Test
    void demo_catalog_holds_every_core_integration_of_the_design() {
        Set<String> sources = DEMO.stream().map(t -> t.name().source()).collect(Collectors.toSet());
        assertThat(sources)
                .contains(
                        "llm",
                        "memory",
                        "frontend",
                        "tasks",
                        "spaces",
                        "notifications",
                        "cron",
                        "calendar",
                        "gmail",
                        "filesystem",
                        "webhook",
                        "echo",
                        "settings",
                        "tool_discovery");
    }

    @Test
    void demo_catalog_leaves_skills_to_the_engine() {
        // skills__activate is the engine's own tool (skills.SkillTools), with the principal's skills in its enum; a
        // catalog row of that name would replace it
        assertThat(DEMO).noneMatch(t -> t.name().source().equals("skills"));
    }

    @Test
    void every_name_is_valid_on_the_wire() {
        for (ToolSpec t : DEMO) {
            assertThat(ToolName.isValid(t.fullName())).as(t.fullName()).isTrue();
            assertThat(t.fullName()).matches(ToolName.WIRE);
        }
    }

    @Test
    void every_tool_has_a_description_and_an_object_schema_with_described_properties() {
        for (ToolSpec t : DEMO) {
            assertThat(t.description()).as(t.fullName()).isNotBlank();
            assertThat(t.parameters().path("type").asText()).as(t.fullName()).isEqualTo("object");
            assertThat(t.parameters().path("properties").isObject())
                    .as(t.fullName())
                    .isTrue();
            t.parameters()
                    .path("properties")
                    .properties()
                    .forEach(p -> assertThat(p.getValue().path("description").asText())
                            .as(t.fullName() + "." + p.getKey())
                            .isNotBlank());
        }
    }

    @Test
    void every_required_parameter_names_a_property() {
        for (ToolSpec t : DEMO) {
            assertThat(t.parameterNames()).as(t.fullName()).containsAll(t.requiredParameters());
            for (JsonNode r : t.parameters().path("required")) {
                assertThat(r.isTextual()).as(t.fullName()).isTrue();
            }
        }
    }

    @Test
    void every_dependency_names_a_tool_in_the_catalog() {
        for (ToolSpec t : DEMO) {
            assertThat(BY_NAME.keySet()).as(t.fullName()).containsAll(t.dependsOn());
        }
    }

    @Test
    void dangerous_tools_are_blocked_and_outward_actions_need_approval() {
        assertThat(DEMO).filteredOn(t -> t.aiAccess() == AiAccess.BLOCKED).isNotEmpty();
        assertThat(DEMO).filteredOn(t -> t.aiAccess() == AiAccess.PROPOSE).hasSizeGreaterThanOrEqualTo(5);
        assertThat(BY_NAME.get("filesystem__delete_recursive").aiAccess()).isEqualTo(AiAccess.BLOCKED);
        assertThat(BY_NAME.get("settings__reset_all").aiAccess()).isEqualTo(AiAccess.BLOCKED);
        assertThat(BY_NAME.get("gmail__send_email").aiAccess()).isEqualTo(AiAccess.PROPOSE);
        assertThat(BY_NAME.get("cron__create_job").aiAccess()).isEqualTo(AiAccess.PROPOSE);
        assertThat(BY_NAME.get("calendar__create_event").aiAccess()).isEqualTo(AiAccess.PROPOSE);
    }

    @Test
    void deleting_tools_are_marked_delete_and_never_run_without_approval() {
        List<ToolSpec> deleting =
                DEMO.stream().filter(t -> t.sideEffect() == SideEffect.DELETE).toList();
        assertThat(deleting).hasSizeGreaterThanOrEqualTo(5);
        assertThat(deleting).allMatch(t -> t.aiAccess() != AiAccess.EXECUTE, "propose or blocked");
    }

    @Test
    void calendar_lists_creates_and_manages_events_with_date_time_parameters() {
        assertThat(BY_NAME.keySet())
                .contains(
                        "calendar__list_events",
                        "calendar__get_event",
                        "calendar__create_event",
                        "calendar__update_event",
                        "calendar__delete_event",
                        "calendar__find_free_slots");
        ToolSpec create = BY_NAME.get("calendar__create_event");
        assertThat(create.requiredParameters()).contains("title", "start", "end");
        assertThat(create.parameters().at("/properties/start/format").asText()).isEqualTo("date-time");
        assertThat(create.category()).isEqualTo("planning");
    }

    @Test
    void discovery_tools_match_the_design_signatures() {
        assertThat(BY_NAME.get("tool_discovery__find").parameterNames()).containsExactly("query", "limit");
        assertThat(BY_NAME.get("tool_discovery__find").requiredParameters()).containsExactly("query");
        assertThat(BY_NAME.get("tool_discovery__list_all").parameterNames()).containsExactly("category");
        assertThat(BY_NAME.get("tool_discovery__list_all").requiredParameters()).isEmpty();
        assertThat(BY_NAME.get("tool_discovery__describe").parameterNames()).containsExactly("tool_name");
        assertThat(DEMO)
                .filteredOn(t -> t.name().source().equals("tool_discovery"))
                .allMatch(t -> t.category().equals("discovery") && t.sideEffect() == SideEffect.READ);
    }

    @Test
    void categories_group_the_catalog_for_list_all() {
        Set<String> categories = DEMO.stream().map(ToolSpec::category).collect(Collectors.toSet());
        assertThat(categories)
                .contains(
                        "core",
                        "communication",
                        "planning",
                        "memory",
                        "frontend",
                        "files",
                        "automation",
                        "settings",
                        "discovery");
        assertThat(categories).doesNotContain(ToolSpec.DEFAULT_CATEGORY);
        assertThat(DEMO).allMatch(t -> !t.tags().isEmpty(), "every tool has tags");
    }
}
