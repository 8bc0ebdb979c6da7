package dev.toolscout.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.embeddings.LocalEmbeddingModels;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code toolscout calibrate routes|verbs} end to end on the real engine and model, over a small labelled datasets
 * folder written here in the layout the calibrations read (every development set they name, three tools and three
 * single-gold queries each), and the route and verbs sets they ship.
 */
class CalibrateCliTest {
    private static final String MODEL = LocalEmbeddingModels.DEFAULT_ID;

    /** Every folder and qrels file the two calibrations read. */
    private static final List<String[]> SETS = List.of(
            new String[] {"metatool-toole/normalized", "qrels.single.tsv"},
            new String[] {"toollens/normalized", "qrels.test.tsv"},
            new String[] {"seal-tools/normalized", "qrels.dev.tsv"},
            new String[] {"toolret-subsets-via-mftr/apibank/normalized", "qrels.tsv"},
            new String[] {"toolret-subsets-via-mftr/apigen/normalized", "qrels.tsv"},
            new String[] {"toolret-subsets-via-mftr/gorilla-huggingface/normalized", "qrels.tsv"},
            new String[] {"toolret-subsets-via-mftr/toolink/normalized", "qrels.tsv"},
            new String[] {"etom-mcp/normalized", "qrels.level1.tsv"},
            new String[] {"etom-mcp/normalized", "qrels.level2.tsv"});

    @TempDir
    Path dir;

    private Path datasets;
    private String out;
    private String err;

    @BeforeEach
    void writeDatasets() throws IOException {
        datasets = dir.resolve("datasets");
        for (String[] set : SETS) {
            Path d = Files.createDirectories(datasets.resolve(set[0]));
            Files.writeString(d.resolve("tools.jsonl"), """
          {"id": "mail", "name": "send_email", "description": "Send an email message to a recipient.", \
          "parameters": {"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"]}}
          {"id": "weather", "name": "forecast", "description": "Weather forecast for a city.", \
          "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
          {"id": "jokes", "name": "random_joke", "description": "Tell a random joke."}
          """);
            Files.writeString(d.resolve("queries.jsonl"), """
          {"id": "q1", "text": "Send an email message to my manager about the launch."}
          {"id": "q2", "text": "What is the weather forecast for Oslo tomorrow?"}
          {"id": "q3", "text": "Tell me a random joke."}
          """);
            Files.writeString(
                    d.resolve(set[1]), "query-id\ttool-id\tscore\nq1\tmail\t1\nq2\tweather\t1\nq3\tjokes\t1\n");
        }
    }

    private int run(String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = ToolScoutCli.run(args, new PrintWriter(o, true), new PrintWriter(e, true));
        out = o.toString();
        err = e.toString();
        return code;
    }

    @Test
    void calibrate_routes_prints_each_routes_fitted_and_shipped_figures_over_every_labelled_case() {
        assertThat(run(
                        "calibrate",
                        "routes",
                        datasets.toString(),
                        "--models",
                        MODEL,
                        "--work",
                        dir.resolve("work").toString()))
                .as(err)
                .isZero();
        assertThat(out).startsWith("# Route calibration\n\n## " + MODEL + "\n");
        Matcher m = Pattern.compile(
                        "(\\d+) cases: (\\d+) in catalog, (\\d+) out of catalog or gibberish, (\\d+) memory "
                                + "questions with a stored answer, (\\d+) no-parameter requests\\.")
                .matcher(out);
        assertThat(m.find()).as(out).isTrue();
        int total = Integer.parseInt(m.group(1));
        int in = Integer.parseInt(m.group(2));
        // out of catalog: each of the 5 sets' catalogs gets the 4 others' 3 queries and 40 gibberish strings; the
        // memory set adds its 40 unrelated questions, 27 near misses, 7 negations, toollens' last (here all 3)
        // queries and 40 gibberish strings
        assertThat(Integer.parseInt(m.group(3))).isEqualTo(5 * (4 * 3 + 40) + 40 + 27 + 7 + 3 + 40);
        assertThat(Integer.parseInt(m.group(4))).isEqualTo(80); // 40 stored facts, each asked twice
        // in catalog: the 5 sets' own 3 queries, the route set's 20 requests to store or forget (the memory tools),
        // and its no-parameter requests for the demo catalog
        int demoRequests = in - 5 * 3 - 20;
        assertThat(demoRequests).isPositive();
        // the random_joke queries (their one gold tool needs no parameter) and the demo requests
        assertThat(Integer.parseInt(m.group(5))).isEqualTo(5 + demoRequests);
        assertThat(total).isEqualTo(in + 377 + 80);
        for (String route : List.of("DIRECT_MEMORY", "SKILL_EXECUTE", "SKILL_HINT", "TOOL_FILTER", "LLM_REQUIRED")) {
            assertThat(out)
                    .containsPattern("\\| " + route + " \\| (\\d\\.\\d\\d|disabled|below tool_filter) \\| \\d+ \\|");
        }
        assertThat(out)
                .contains(
                        "| gibberish | 200 |",
                        "| memory: stored fact | 80 |",
                        "| memory: request | 20 |",
                        "| memory: near miss | 27 |",
                        "| memory: gibberish | 40 |",
                        "| metatool single (in) | 3 |",
                        "| etom level 1 (out) | 12 |");
        assertThat(err).contains(MODEL + ": metatool single, 3 tools, data in ");
    }

