package dev.toolscout.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.toolscout.Fixture;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpecJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DiscoveryToolsTest {
    private static Fixture fixtureDenyingGmailSend() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        f.access.setPolicy(new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(new AccessRule(
                        AccessRule.Effect.DENY,
                        AccessRule.Target.TOOL,
                        "gmail__send_email",
                        AccessRule.Subject.GROUP,
                        "kids"))));
        return f;
    }

    private static JsonNode ok(DiscoveryResult r) {
        assertThat(r).isInstanceOf(DiscoveryResult.Ok.class);
        return ((DiscoveryResult.Ok) r).output();
    }

    @Test
    void oversized_arguments_are_refused_naming_the_argument_the_limit_and_the_size() {
        Fixture f = fixtureDenyingGmailSend();
        String query = "send email ".repeat(2_000); // 22,000 characters
        assertThat(f.discovery.call(
                        Principal.ANONYMOUS,
                        DiscoveryTools.FIND,
                        JsonNodeFactory.instance.objectNode().put("query", query)))
                .isEqualTo(
                        new DiscoveryResult.Error("query must be at most 16,384 characters, got: 22,000 characters"));
        assertThat(f.discovery.describe(Principal.ANONYMOUS, "gmail__send_email" + " ".repeat(300)))
                .isEqualTo(new DiscoveryResult.Error("tool_name must be at most 256 characters, got: 317 characters"));
        assertThat(f.discovery.listAll(Principal.ANONYMOUS, "c".repeat(1_000)))
                .isEqualTo(new DiscoveryResult.Error("category must be at most 256 characters, got: 1,000 characters"));
        // at the limit it is searched
        String longest = "send email " + "x".repeat(InputLimits.MAX_MESSAGE_CHARS - 11);
        assertThat(ok(f.discovery.find(Principal.ANONYMOUS, longest, 1))
                        .get("count")
                        .asInt())
                .isEqualTo(1);
    }

    @Test
    void find_ranks_matching_tools_first() {
        Fixture f = fixtureDenyingGmailSend();
        JsonNode out = ok(f.discovery.find(Principal.ANONYMOUS, "send email", 3));
        assertThat(out.get("count").asInt()).isEqualTo(3);
        assertThat(out.get("tools").get(0).get("name").asText()).isEqualTo("gmail__send_email");
    }

    @Test
    void denied_tool_never_appears_in_find_results() {
        Fixture f = fixtureDenyingGmailSend();
        JsonNode out = ok(f.discovery.find(new Principal(null, "kids", null), "send email", 50));
        assertThat(out.toString()).doesNotContain("gmail__send_email");
    }

    @Test
    void describe_answers_a_denied_tool_exactly_like_a_missing_one() {
        Fixture f = fixtureDenyingGmailSend();
        Principal kid = new Principal(null, "kids", null);
        assertThat(f.discovery.describe(kid, "gmail__send_email"))
                .isEqualTo(new DiscoveryResult.Error("Tool not found: gmail__send_email"));
        assertThat(f.discovery.describe(kid, "gmail__send_emails"))
                .isEqualTo(new DiscoveryResult.Error("Tool not found: gmail__send_emails"));
        JsonNode d = ok(f.discovery.describe(Principal.ANONYMOUS, "gmail__send_email"));
        assertThat(d.get("parameters").get("type").asText()).isEqualTo("object");
        assertThat(d.get("ai_access").asText()).isEqualTo("execute");
    }

    @Test
    void describe_names_the_groups_that_may_use_a_visible_tool_and_nothing_for_a_denied_one() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        f.access.setPolicy(new AccessPolicy(
                AccessRule.Effect.DENY,
                Map.of(),
                List.of(
                        new AccessRule(
                                AccessRule.Effect.ALLOW,
                                AccessRule.Target.SOURCE,
                                "gmail",
                                AccessRule.Subject.GROUP,
                                "parents"),
                        new AccessRule(
                                AccessRule.Effect.ALLOW,
                                AccessRule.Target.SOURCE,
                                "gmail",
                                AccessRule.Subject.GROUP,
                                "kids"),
                        new AccessRule(
                                AccessRule.Effect.DENY,
                                AccessRule.Target.TOOL,
                                "gmail__send_email",
                                AccessRule.Subject.GROUP,
                                "kids"),
                        new AccessRule(
                                AccessRule.Effect.ALLOW,
                                AccessRule.Target.TOOL,
                                "gmail__send_email",
                                AccessRule.Subject.USER,
                                "ann"))));
        Principal parent = new Principal(null, "parents", null);
        Principal kid = new Principal(null, "kids", null);
        JsonNode send = ok(f.discovery.describe(parent, "gmail__send_email"));
        assertThat(send.get("available_in_groups")).containsExactly(JsonNodeFactory.instance.textNode("parents"));
        JsonNode search = ok(f.discovery.describe(kid, "gmail__list_emails"));
        assertThat(search.get("available_in_groups"))
                .containsExactly(
                        JsonNodeFactory.instance.textNode("kids"), JsonNodeFactory.instance.textNode("parents"));
        // a user's own allow does not make the tool a group's: ann of the kids sees it, the kids as a group do not
        JsonNode forAnn = ok(f.discovery.describe(new Principal("ann", "kids", null), "gmail__send_email"));
        assertThat(forAnn.get("available_in_groups")).containsExactly(JsonNodeFactory.instance.textNode("parents"));
        // denied: the very answer a missing tool gets, and through the model's own call too
        assertThat(f.discovery.describe(kid, "gmail__send_email"))
                .isEqualTo(new DiscoveryResult.Error("Tool not found: gmail__send_email"));
        assertThat(f.discovery.describe(kid, "gmail__send_emailz"))
                .isEqualTo(new DiscoveryResult.Error("Tool not found: gmail__send_emailz"));
        assertThat(f.discovery.call(
                        kid,
                        DiscoveryTools.DESCRIBE,
                        JsonNodeFactory.instance.objectNode().put("tool_name", "gmail__send_email")))
                .isEqualTo(new DiscoveryResult.Error("Tool not found: gmail__send_email"));
        assertThat(f.discovery.describe(Principal.ANONYMOUS, "gmail__list_emails"))
                .isEqualTo(new DiscoveryResult.Error("Tool not found: gmail__list_emails"));
    }

    @Test
    void list_all_filters_by_category_and_counts_only_visible_tools() {
        Fixture f = fixtureDenyingGmailSend();
        JsonNode out = ok(f.discovery.listAll(new Principal(null, "kids", null), "Communication"));
        assertThat(out.get("total").asInt()).isEqualTo(1);
        assertThat(out.get("tools").get(0).get("name").asText()).isEqualTo("gmail__list_emails");
        assertThat(out.get("categories").get("communication").asInt()).isEqualTo(1);
    }

    @Test
    void bad_arguments_are_errors_the_model_can_fix() throws Exception {
        Fixture f = fixtureDenyingGmailSend();
        assertThat(f.discovery.call(Principal.ANONYMOUS, DiscoveryTools.FIND, ToolSpecJson.MAPPER.readTree("{}")))
                .isInstanceOf(DiscoveryResult.Error.class);
        assertThat(f.discovery.find(Principal.ANONYMOUS, "x", 0))
                .isEqualTo(new DiscoveryResult.Error("limit must be between 1 and 50, got: 0"));
        assertThat(f.discovery.call(
                        Principal.ANONYMOUS,
                        DiscoveryTools.FIND,
                        ToolSpecJson.MAPPER.readTree("{\"query\":\"x\",\"limit\":\"many\"}")))
                .isInstanceOf(DiscoveryResult.Error.class);
        JsonNode viaCall = ok(f.discovery.call(
                Principal.ANONYMOUS,
                DiscoveryTools.DESCRIBE,
                ToolSpecJson.MAPPER.readTree("{\"tool_name\":\"tasks__list\"}")));
        assertThat(viaCall.get("name").asText()).isEqualTo("tasks__list");
    }

    @Test
    void the_engine_meta_tools_are_described_for_a_catalog_without_them_unless_denied() {
        Fixture f = new Fixture();
        f.catalog.sync(List.of(Fixture.tool("crm__update", "Update a record.")));

        JsonNode find = ok(f.discovery.describe(Principal.ANONYMOUS, DiscoveryTools.FIND));
        assertThat(find.get("parameters_summary").asText()).isEqualTo("query (string, required), limit (integer)");

        f.access.setPolicy(new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(new AccessRule(
                        AccessRule.Effect.DENY,
                        AccessRule.Target.SOURCE,
                        "tool_discovery",
                        AccessRule.Subject.EVERYONE,
                        null))));
        assertThat(f.discovery.describe(Principal.ANONYMOUS, DiscoveryTools.FIND))
                .isEqualTo(new DiscoveryResult.Error("Tool not found: " + DiscoveryTools.FIND));
    }
}
