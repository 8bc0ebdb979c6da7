package dev.toolscout.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.model.Principal;
import dev.toolscout.testing.LogCapture;
import io.modelcontextprotocol.util.ToolInputValidator;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Issue 14, item 4 (denied tools are detectable): calling a denied tool with wrong arguments returned its
 * schema's validation errors, and a denied and a missing tool gave different errors. Access is now checked
 * before anything else about a call, and the answer to a denied tool is byte for byte the answer to a missing
 * one of the same name: compared here over raw HTTP, in one session (the SSE event id is the session's), with
 * the missing name written in place of the denied one.
 */
@ResourceLock(LogCapture.LOGGERS)
class DeniedEqualsMissingSecurityTest {
    static final String ALICE = "alice-key-0123456789abcdef";
    static final String BOB = "bob-key-0123456789abcdefgh";
    static final String DENIED = "everything__get-sum";
    static final String MISSING = "everything__get-zzz";

    @TempDir
    static Path dir;

    static SecurityGateway g;

    @BeforeAll
    static void start() throws Exception {
        g = SecurityGateway.start(
                dir,
                "{\"everything\": " + SecurityGateway.everything() + "}",
                "{\"rules\": [{\"effect\": \"deny\", \"tool\": \"" + DENIED + "\", \"user\": \"bob\"}]}",
                Map.of(ALICE, new Principal("alice", null, null), BOB, new Principal("bob", null, null)));
        assertThat(g.engine.scout().gatewayParts().catalog().get(DENIED))
                .as("the reference server's get-sum tool")
                .isPresent();
        assertThat(g.engine.scout().gatewayParts().catalog().get(MISSING)).isEmpty();
    }

    @AfterAll
    static void stop() {
        if (g != null) {
            g.close();
        }
    }

    /** The response as bytes a client sees: status, content type and body. */
    static String seen(HttpResponse<String> r) {
        return r.statusCode() + " " + r.headers().firstValue("content-type").orElse("") + "\n" + r.body();
    }

    @Test
    void tools_call_of_a_denied_tool_is_byte_identical_to_a_missing_one_whatever_the_arguments() throws Exception {
        SecurityGateway.Raw bob = g.raw(BOB);
        for (String args : List.of("{}", "{\"a\": 1, \"b\": 2}", "{\"a\": \"not a number\"}", "{\"zzz\": [1, 2]}")) {
            String denied = seen(bob.call(DENIED, args));
            String missing = seen(bob.call(MISSING, args));

            assertThat(denied)
                    .as(args)
                    .isEqualTo(missing.replace(MISSING, DENIED))
                    .doesNotContain("required")
                    .doesNotContain("validation");
        }
    }

    @Test
    void an_allowed_principal_still_gets_the_schema_errors_after_the_access_check() throws Exception {
        SecurityGateway.Raw alice = g.raw(ALICE);

        try (LogCapture validator = LogCapture.of(ToolInputValidator.class)) {
            assertThat(alice.call(DENIED, "{}").body()).contains("required property 'a' not found");
            assertThat(validator.warnings())
                    .containsExactly("Tool (" + DENIED + ") input validation failed: Validation failed: JSON schema"
                            + " validation errors: [: required property 'a' not found, : required property 'b' not"
                            + " found]");
        }
        assertThat(alice.call(DENIED, "{\"a\": 2, \"b\": 3}").body()).contains("The sum of 2 and 3 is 5");
    }

    @Test
    void mcp_call_tool_of_a_denied_tool_is_byte_identical_to_a_missing_one() throws Exception {
        SecurityGateway.Raw bob = g.raw(BOB);
        for (String params : List.of("{}", "{\"a\": 1, \"b\": 2}", "{\"a\": \"x\"}")) {
            String denied = seen(bob.call(
                    "mcp__call_tool",
                    "{\"server_name\": \"everything\", \"tool_name\": \"get-sum\", \"params\": " + params + "}"));
            String missing = seen(bob.call(
                    "mcp__call_tool",
                    "{\"server_name\": \"everything\", \"tool_name\": \"get-zzz\", \"params\": " + params + "}"));

            assertThat(denied).as(params).isEqualTo(missing.replace("get-zzz", "get-sum"));
        }
        String byWireName = seen(bob.call(
                "mcp__call_tool",
                "{\"server_name\": \"everything\", \"tool_name\": \"" + DENIED + "\", \"params\": {}}"));
        String missingWireName = seen(bob.call(
                "mcp__call_tool",
                "{\"server_name\": \"everything\", \"tool_name\": \"" + MISSING + "\", \"params\": {}}"));
        assertThat(byWireName).isEqualTo(missingWireName.replace(MISSING, DENIED));
    }

    @Test
    void describe_of_a_denied_tool_is_byte_identical_to_a_missing_one() throws Exception {
        SecurityGateway.Raw bob = g.raw(BOB);

        String denied = seen(bob.call("tool_discovery__describe", "{\"tool_name\": \"" + DENIED + "\"}"));
        String missing = seen(bob.call("tool_discovery__describe", "{\"tool_name\": \"" + MISSING + "\"}"));

        assertThat(denied).isEqualTo(missing.replace(MISSING, DENIED));
        assertThat(g.raw(ALICE)
                        .call("tool_discovery__describe", "{\"tool_name\": \"" + DENIED + "\"}")
                        .body())
                .contains("get-sum")
                .doesNotContain("Tool not found");
    }
}
