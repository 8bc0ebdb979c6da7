package dev.toolscout.mcp.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.toolscout.mcp.secret.SecretBox.UnsealException;
import dev.toolscout.testing.LogCapture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SecretBoxTest {
    private static final String KEY_A = base64Key(1);
    private static final String KEY_B = base64Key(2);

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(
            strings = {
                "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
                "",
                " ",
                "Grüße, 你好, שלום, 🚀🔑",
                "line one\nline two\ttab \\ \"quoted\"",
                "enc:v1:looks-sealed-but-is-not"
            })
    void sealed_text_unseals_to_the_original(String plaintext) {
        SecretBox box = SecretBox.open(dir, Map.of());

        String sealed = box.seal(plaintext);

        assertThat(SecretBox.isSealed(sealed)).isTrue();
        assertThat(sealed).startsWith("enc:v1:");
        assertThat(box.unseal(sealed)).isEqualTo(plaintext);
    }

    @Test
    void long_text_round_trips() {
        SecretBox box = SecretBox.open(dir, Map.of());
        String big = "x".repeat(100_000) + "✓";

        assertThat(box.unseal(box.seal(big))).isEqualTo(big);
    }

    @Test
    void sealing_the_same_text_twice_gives_different_values() {
        SecretBox box = SecretBox.open(dir, Map.of());

        String first = box.seal("same secret");
        String second = box.seal("same secret");

        assertThat(first).isNotEqualTo(second);
        assertThat(box.unseal(first)).isEqualTo(box.unseal(second)).isEqualTo("same secret");
    }

    @Test
    void sealed_text_does_not_contain_the_plaintext() {
        SecretBox box = SecretBox.open(dir, Map.of());
        String secret = "sk-live-0123456789abcdef";

        String sealed = box.seal(secret);

        assertThat(sealed).doesNotContain(secret).doesNotContain("0123456789");
        assertThat(sealed).doesNotContain(Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void value_sealed_with_another_key_fails_naming_the_key_source_and_not_the_secret() {
        String sealed = SecretBox.open(dir.resolve("a"), Map.of()).seal("hunter2-secret");
        Path otherDir = dir.resolve("b");
        SecretBox other = SecretBox.open(otherDir, Map.of());

        assertThatThrownBy(() -> other.unseal(sealed))
                .isInstanceOf(IllegalStateException.class)
                .isInstanceOf(UnsealException.class)
                .hasMessageContaining("the secret cannot be decrypted")
                .hasMessageContaining("does not match the one it was sealed with")
                .hasMessageContaining(
                        otherDir.resolve("secret.key").toAbsolutePath().toString())
                .hasMessageContaining("TOOLSCOUT_SECRET_KEY")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void value_sealed_with_the_env_key_fails_under_another_env_key_naming_the_variable() {
        String sealed = SecretBox.open(dir, Map.of(SecretBox.ENV_KEY, KEY_A)).seal("s");
        SecretBox other = SecretBox.open(dir, Map.of(SecretBox.ENV_KEY, KEY_B));

        assertThatThrownBy(() -> other.unseal(sealed))
                .isInstanceOf(UnsealException.class)
                .hasMessageContaining("the environment variable TOOLSCOUT_SECRET_KEY")
                .hasMessageContaining("does not match")
                .hasMessageNotContaining(KEY_A)
                .hasMessageNotContaining(KEY_B);
    }

    @Test
    void tampered_value_fails_to_unseal() {
        SecretBox box = SecretBox.open(dir, Map.of());
        String sealed = box.seal("a secret of some length");
        byte[] raw = Base64.getDecoder().decode(sealed.substring("enc:v1:".length()));
        raw[raw.length / 2] ^= 0x01; // one bit of the ciphertext
        String tampered = "enc:v1:" + Base64.getEncoder().encodeToString(raw);

        assertThatThrownBy(() -> box.unseal(tampered))
                .isInstanceOf(UnsealException.class)
                .hasMessageContaining("the secret cannot be decrypted")
                .hasMessageContaining("or the sealed value was altered")
                .hasMessageNotContaining("a secret of some length");
    }

    @Test
    void truncated_or_non_base64_value_is_reported_as_corrupt() {
        SecretBox box = SecretBox.open(dir, Map.of());

        assertThatThrownBy(() -> box.unseal("enc:v1:AAAA"))
                .isInstanceOf(UnsealException.class)
                .hasMessageContaining("the secret cannot be decrypted")
                .hasMessageContaining("at least 28 bytes, got: 3");
        assertThatThrownBy(() -> box.unseal("enc:v1:%%%not-base64%%%"))
                .isInstanceOf(UnsealException.class)
                .hasMessageContaining("not valid base64");
    }

    @Test
    void unsealing_a_plain_value_is_refused_without_quoting_it() {
        SecretBox box = SecretBox.open(dir, Map.of());

        assertThatThrownBy(() -> box.unseal("plain-password"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must start with 'enc:v1:'")
                .hasMessageContaining("14 characters")
                .hasMessageNotContaining("plain-password");
    }

    @Test
    void is_sealed_recognises_only_the_prefix() {
        assertThat(SecretBox.isSealed("enc:v1:abc")).isTrue();
        assertThat(SecretBox.isSealed("enc:v2:abc")).isFalse();
        assertThat(SecretBox.isSealed("plain")).isFalse();
        assertThat(SecretBox.isSealed("")).isFalse();
        assertThat(SecretBox.isSealed(null)).isFalse();
    }

    @Test
    void key_file_is_created_with_owner_only_permissions_and_32_bytes() throws IOException {
        // JUnit's assumption, not AssertJ's: AssertJ's is a Byte Buddy proxy, whose sun.misc.Unsafe use the JVM warns
        // of
        assumeTrue(Files.getFileAttributeView(dir, PosixFileAttributeView.class) != null, "a POSIX file system");
        Path data = dir.resolve("data");

        SecretBox.open(data, Map.of());

        Path keyFile = data.resolve("secret.key");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(keyFile)))
                .isEqualTo("rw-------");
        assertThat(Files.size(keyFile)).isEqualTo(32);
        try (var leftovers = Files.list(data)) {
            assertThat(leftovers).containsExactly(keyFile); // no temporary file left behind
        }
    }

    @Test
    void key_file_is_reused_by_the_next_open() {
        String sealed = SecretBox.open(dir, Map.of()).seal("kept across restarts");

        SecretBox again = SecretBox.open(dir, Map.of());

        assertThat(again.unseal(sealed)).isEqualTo("kept across restarts");
    }

    @Test
    void key_file_readable_by_others_is_still_used() throws IOException {
        // JUnit's assumption, not AssertJ's: AssertJ's is a Byte Buddy proxy, whose sun.misc.Unsafe use the JVM warns
        // of
        assumeTrue(Files.getFileAttributeView(dir, PosixFileAttributeView.class) != null, "a POSIX file system");
        String sealed = SecretBox.open(dir, Map.of()).seal("s");
        Path keyFile = dir.resolve("secret.key");
        Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-r--r--"));

        try (LogCapture log = LogCapture.of(SecretBox.class)) {
            // the key still works, and a warning names the file and its permissions
            assertThat(SecretBox.open(dir, Map.of()).unseal(sealed)).isEqualTo("s");
            assertThat(log.warnings())
                    .containsExactly("secret key file " + keyFile.toAbsolutePath()
                            + " is accessible by group or others (permissions rw-r--r--); restrict it with chmod 600");
        }
    }

    @Test
    void key_file_of_the_wrong_length_is_refused_naming_the_file_and_the_length() throws IOException {
        Path keyFile = dir.resolve("secret.key");
        Files.write(keyFile, new byte[16]);

        try (LogCapture log = LogCapture.of(SecretBox.class)) {
            assertThatThrownBy(() -> SecretBox.open(dir, Map.of()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(keyFile.toAbsolutePath().toString())
                    .hasMessageContaining("exactly 32 bytes, got: 16");
            // the file was written with the default permissions: that is said too, before the length is checked
            assertThat(log.warnings())
                    .allSatisfy(w -> assertThat(w).contains(keyFile.toAbsolutePath() + " is accessible by group"));
        }
    }

    @Test
    void env_key_is_used_when_set_and_no_key_file_is_created() {
        Map<String, String> env = Map.of(SecretBox.ENV_KEY, KEY_A);

        SecretBox box = SecretBox.open(dir, env);
        String sealed = box.seal("from env");

        assertThat(dir.resolve("secret.key")).doesNotExist();
        assertThat(box.keySource()).isEqualTo("the environment variable TOOLSCOUT_SECRET_KEY");
        // Any box with the same key opens it: the key is the variable's, not a random one.
        assertThat(SecretBox.open(dir.resolve("elsewhere"), env).unseal(sealed)).isEqualTo("from env");
    }

    @Test
    void env_key_wins_over_an_existing_key_file() {
        String sealedWithFile = SecretBox.open(dir, Map.of()).seal("s");

        SecretBox fromEnv = SecretBox.open(dir, Map.of(SecretBox.ENV_KEY, KEY_A));

        assertThatThrownBy(() -> fromEnv.unseal(sealedWithFile)).isInstanceOf(UnsealException.class);
    }

    @Test
    void env_key_of_the_wrong_length_names_the_variable_and_length_but_not_the_value() {
        String sixteenBytes =
                Base64.getEncoder().encodeToString("0123456789abcdef".getBytes(StandardCharsets.US_ASCII));

        assertThatThrownBy(() -> SecretBox.open(dir, Map.of(SecretBox.ENV_KEY, sixteenBytes)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TOOLSCOUT_SECRET_KEY")
                .hasMessageContaining("base64 encoding of exactly 32 bytes")
                .hasMessageContaining("got 16 bytes")
                .hasMessageNotContaining(sixteenBytes);
        assertThat(dir.resolve("secret.key")).doesNotExist();
    }

    @Test
    void env_key_that_is_not_base64_names_the_variable_and_length_but_not_the_value() {
        String notBase64 = "my-password-is-secret!";

        assertThatThrownBy(() -> SecretBox.open(dir, Map.of(SecretBox.ENV_KEY, notBase64)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TOOLSCOUT_SECRET_KEY")
                .hasMessageContaining("got 22 characters that are not valid base64")
                .hasMessageNotContaining(notBase64)
                .hasMessageNotContaining("password")
                .hasNoCause();
    }

    @Test
    void empty_env_key_is_refused_rather_than_ignored() {
        assertThatThrownBy(() -> SecretBox.open(dir, Map.of(SecretBox.ENV_KEY, "")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TOOLSCOUT_SECRET_KEY")
                .hasMessageContaining("got 0 bytes");
    }

    private static String base64Key(int seed) {
        byte[] key = new byte[32];
        for (int i = 0; i < key.length; i++) {
            key[i] = (byte) (seed * 31 + i);
        }
        return Base64.getEncoder().encodeToString(key);
    }
}
