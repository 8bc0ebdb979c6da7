package dev.toolscout.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.runs.UsageStore.StoredUsage;
import dev.toolscout.store.SqliteStateStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code toolscout usage} over a stored record of a request whose model called a memory tool the first selection
 * lacked: recall and precision side by side, per origin, in text and JSON.
 */
class UsageCliTest {
    @TempDir
    Path dir;

    /** As the agent loop stores it: a ranked and a core tool selected, the discovery tool, two calls. */
    private static final String RECORD = """
            {"id": "r1", "status": "done", "conversation": "c1", "message": "What is the weather in Paris?",
             "selection": [
               {"name": "tool_discovery__find", "score": 0.9, "reason": "core tool", "origin": "core"},
               {"name": "weather__get_forecast", "score": 0.8, "reason": "matches 'weather'", "origin": "ranked"},
               {"name": "files__search", "score": 0.2, "reason": "no match for this message", "origin": "ranked"},
               {"name": "memory__search", "score": 0.1, "reason": "core tool", "origin": "core"}],
             "calls": [
               {"tool": "weather__get_forecast", "origin": "selected", "outcome": "ok"},
               {"tool": "weather__get_forecast", "origin": "selected", "outcome": "ok"},
               {"tool": "memory__store", "origin": "meta", "outcome": "ok"},
               {"tool": "nosuch__tool", "origin": "other", "outcome": "not_found"}],
             "approvals": [], "tokens": {"input": 10, "output": 5, "saved": 0}}
            """;

    private String run(String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        String[] all = new String[args.length + 4];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--data-dir";
        all[args.length + 1] = dir.toString();
        all[args.length + 2] = "--since";
        all[args.length + 3] = "2026-01-01T00:00:00Z";
        assertThat(ToolScoutCli.run(all, new PrintWriter(o, true), new PrintWriter(e, true)))
                .as(e.toString())
                .isZero();
        return o.toString();
    }

    @Test
    void usage_gives_recall_with_the_memory_tool_counted_and_precision_per_origin() throws Exception {
        try (SqliteStateStore store = SqliteStateStore.open(dir.resolve("state.db"))) {
            store.saveUsage(new StoredUsage("r1", Instant.parse("2026-12-01T10:00:00Z"), "alice", "c1", RECORD));
        }

        JsonNode u = Json.MAPPER.readTree(run("usage", "--format", "json"));
        // the catalog-only share does not see the memory tool; recall does
        assertThat(u.path("preselected_share").asDouble()).isEqualTo(1.0);
        assertThat(u.path("used_tools").asInt()).isEqualTo(2);
        assertThat(u.path("recall").asDouble()).isEqualTo(0.5);
        // three selected tools (the discovery tool apart), one of them used
        assertThat(u.path("selected_tools").asInt()).isEqualTo(3);
        assertThat(u.path("used_selected").asInt()).isEqualTo(1);
        assertThat(u.path("precision").asDouble()).isEqualTo(0.3333);
        JsonNode o = u.path("selection_by_origin");
        assertThat(o.path("ranked").path("selected").asInt()).isEqualTo(2);
        assertThat(o.path("ranked").path("used").asInt()).isEqualTo(1);
        assertThat(o.path("ranked").path("precision").asDouble()).isEqualTo(0.5);
        assertThat(o.path("ranked").path("recall").asDouble()).isEqualTo(0.5);
        assertThat(o.path("core").path("selected").asInt()).isEqualTo(1);
        assertThat(o.path("core").path("used").asInt()).isZero();
        assertThat(o.path("not_selected").path("used").asInt()).isEqualTo(1);

        String text = run("usage");
        assertThat(text)
                .contains("recall              50.0% of the tools used were in the first selection (1 of 2; memory"
                        + " tools counted)")
                .contains("precision           33.3% of the tools selected were used (1 of 3)")
                .contains("by origin         used/selected: core 0/1, ranked 1/2, not selected: 1 used")
                .contains("pre-selected share  100.0% of the catalog tools called");
    }
}
