package dev.toolscout.approval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ArgumentRedactionTest {
  @Test
  void secret_named_fields_are_masked_at_any_depth_and_keys_are_sorted() {
    String out = ArgumentRedaction.redact(Map.of("z", 1, "headers", Map.of("Authorization", "Bearer abc",
        "X-Team", "eng"), "list", List.of(Map.of("password", "pw")), "max_tokens", 100)).toString();

    assertThat(out).isEqualTo("{\"headers\":{\"Authorization\":\"[redacted]\",\"X-Team\":\"eng\"},"
        + "\"list\":[{\"password\":\"[redacted]\"}],\"max_tokens\":100,\"z\":1}");
  }

  @Test
  void secrets_inside_text_are_masked_and_the_rest_kept() {
    assertThat(ArgumentRedaction.redactText("npx -y server --api-key sk-1 --token=t2 --port 8080"))
        .isEqualTo("npx -y server --api-key [redacted] --token=[redacted] --port 8080");
    assertThat(ArgumentRedaction.redactText("https://u:p@h.example/mcp?token=t&q=x"))
        .isEqualTo("https://[redacted]@h.example/mcp?token=[redacted]&q=x");
    assertThat(ArgumentRedaction.redactText("auth: Bearer eyJhbGciOi.x-y")).isEqualTo("auth: Bearer [redacted]");
    assertThat(ArgumentRedaction.redactText("touch /tmp/pwned")).isEqualTo("touch /tmp/pwned");
  }
}
