package dev.toolscout.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code toolscout learn} end to end on the real engine and model, over the demo catalog; each run is a restart. */
class LearnCliTest {
    private static final String MESSAGE = "the thing for the quarterly offsite we talked about";

    @TempDir
    Path dir;

    private String out;
    private String err;

    private int run(String stdin, String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--data-dir";
        all[args.length + 1] = dir.resolve("data").toString();
        int code = ToolScoutCli.run(
                all,
                new java.io.ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintWriter(o, true),
                new PrintWriter(e, true));
        out = o.toString();
        err = e.toString();
        return code;
    }

    private int rankOf(String tool) throws Exception {
        assertThat(run("", "select", MESSAGE, "--k", "50", "--format", "json")).isZero();
        JsonNode selected = Json.MAPPER.readTree(out).get("selected");
        for (int i = 0; i < selected.size(); i++) {
            if (selected.get(i).get("name").asText().equals(tool)) {
                return i + 1;
            }
        }
        return -1;
    }

    @Test
    void learned_pairs_survive_a_restart_move_the_tool_up_show_and_reset() throws Exception {
        int before = rankOf("calendar__find_free_slots");
        Path pairs = dir.resolve("usage.jsonl");
        Files.writeString(
                pairs,
                "{\"message\": \"" + MESSAGE + "\", \"tools\": [\"calendar__find_free_slots\", "
                        + "\"nowhere__tool\"], \"principal\": \"ann\"}\n");

        assertThat(run("", "learn", "--pairs", pairs.toString())).as(err).isZero();
        assertThat(out)
                .contains("Learned 1 (message, tool) pair from 1 message")
                .contains("Skipped 1 tool name the catalog does not hold: nowhere__tool");

        int after = rankOf("calendar__find_free_slots");
        assertThat(after).isBetween(1, before == -1 ? 50 : before - 1);
        assertThat(out).contains("used before for a similar message (1.00)");

        assertThat(run("", "learn", "--show", "--format", "json")).isZero();
        JsonNode shown = Json.MAPPER.readTree(out);
        assertThat(shown).hasSize(1);
        assertThat(shown.get(0).get("tool").asText()).isEqualTo("calendar__find_free_slots");
        assertThat(shown.get(0).get("recent").get(0).asText()).isEqualTo(MESSAGE);

        assertThat(run("", "learn", "--reset")).isZero();
        assertThat(out).contains("Forgot 1 learned pair.");
        assertThat(run("", "learn", "--show")).isZero();
        assertThat(out).contains("Nothing learned.");
        assertThat(rankOf("calendar__find_free_slots")).isEqualTo(before);
    }

    @Test
    void a_bad_line_is_refused_naming_the_line_and_nothing_is_learned() {
        String lines = "{\"message\": \"book a room\", \"tools\": [\"calendar__create_event\"]}\n"
                + "{\"message\": \"x\", \"tools\": \"calendar__create_event\"}\n";
        assertThat(run(lines, "learn", "--pairs", "-")).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err)
                .contains("stdin line 2: \"tools\" must be an array of tool names, got: \"calendar__create_event\"");
        assertThat(run("", "learn", "--show")).isZero();
        assertThat(out).contains("Nothing learned.");
        assertThat(run("", "learn", "--show", "--reset")).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err).contains("give exactly one of --pairs FILE, --show or --reset, got 2");
    }
}
