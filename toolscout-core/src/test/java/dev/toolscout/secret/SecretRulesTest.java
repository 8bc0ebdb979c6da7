package dev.toolscout.secret;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.model.Hashing;
import java.util.List;
import org.junit.jupiter.api.Test;

class SecretRulesTest {
    @Test
    void names_of_secrets_are_recognised_by_pattern_and_counts_are_not() {
        for (String n : List.of(
                "api_key",
                "X-Custom-Auth",
                "X-Amz-Signature",
                "access_key",
                "private_key",
                "jwt",
                "session",
                "sid",
                "Authorization",
                "X-Auth-Token",
                "DATABASE_PASSWORD",
                "client-secret",
                "Cookie",
                "key",
                "JSESSIONID",
                "auth_header",
                "PIN")) {
            assertThat(SecretRules.isSecretName(n)).as(n).isTrue();
        }
        for (String n : List.of(
                "max_tokens",
                "author",
                "name",
                "query",
                "port",
                "Content-Type",
                "monkey_business",
                "side",
                "keyboard_layout")) {
            assertThat(SecretRules.isSecretName(n)).as(n).isFalse();
        }
    }

    @Test
    void a_mask_shows_a_digest_and_the_tail_only_of_a_long_value() {
        String longValue = "session-of-alice";
        String digest = Hashing.sha256Hex(longValue).substring(0, 8);

        assertThat(SecretRules.mask(longValue)).isEqualTo("[redacted …lice sha256:" + digest + "]");
        assertThat(SecretRules.mask("ALL-SESSIONS"))
                .startsWith("[redacted sha256:")
                .doesNotContain("ONS");
        assertThat(SecretRules.mask("session-of-alice")).isNotEqualTo(SecretRules.mask("session-of-alicf"));
    }

    @Test
    void known_tools_take_a_password_after_a_short_flag() {
        assertThat(SecretRules.passwordFlag("mysql", List.of("-u", "root"))).isEqualTo("-p");
        assertThat(SecretRules.passwordFlag("/usr/bin/redis-cli", List.of())).isEqualTo("-a");
        assertThat(SecretRules.passwordFlag("npx", List.of("-y", "mysql@8"))).isEqualTo("-p");
        assertThat(SecretRules.passwordFlag("npx", List.of("-p", "some-package")))
                .isNull();
    }
}
