package dev.toolscout.mcp.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who a client is, from its API key: the lookup ({@link GatewayAuth#principal}), local mode, and the keys file.
 * Errors name the file, the entry and the rule, and never quote a key.
 */
class GatewayAuthTest {
    private static final String ALICE_KEY = "sk_alice_0123456789abcdef";
    private static final String BOB_KEY = "sk_bob_fedcba9876543210";
    private static final Principal ALICE = new Principal("alice", "eng", "team-a");
    private static final Principal BOB = new Principal("bob", "ops", null);

    @TempDir
    Path dir;

    // --- local mode ---

    @Test
    void local_mode_accepts_every_client_as_the_local_principal() {
        Principal me = new Principal("me", "home", "default");
        GatewayAuth auth = GatewayAuth.local(me);

        assertThat(auth.requiresKey()).isFalse();
        for (String presented : new String[] {null, "", " ", "x", ALICE_KEY, "not-a-key-at-all-but-long", "é😀"}) {
            assertThat(auth.principal(presented)).as("key %s", presented).isSameAs(me);
        }
    }

    // --- keys ---

    @Test
    void each_key_finds_its_own_principal_and_anything_else_finds_none() {
        GatewayAuth auth = GatewayAuth.of(Map.of(ALICE_KEY, ALICE, BOB_KEY, BOB));

        assertThat(auth.requiresKey()).isTrue();
        assertThat(auth.principal(ALICE_KEY)).isEqualTo(ALICE);
        assertThat(auth.principal(BOB_KEY)).isEqualTo(BOB);
        assertThat(auth.principal(null)).isNull();
        assertThat(auth.principal("")).isNull();
        for (String nearMiss : List.of(
                ALICE_KEY + "0",
                ALICE_KEY.substring(1),
                ALICE_KEY.substring(0, 24),
                ALICE_KEY.toUpperCase(Locale.ROOT),
                " " + ALICE_KEY,
                ALICE_KEY + " ",
                ALICE_KEY + "\n",
                BOB_KEY + ALICE_KEY)) {
            assertThat(auth.principal(nearMiss)).as("near miss '%s'", nearMiss).isNull();
        }
    }

    @Test
    void keys_are_compared_as_utf8_bytes_so_unicode_lookalikes_are_different_keys() {
        String composed = "clé-secrète-0123456789"; // é as one code point
        String decomposed = "cle\u0301-secre\u0300te-0123456789"; // e plus a combining accent: looks the same
        Principal first = new Principal("composed", null, null);
        Principal second = new Principal("decomposed", null, null);
        GatewayAuth auth = GatewayAuth.of(Map.of(composed, first, decomposed, second));

        assertThat(auth.principal(composed)).isEqualTo(first);
        assertThat(auth.principal(decomposed)).isEqualTo(second);
        assertThat(auth.principal("clé-secrète-012345678😀")).isNull();
    }

    @Test
    void random_key_sets_find_exactly_the_principal_of_each_key() {
        long seed = Long.getLong("tests.seed", System.nanoTime());
        System.out.println("GatewayAuthTest.random_key_sets_find_exactly_the_principal_of_each_key seed: " + seed
                + " (rerun with -Dtests.seed=" + seed + ")");
        Random random = new Random(seed);
        for (int round = 0; round < 200; round++) {
            // keys that share long prefixes, differ by one character or are prefixes of one another
            Set<String> keys = new LinkedHashSet<>();
            String stem = randomKey(random, GatewayAuth.MIN_KEY_LENGTH + random.nextInt(20));
            for (int i = 1 + random.nextInt(30); i > 0; i--) {
                keys.add(
                        switch (random.nextInt(4)) {
                            case 0 -> stem + randomKey(random, random.nextInt(4));
                            case 1 ->
                                stem.substring(0, GatewayAuth.MIN_KEY_LENGTH) + randomKey(random, random.nextInt(8));
                            case 2 -> mutateOne(stem, random);
                            default -> randomKey(random, GatewayAuth.MIN_KEY_LENGTH + random.nextInt(60));
                        });
            }
            Map<String, Principal> byKey = new HashMap<>();
            int n = 0;
            for (String key : keys) {
                byKey.put(key, new Principal("user" + n++, random.nextBoolean() ? "g" + n : null, null));
            }
            GatewayAuth auth = GatewayAuth.of(byKey);
            String context = "seed " + seed + ", round " + round;
            for (Map.Entry<String, Principal> e : byKey.entrySet()) {
                assertThat(auth.principal(e.getKey()))
                        .as("%s: key '%s'", context, e.getKey())
                        .isSameAs(e.getValue());
                String miss = mutateOne(e.getKey(), random);
                assertThat(auth.principal(miss))
                        .as("%s: near miss '%s'", context, miss)
                        .isSameAs(byKey.get(miss));
                String longer = e.getKey() + randomKey(random, 1);
                assertThat(auth.principal(longer))
                        .as("%s: '%s'", context, longer)
                        .isSameAs(byKey.get(longer));
            }
        }
    }

    @Test
    void keys_shorter_than_sixteen_characters_are_rejected_without_quoting_them() {
        String fifteen = "short-secret-15";
        String sixteen = "short-secret-016";

        assertThatThrownBy(() -> GatewayAuth.of(Map.of(fifteen, ALICE)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("key must be at least 16 characters, got: 15")
                .hasMessageNotContaining(fifteen);
        assertThat(GatewayAuth.of(Map.of(sixteen, ALICE)).principal(sixteen)).isEqualTo(ALICE);
    }

    // --- keys file ---

    @Test
    void keys_file_maps_each_key_to_its_user_group_and_space() throws IOException {
        Path file = write("""
        {"keys": [
          {"key": "%s", "user": "alice", "group": "eng", "space": "team-a"},
          {"key": "%s", "user": "bob", "group": "ops"},
          {"key": "sk_anyone_0123456789", "user": "  ", "group": null}
        ]}
        """.formatted(ALICE_KEY, BOB_KEY));

        GatewayAuth auth = GatewayAuth.load(file);

        assertThat(auth.requiresKey()).isTrue();
        assertThat(auth.principal(ALICE_KEY)).isEqualTo(ALICE);
        assertThat(auth.principal(BOB_KEY)).isEqualTo(BOB);
        // blank and absent parts are unknown: only rules for everyone apply
        assertThat(auth.principal("sk_anyone_0123456789")).isEqualTo(Principal.ANONYMOUS);
        assertThat(auth.principal("sk_nobody_0123456789")).isNull();
    }

    @Test
    void missing_keys_file_is_an_error_naming_it() {
        Path missing = dir.resolve("nope.json");

        assertThatThrownBy(() -> GatewayAuth.load(missing))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("API keys file not found: " + missing);
    }

    @Test
    void keys_file_that_is_not_json_names_the_file_and_does_not_quote_the_key() throws IOException {
        // the quotes around the key forgotten: the parser's message quotes the token it could not read
        Path unquoted = write("{\"keys\": [{\"key\": " + ALICE_KEY + ", \"user\": \"alice\"}]}");
        Path unterminated = write("{\"keys\": [{\"key\": \"" + ALICE_KEY + "\n\"user\": \"alice\"}]}");

        for (Path file : List.of(unquoted, unterminated)) {
            assertThatThrownBy(() -> GatewayAuth.load(file))
                    .as(file.toString())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("API keys file " + file + " is not JSON")
                    .hasMessageNotContaining(ALICE_KEY);
        }
    }

    @Test
    void keys_file_without_a_non_empty_keys_array_names_the_file_and_the_rule() throws IOException {
        for (String content : List.of(
                "{}",
                "{\"keys\": {}}",
                "{\"keys\": []}",
                "{\"keys\": \"" + ALICE_KEY + "\"}",
                "[]",
                "null",
                "42",
                "")) {
            Path file = write(content);

            assertThatThrownBy(() -> GatewayAuth.load(file))
                    .as(content)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("API keys file " + file + ": \"keys\" must be a non-empty array of {\"key\", \"user\", "
                            + "\"group\", \"space\"} objects")
                    .hasMessageNotContaining(ALICE_KEY);
        }
    }

    @Test
    void short_or_missing_key_in_the_file_names_the_file_and_the_entry_but_not_the_key() throws IOException {
        Path shortKey = write("{\"keys\": [{\"key\": \"" + ALICE_KEY + "\"}, {\"key\": \"tiny-secret\"}]}");
        Path noKey = write("{\"keys\": [{\"key\": \"" + ALICE_KEY + "\"}, {\"user\": \"bob\"}]}");

        assertThatThrownBy(() -> GatewayAuth.load(shortKey))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("API keys file " + shortKey + ": keys[1]: key must be at least 16 characters, got: 11")
                .hasMessageNotContaining("tiny-secret");
        assertThatThrownBy(() -> GatewayAuth.load(noKey))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("API keys file " + noKey + ": keys[1]: key must be at least 16 characters, got: 0");
    }

    @Test
    void repeated_key_in_the_file_names_the_entry_but_not_the_key() throws IOException {
        Path file = write(
                "{\"keys\": [{\"key\": \"%s\", \"user\": \"alice\"}, {\"key\": \"%s\"}, {\"key\": \"%s\", \"user\": \"mallory\"}]}"
                        .formatted(ALICE_KEY, BOB_KEY, ALICE_KEY));

        assertThatThrownBy(() -> GatewayAuth.load(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("API keys file " + file + ": keys[2] repeats an earlier key")
                .hasMessageNotContaining(ALICE_KEY);
    }

    @Test
    void keys_file_that_is_not_utf8_is_an_error_naming_the_file() throws IOException {
        Path file = dir.resolve("latin1-keys.json");
        Files.write(
                file,
                ("{\"keys\": [{\"key\": \"" + ALICE_KEY + "\", \"user\": \"jürgen\"}]}")
                        .getBytes(StandardCharsets.ISO_8859_1));

        assertThatThrownBy(() -> GatewayAuth.load(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file.toString())
                .hasMessageNotContaining(ALICE_KEY);
    }

    // --- roles ---

    @Test
    void keys_file_roles_are_read_and_an_entry_without_one_is_a_user_never_an_admin() throws IOException {
        Path file = write("""
        {"keys": [{"key": "%s", "user": "alice", "role": "ADMIN"}, {"key": "%s", "user": "bob"},
                  {"key": "sk_rita_0123456789abcd", "user": "rita", "role": "reader"}]}""".formatted(ALICE_KEY, BOB_KEY));

        GatewayAuth auth = GatewayAuth.load(file);

        assertThat(auth.caller(ALICE_KEY))
                .isEqualTo(new Caller("key:alice", new Principal("alice", null, null), Role.ADMIN, true));
        assertThat(auth.caller(BOB_KEY).role()).isEqualTo(Role.USER);
        assertThat(auth.caller("sk_rita_0123456789abcd").role()).isEqualTo(Role.READER);
    }

    @Test
    void unknown_role_names_the_file_the_entry_the_rule_and_the_value() throws IOException {
        Path file = write("""
        {"keys": [{"key": "%s", "user": "alice"}, {"key": "%s", "role": "root"}]}""".formatted(ALICE_KEY, BOB_KEY));

        assertThatThrownBy(() -> GatewayAuth.load(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("API keys file " + file + ": keys[1]: role must be reader, user or admin, got: 'root'");
    }

    @Test
    void a_key_without_a_user_is_a_caller_of_its_own_and_the_local_caller_is_a_remote_user() {
        GatewayAuth auth = GatewayAuth.of(
                Map.of(ALICE_KEY, new Principal(null, "eng", null), BOB_KEY, new Principal(null, "eng", null)));

        assertThat(auth.caller(ALICE_KEY).id())
                .startsWith("key:")
                .isNotEqualTo(auth.caller(BOB_KEY).id())
                .doesNotContain(ALICE_KEY);
        Caller local = GatewayAuth.local(ALICE).caller(null);
        assertThat(local.id()).isEqualTo("local");
        assertThat(local.role()).isEqualTo(Role.USER);
        assertThat(local.remote()).isTrue();
    }

    // --- helpers ---

    private int files;

    private Path write(String content) throws IOException {
        Path file = dir.resolve("keys-" + ++files + ".json");
        Files.writeString(file, content, StandardCharsets.UTF_8);
        return file;
    }

    /** Keys in the basic plane only: a lone surrogate would be encoded as '?' and so stand for any other. */
    private static String randomKey(Random random, int length) {
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-é中";
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    /** The key with one character changed (never to itself). */
    private static String mutateOne(String key, Random random) {
        int at = random.nextInt(key.length());
        char c = key.charAt(at);
        char other = c == 'x' ? 'y' : 'x';
        return key.substring(0, at) + other + key.substring(at + 1);
    }
}
