package dev.toolscout.approval;

import static dev.toolscout.secret.SecretRules.mask;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ArgumentRedactionTest {
    @Test
    void secret_named_fields_are_masked_at_any_depth_and_keys_are_sorted() {
        String out = ArgumentRedaction.redact(Map.of(
                        "z",
                        1,
                        "headers",
                        Map.of("Authorization", "Bearer abc", "X-Team", "eng"),
                        "list",
                        List.of(Map.of("password", "pw")),
                        "max_tokens",
                        100))
                .toString();

        assertThat(out)
                .isEqualTo("{\"headers\":{\"Authorization\":\"" + mask("Bearer abc") + "\",\"X-Team\":\"eng\"},"
                        + "\"list\":[{\"password\":\"" + mask("pw") + "\"}],\"max_tokens\":100,\"z\":1}");
    }

    @Test
    void secrets_inside_text_are_masked_and_the_rest_kept() {
        assertThat(ArgumentRedaction.redactText("npx -y server --api-key sk-1 --token=t2 --port 8080"))
                .isEqualTo("npx -y server --api-key " + mask("sk-1") + " --token=" + mask("t2") + " --port 8080");
        assertThat(ArgumentRedaction.redactText("https://u:p@h.example/mcp?token=t&q=x"))
                .isEqualTo("https://u:" + mask("p") + "@h.example/mcp?token=" + mask("t") + "&q=x");
        assertThat(ArgumentRedaction.redactText("auth: Bearer eyJhbGciOi.x-y"))
                .isEqualTo("auth: Bearer " + mask("eyJhbGciOi.x-y"));
        assertThat(ArgumentRedaction.redactText("touch /tmp/pwned")).isEqualTo("touch /tmp/pwned");
    }

    @Test
    void url_userinfo_of_any_scheme_and_known_tools_password_flags_are_masked() {
        assertThat(ArgumentRedaction.redactText("psql postgres://app:s3cr3t-pw@db.internal:5432/x"))
                .isEqualTo("psql postgres://app:" + mask("s3cr3t-pw") + "@db.internal:5432/x");
        assertThat(ArgumentRedaction.redactText("mysql -u root -pHunter2 shop"))
                .isEqualTo("mysql -u root -p" + mask("Hunter2") + " shop");
        assertThat(ArgumentRedaction.redactText("sshpass -p Hunter2 ssh host"))
                .isEqualTo("sshpass -p " + mask("Hunter2") + " ssh host");
        assertThat(ArgumentRedaction.redactText("npx -p some-package cmd")).isEqualTo("npx -p some-package cmd");
        assertThat(ArgumentRedaction.redactText("https://s3/x?X-Amz-Signature=abcd&sid=9&jwt=e.y&x=1"))
                .isEqualTo("https://s3/x?X-Amz-Signature=" + mask("abcd") + "&sid=" + mask("9") + "&jwt=" + mask("e.y")
                        + "&x=1");
    }

    @Test
    void canonical_keeps_every_value_and_sorts_keys() {
        assertThat(ArgumentRedaction.canonical(Map.of("token", "session-of-alice", "a", List.of(1)))
                        .toString())
                .isEqualTo("{\"a\":[1],\"token\":\"session-of-alice\"}");
    }
}
