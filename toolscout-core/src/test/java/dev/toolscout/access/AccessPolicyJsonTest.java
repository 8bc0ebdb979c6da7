package dev.toolscout.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.model.ToolSpecJson;
import org.junit.jupiter.api.Test;

class AccessPolicyJsonTest {
    private static JsonNode json(String s) throws Exception {
        return ToolSpecJson.MAPPER.readTree(s);
    }

    @Test
    void policy_round_trips() throws Exception {
        AccessPolicy p = AccessPolicyJson.fromJson(json("""
        {"default":"deny","spaces":{"kitchen":"home","home":null},
         "rules":[{"effect":"allow","source":"gmail","group":"staff"},{"effect":"deny","tool":"gmail__send"}]}
        """), "policy.json");
        assertThat(AccessPolicyJson.fromJson(AccessPolicyJson.toJson(p), "again"))
                .isEqualTo(p);
        assertThat(p.spaceChain("kitchen")).containsExactly("kitchen", "home");
    }

    @Test
    void a_rule_with_two_targets_is_rejected_naming_the_file_and_rule() {
        assertThatThrownBy(() -> AccessPolicyJson.fromJson(
                        json(
                                "{\"rules\":[{\"effect\":\"allow\",\"tool\":\"a__b\"},{\"effect\":\"deny\",\"tool\":\"a__b\",\"source\":\"a\"}]}"),
                        "p.json"))
                .hasMessageStartingWith("p.json: rules[1]")
                .hasMessageContaining("exactly one of tool, source, category");
    }

    @Test
    void a_bad_effect_names_the_value() {
        assertThatThrownBy(() -> AccessPolicyJson.fromJson(
                        json("{\"rules\":[{\"effect\":\"maybe\",\"tool\":\"a__b\"}]}"), "p.json"))
                .hasMessageContaining("rules[0].effect")
                .hasMessageContaining("\"maybe\"");
    }

    @Test
    void an_unknown_field_is_rejected_not_ignored() {
        assertThatThrownBy(() -> AccessPolicyJson.fromJson(json("{\"rulez\":[]}"), "p.json"))
                .hasMessageContaining("unknown policy field 'rulez'");
        assertThatThrownBy(() -> AccessPolicyJson.fromJson(
                        json("{\"rules\":[{\"effect\":\"deny\",\"tool\":\"a__b\",\"usr\":\"x\"}]}"), "p.json"))
                .hasMessageContaining("unknown field 'usr'");
    }
}