    @Test
    void calibrate_routes_with_locomo_fits_on_the_calibration_conversations_and_scores_the_held_out_ones_apart()
            throws IOException {
        // the LoCoMo layout (datasets/locomo-memory/README.md), written here: two conversations, one held out
        Path locomo = Files.createDirectories(dir.resolve("locomo/normalized"));
        Files.writeString(locomo.resolve("memories.jsonl"), """
          {"id": "conv-1-m0001", "conversation": "conv-1", "text": "Jon opened a dance studio downtown last month."}
          {"id": "conv-1-m0002", "conversation": "conv-1", "text": "Gina made a limited edition line of hoodies."}
          {"id": "conv-2-m0001", "conversation": "conv-2", "text": "Maria adopted a grey cat named Pixel."}
          {"id": "conv-2-m0002", "conversation": "conv-2", "text": "John ran a charity marathon in Boston."}
          """);
        Files.writeString(locomo.resolve("questions.jsonl"), """
          {"id": "conv-1-q001", "conversation": "conv-1", "text": "What did Jon open downtown?", \
          "label": "answerable", "memory_ids": ["conv-1-m0001"]}
          {"id": "conv-1-q002", "conversation": "conv-1", "text": "What did Jon make a limited edition line of?", \
          "label": "adversarial", "memory_ids": ["conv-1-m0002"]}
          {"id": "conv-2-q001", "conversation": "conv-2", "text": "What is the name of Maria's cat?", \
          "label": "answerable", "memory_ids": ["conv-2-m0001"]}
          {"id": "conv-2-q002", "conversation": "conv-2", "text": "Which marathon did Maria run?", \
          "label": "adversarial", "memory_ids": ["conv-2-m0002"]}
          {"id": "conv-2-q003", "conversation": "conv-2", "text": "When did Maria paint a sunrise?", \
          "label": "unmapped", "memory_ids": []}
          """);
        assertThat(run(
                        "calibrate",
                        "routes",
                        datasets.toString(),
                        "--models",
                        MODEL,
                        "--work",
                        dir.resolve("work").toString(),
                        "--locomo",
                        dir.resolve("locomo").toString(),
                        "--locomo-calibration",
                        "conv-1"))
                .as(err)
                .isZero();
        // the unmapped question is left out; conv-1 joins the fit, conv-2 is scored apart
        assertThat(out)
                .contains(
                        "| locomo calibration: answerable | 1 |",
                        "| locomo calibration: adversarial | 1 |",
                        "| locomo held-out: answerable | 1 |",
                        "| locomo held-out: adversarial | 1 |",
                        "Held-out LoCoMo conversations (1 answerable, 1 adversarial questions; never used to fit)");
        // the adversarial questions name a person their nearest memory does not: never answered from memory
        assertThat(out).containsPattern("\\| shipped \\| \\d\\.\\d\\d \\| \\d+ \\| [^|]+ \\| 0\\.0% \\(0 of 1\\) \\|");
        assertThat(dir.resolve("work/locomo/" + MODEL + "/cases.jsonl")).isNotEmptyFile();
        assertThat(run(
                        "calibrate",
                        "routes",
                        datasets.toString(),
                        "--models",
                        MODEL,
                        "--locomo",
                        dir.resolve("nowhere").toString()))
                .isNotZero();
        assertThat(err).contains("--locomo must be the locomo-memory folder");
    }

    @Test
    void calibrate_verbs_prints_the_rules_thresholds_and_writes_one_line_per_case() throws IOException {
        Path cases = dir.resolve("cases.jsonl");
        assertThat(run(
                        "calibrate",
                        "verbs",
                        datasets.toString(),
                        "--models",
                        MODEL,
                        "--per-set",
                        "2",
                        "--work",
                        dir.resolve("work").toString(),
                        "--cases",
                        cases.toString()))
                .as(err)
                .isZero();
        assertThat(out).startsWith("Threshold: the lowest at which a rule's substitutions are at least 95% precise");
        for (String rule : List.of(
                "product",
                "stored-text-cosine",
                "description+0.1inputs",
                "description+0.2inputs",
                "description+0.3inputs",
                "product+2margin")) {
            assertThat(out).contains("| " + MODEL + " | " + rule + " | ");
        }
        // the product's rule per set: 9 development sets of 2 single-gold queries each, and the held-out verbs set
        String all = row("calibration: all");
        assertThat(cell(all, 5)).isEqualTo("18");
        // gibberish: 40 per dataset folder, 8 folders, with the highest confidence any got
        assertThat(cell(all, 10)).matches("\\d+/320 \\(0\\.\\d+\\)");
        String verbs = row("held out: verbs");
        assertThat(cell(verbs, 5)).isEqualTo("84"); // novel verbs that paraphrase a verb of the set
        assertThat(out).contains("| " + MODEL + " | 0.50 | ", "| " + MODEL + " | 0.95 | ");
        // present and removed per development query, 40 gibberish per folder; the verbs set's 84 twice and 30 negatives
        assertThat(Files.readAllLines(cases)).hasSize(9 * 2 * 2 + 8 * 40 + 84 * 2 + 30);
    }

    @Test
    void calibrate_help_names_both_procedures_and_an_unknown_model_is_bad_input() {
        assertThat(run("calibrate", "--help")).isZero();
        assertThat(out).contains("routes", "verbs");
        assertThat(run("calibrate", "routes", datasets.toString(), "--models", "nope"))
                .isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err).contains("toolscout calibrate routes: error: unknown embedding model id 'nope'");
    }

    private String row(String set) {
        return Arrays.stream(out.split("\n"))
                .filter(l -> l.contains("| " + set + " |"))
                .findFirst()
                .orElseThrow();
    }

    /** The {@code i}-th cell (from 1) of a Markdown table row. */
    private static String cell(String row, int i) {
        return row.split("\\|")[i].strip();
    }
}
