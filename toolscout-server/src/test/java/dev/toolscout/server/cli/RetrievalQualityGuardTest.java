package dev.toolscout.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Guards retrieval quality: {@code toolscout eval} with the product's default configuration on ToolRet's apibank
 * subset (101 tools, 101 queries), and on the first 300 seal-tools out-of-domain queries (4,076 tools; multi-step
 * requests, which the clause search serves), must stay at or above floors set about 2 points under the measured
 * values (docs/EVALUATION.md records both).
 *
 * <p>Needs the development sets: {@code shared/datasets}, found by walking up from the working directory (CI
 * keeps {@code shared} beside the clone). Their absence is a failure, not a skip, so the guard cannot go quiet;
 * which is why these tests are tagged {@value #TAG} and left out of the default {@code mvn verify} (a clone
 * without the sets must build and pass): {@code mvn verify -Pquality-guard} runs only them, and {@code .ci/run}
 * runs them as their own step after {@code ./run-tests} whenever {@code ../shared/datasets} exists.
 */
@Tag(RetrievalQualityGuardTest.TAG)
class RetrievalQualityGuardTest {
    /** The JUnit tag the parent POM excludes by default and its {@code quality-guard} profile selects. */
    static final String TAG = "quality-guard";

    /**
     * Lowered from 73.6 by the measured effect of removing the inferred credential dependencies (apibank N@10
     * 75.2 -> 66.5, docs/FITTED_RULES.md): a rule that helped this set only. Measured 75.2 before (2026-11-23).
     */
    static final double NDCG10_FLOOR = 64.9;

    /**
     * Lowered from 87.7 by the measured effect of removing the credential dependencies (apibank R@10 89.7 ->
     * 76.7) and the number-free dense query (89.7 -> 89.2), docs/FITTED_RULES.md.
     */
    static final double RECALL10_FLOOR = 74.2;

    /**
     * Seal-tools out-of-domain, first 300 queries: measured 96.0 on 2026-11-23 (89.7 without the clause search,
     * {@code --retriever whole}); docs/EVALUATION.md.
     */
    static final double SEAL_NDCG10_FLOOR = 94.2;

    /**
     * Seal-tools out-of-domain, first 300 queries: measured 94.3 on 2026-11-26 with the step share (93.3 before it,
     * 81.3 without the clause search).
     */
    static final double SEAL_COMPLETE10_FLOOR = 92.3;

    @TempDir
    Path work;

    /** The development sets' folder ({@code shared/datasets} here or above). */
    static Path datasets() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path candidate = d.resolve("shared").resolve("datasets");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new AssertionError("the development sets were not found: no shared/datasets in "
                + Path.of("").toAbsolutePath()
                + " or any folder above it (CI keeps them beside the clone as ../shared)");
    }

    /** Runs {@code toolscout eval --format json} with {@code args}, asserts it succeeded, returns its JSON. */
    private JsonNode eval(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("eval", "--work-dir=" + work.resolve("eval"), "--format=json"));
        all.addAll(List.of(args));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = ToolScoutCli.run(all.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err, true));
        assertThat(status).as("eval %s exit status; stderr: %s", all, err).isZero();
        return new ObjectMapper().readTree(out.toString());
    }

    @Test
    void default_configuration_keeps_apibank_ndcg_and_recall_above_their_floors() throws Exception {
        JsonNode r = eval(
                "--dataset=" + datasets().resolve("toolret-subsets-via-mftr").resolve("apibank"));
        assertThat(r.get("queries").asInt()).isEqualTo(101);
        assertThat(r.get("ndcg@10").asDouble()).as("NDCG@10 on apibank").isGreaterThanOrEqualTo(NDCG10_FLOOR);
        assertThat(r.get("recall@10").asDouble()).as("R@10 on apibank").isGreaterThanOrEqualTo(RECALL10_FLOOR);
    }

    @Test
    void default_configuration_keeps_seal_tools_multi_step_quality_above_its_floors() throws Exception {
        JsonNode r = eval(
                "--dataset=" + datasets().resolve("seal-tools"), "--qrels=qrels.test_out_domain.tsv", "--limit=300");
        assertThat(r.get("queries").asInt()).isEqualTo(300);
        assertThat(r.get("ndcg@10").asDouble())
                .as("NDCG@10 on seal-tools OOD (first 300)")
                .isGreaterThanOrEqualTo(SEAL_NDCG10_FLOOR);
        assertThat(r.get("complete@10").asDouble())
                .as("C@10 on seal-tools OOD (first 300)")
                .isGreaterThanOrEqualTo(SEAL_COMPLETE10_FLOOR);
    }

    @Test
    void dense_plain_ranks_with_the_model_alone_and_differs_from_the_adapted_dense_list() throws Exception {
        // a catalog where the query adapter (trained on ToolLens) and the plain model disagree somewhere
        String ds =
                "--dataset=" + datasets().resolve("toolret-subsets-via-mftr").resolve("apibank");
        JsonNode plain = eval(ds, "--retriever=dense-plain", "--per-query=" + work.resolve("plain.jsonl"));
        eval(ds, "--retriever=dense", "--per-query=" + work.resolve("dense.jsonl"));
        assertThat(plain.get("queries").asInt()).isEqualTo(101);
        // the plain model alone is a real retriever on this set (measured R@10 75.7), not an empty or random list
        assertThat(plain.get("recall@10").asDouble()).isBetween(60.0, 90.0);
        assertThat(Files.readAllLines(work.resolve("plain.jsonl")))
                .isNotEqualTo(Files.readAllLines(work.resolve("dense.jsonl")));
    }
}
