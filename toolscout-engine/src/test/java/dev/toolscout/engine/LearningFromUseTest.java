package dev.toolscout.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.learning.LearnedPair;
import dev.toolscout.learning.UsageMemory;
import dev.toolscout.model.ToolSpec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Learning from use with the real embedding model: a learned message counts by what it is about, not by how it is
 * phrased (issue 32, item 3).
 */
class LearningFromUseTest {
    @TempDir
    Path dir;

    private static final String STATUS_TOOL = "smarthome__device_status";

    /** Near-duplicate status tools beside music tools, as a deployment with many servers has. */
    private static List<ToolSpec> catalog() {
        return List.of(
                ToolSpec.builder(
                                STATUS_TOOL,
                                "Get the current status of a smart home device: online, battery, last seen.")
                        .build(),
                ToolSpec.builder("hub__device_state", "Read the state of a device connected to the hub.")
                        .build(),
                ToolSpec.builder("router__connection_status", "Show the router's connection status and uptime.")
                        .build(),
                ToolSpec.builder("printer__status", "Report the printer's status: ink, paper, queue.")
                        .build(),
                ToolSpec.builder("music__play_song", "Play a song or a track by its title or artist.")
                        .build(),
                ToolSpec.builder("music__pause", "Pause the music that is playing.")
                        .build(),
                ToolSpec.builder("music__queue_track", "Add a track to the playback queue.")
                        .build(),
                ToolSpec.builder("weather__forecast", "Weather forecast for a city for the next days.")
                        .build(),
                ToolSpec.builder("calendar__create_event", "Create a calendar event with a title, start and end.")
                        .build(),
                ToolSpec.builder("email__send", "Send an email to a recipient with a subject and body.")
                        .build(),
                ToolSpec.builder("notes__create", "Create a note with a title and text.")
                        .build(),
                ToolSpec.builder("files__search", "Search files by name or content.")
                        .build());
    }

    /**
     * What a deployment learned for the status tool: one request about a thermostat, and one whose subject was in
     * the conversation before it ("this"), so its text is phrasing only.
     */
    private static final LearnedPair PHRASING_ONLY =
            new LearnedPair("Can you do this for me?", List.of(STATUS_TOOL), null, null, null);

    private static final List<LearnedPair> LEARNED = List.of(
            PHRASING_ONLY,
            new LearnedPair("Can you check the thermostat for me?", List.of(STATUS_TOOL), null, null, null));

    private static int place(SelectResult r, String tool) {
        List<String> names =
                r.selected().stream().map(SelectResult.SelectedTool::name).toList();
        int i = names.indexOf(tool);
        return i < 0 ? Integer.MAX_VALUE : i;
    }

    private static SelectResult.SelectedTool tool(SelectResult r, String name) {
        return r.selected().stream()
                .filter(t -> t.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void a_message_learned_for_a_status_tool_does_not_pull_it_into_a_request_phrased_alike_about_music() {
        String song = "Can you play this song for me?";
        try (ToolScout scout = ToolScout.builder().dataDir(dir).tools(catalog()).build()) {
            RankingParts parts = scout.rankingParts();
            UsageMemory learned = parts.learned();
            // every tool selected, so the status tool's place and reason show what learning did to it
            SelectRequest request = new SelectRequest(song, null, catalog().size(), null, null);
            SelectResult before = scout.select(request);
            learned.learn(LEARNED, parts.catalog().snapshot());

            // the model puts the phrasing-alike message near the request: by its cosine alone it would count
            float[] q = parts.model().embedQuery(song);
            assertThat(dev.toolscout.embedding.Vectors.cosine(q, parts.model().embedQuery(PHRASING_ONLY.message())))
                    .isGreaterThan(UsageMemory.COSINE_FLOOR);
            SelectResult after = scout.select(request);
            assertThat(place(after, "music__play_song")).isZero();
            assertThat(place(after, STATUS_TOOL)).isGreaterThanOrEqualTo(place(before, STATUS_TOOL));
            assertThat(after.selected()).allSatisfy(t -> assertThat(t.reason()).doesNotContain("used before"));
            assertThat(learned.similarity(q, song, Double.NaN)).doesNotContainKey(STATUS_TOOL);

            // a request about what was learned still gains from it
            SelectResult status = scout.select(
                    new SelectRequest("Can you check the bedroom thermostat for me?", null, 5, null, null));
            assertThat(place(status, STATUS_TOOL)).isZero();
            assertThat(tool(status, STATUS_TOOL).reason()).contains("used before for a similar message");
        }
    }

    /** Two trackers' near-duplicate tools, as ETOM-MCP's servers have (one tool per platform). */
    private static List<ToolSpec> trackers() {
        return List.of(
                ToolSpec.builder("github__list_issues", "List the issues of a GitHub repository.")
                        .build(),
                ToolSpec.builder("jira__list_issues", "List the issues of a Jira project.")
                        .build(),
                ToolSpec.builder("github__create_issue", "Create an issue in a GitHub repository.")
                        .build(),
                ToolSpec.builder("jira__create_issue", "Create an issue in a Jira project.")
                        .build(),
                ToolSpec.builder("calendar__create_event", "Create a calendar event with a title, start and end.")
                        .build(),
                ToolSpec.builder("email__send", "Send an email to a recipient with a subject and body.")
                        .build());
    }

    @Test
    void a_learned_message_moves_nothing_for_a_request_a_tools_own_text_already_matches() {
        String github = "github__list_issues";
        LearnedPair learnedForGithub =
                new LearnedPair("Show me the open issues of our project on GitHub", List.of(github), null, null, null);
        String request = "List the open issues of the Jira project";
        try (ToolScout scout =
                ToolScout.builder().dataDir(dir).tools(trackers()).build()) {
            RankingParts parts = scout.rankingParts();
            UsageMemory learned = parts.learned();
            SelectRequest select = new SelectRequest(request, null, trackers().size(), null, null);
            SelectResult before = scout.select(select);
            learned.learn(List.of(learnedForGithub), parts.catalog().snapshot());

            float[] q = parts.model().embedQuery(request);
            java.util.BitSet all = new java.util.BitSet();
            all.set(0, trackers().size());
            double nearestTool = parts.index()
                    .dense(q, dev.toolscout.access.AllowedSet.of(all, trackers().size()), 1)
                    .get(0)
                    .score();
            // by its cosine and the words it shares ("open", "issue", "project") the message would count, but the Jira
            // tool's own text is already near the request: the message could only lift its GitHub look-alike
            UsageMemory.Match unchecked =
                    learned.similarity(q, request, Double.NaN).get(github);
            assertThat(unchecked).isNotNull();
            assertThat(unchecked.cosine()).isGreaterThan(UsageMemory.COSINE_FLOOR);
            assertThat(unchecked.content()).isPositive();
            assertThat(nearestTool).isGreaterThanOrEqualTo(UsageMemory.NEAR_TOOL_TEXT);
            assertThat(learned.similarity(q, request, nearestTool)).isEmpty();

            SelectResult after = scout.select(select);
            assertThat(place(after, "jira__list_issues")).isZero();
            assertThat(place(after, github)).isGreaterThanOrEqualTo(place(before, github));
            assertThat(after.selected()).allSatisfy(t -> assertThat(t.reason()).doesNotContain("used before"));
        }
    }
}
