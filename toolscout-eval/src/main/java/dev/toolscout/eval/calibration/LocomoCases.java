package dev.toolscout.eval.calibration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.eval.calibration.RouteCalibration.Case;
import dev.toolscout.memory.Memory;
import dev.toolscout.memory.MemoryScope;
import dev.toolscout.memory.MemoryType;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The LoCoMo part of the route calibration (datasets/locomo-memory, read in place: its licence is non-commercial;
 * docs/EVALUATION.md, Routes). Not thread-safe: one run at a time.
 */
public final class LocomoCases {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final CalibrationEngine.Opener engines;
    private final List<ToolSpec> demo;
    private final PrintWriter err;

    LocomoCases(CalibrationEngine.Opener engines, List<ToolSpec> demo, PrintWriter err) {
        this.engines = Objects.requireNonNull(engines, "engines");
        this.demo = List.copyOf(demo);
        this.err = Objects.requireNonNull(err, "err");
    }

    /**
     * The LoCoMo memory set (datasets/locomo-memory, read in place: its licence is non-commercial) and how its
     * conversations are split.
     *
     * @param dir the {@code locomo-memory} folder (its {@code normalized/memories.jsonl} and {@code questions.jsonl})
     * @param calibration the conversations the thresholds may be fitted on; every other one is held out
     */
    public record Locomo(Path dir, Set<String> calibration) {
        /** The default split: the first three conversations calibrate, the other four are held out. */
        public static final Set<String> DEFAULT_CALIBRATION = Set.of("conv-26", "conv-30", "conv-41");

        public Locomo {
            Objects.requireNonNull(dir, "dir");
            calibration = Set.copyOf(calibration);
        }
    }

    /**
     * Each conversation's facts stored as one user's memories (a user per conversation, so a question is routed
     * against its own conversation's store only), and its answerable and adversarial questions routed as that user;
     * the unmapped ones are left out (their answer is in the conversation, but no fact cites it: not negatives, see
     * the set's README).
     */
    List<Case> read(Locomo locomo, String model, Path work) throws IOException {
        check(locomo);
        Path mem = locomo.dir().resolve("normalized/memories.jsonl");
        Path qs = locomo.dir().resolve("normalized/questions.jsonl");
        Map<String, List<JsonNode>> memories = new LinkedHashMap<>();
        for (String line : java.nio.file.Files.readAllLines(mem)) {
            if (!line.isBlank()) {
                JsonNode n = JSON.readTree(line);
                memories.computeIfAbsent(n.path("conversation").asText(), k -> new ArrayList<>())
                        .add(n);
            }
        }
        Path dir = work.resolve("locomo").resolve(model);
        progress("%s: locomo-memory, %d conversations, data in %s", model, memories.size(), dir);
        List<Case> out = new ArrayList<>();
        java.nio.file.Files.createDirectories(dir);
        try (CalibrationEngine e = engines.open(dir, demo, model);
                PrintWriter dump = new PrintWriter(java.nio.file.Files.newBufferedWriter(dir.resolve("cases.jsonl")))) {
            Map<String, Principal> users = new HashMap<>();
            Map<String, String> ids = new HashMap<>();
            Map<String, String> canonical = new HashMap<>();
            for (Map.Entry<String, List<JsonNode>> c : memories.entrySet()) {
                Principal p = new Principal("locomo-" + c.getKey(), null, null);
                users.put(c.getKey(), p);
                // a rerun finds the same facts stored and keeps them; anything else is forgotten and stored again
                List<Memory> had = e.memories().recent(p, null, Integer.MAX_VALUE);
                List<String> want = c.getValue().stream()
                        .map(n -> n.path("text").asText())
                        .sorted()
                        .toList();
                if (!had.stream().map(Memory::content).sorted().toList().equals(want)) {
                    for (Memory m : had) {
                        e.memories().forget(p, m.id());
                    }
                    had = new ArrayList<>();
                    for (JsonNode n : c.getValue()) {
                        had.add(e.memories()
                                .store(
                                        p,
                                        MemoryScope.USER,
                                        MemoryType.FACT,
                                        n.path("text").asText(),
                                        null));
                    }
                }
                // the dataset's ids by text (a text stated twice takes its first id: the same fact either way)
                Map<String, String> byText = new HashMap<>();
                c.getValue()
                        .forEach(n -> byText.putIfAbsent(
                                n.path("text").asText(), n.path("id").asText()));
                for (JsonNode n : c.getValue()) {
                    canonical.put(
                            n.path("id").asText(), byText.get(n.path("text").asText()));
                }
                for (Memory m : had) {
                    ids.put(m.id(), byText.get(m.content()));
                }
            }
            for (String line : java.nio.file.Files.readAllLines(qs)) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode q = JSON.readTree(line);
                String label = q.path("label").asText();
                String conv = q.path("conversation").asText();
                if (!label.equals("answerable") && !label.equals("adversarial") || !users.containsKey(conv)) {
                    continue;
                }
                Set<String> right = new HashSet<>();
                Set<String> answers = new HashSet<>();
                if (label.equals("answerable")) {
                    q.path("memory_ids").forEach(m -> right.add(canonical.getOrDefault(m.asText(), m.asText())));
                    for (JsonNode m : memories.get(conv)) {
                        if (holdsAnswer(q.path("answer"), m)) {
                            answers.add(canonical.get(m.path("id").asText()));
                        }
                    }
                }
                boolean held = !locomo.calibration().contains(conv);
                Case c = RouteCalibration.route(
                                e,
                                users.get(conv),
                                "locomo " + (held ? "held-out" : "calibration") + ": " + label,
                                q.path("text").asText(),
                                false,
                                Set.of(),
                                false,
                                right,
                                ids)
                        .locomo(held, q.path("category").asInt(), answers);
                out.add(c);
                // what was routed, for a look at the cases (in the work folder, never the repository)
                com.fasterxml.jackson.databind.node.ObjectNode row = JSON.createObjectNode()
                        .put("id", q.path("id").asText())
                        .put("label", label)
                        .put("category", q.path("category").asInt())
                        .put("held_out", held)
                        .put("text", c.text())
                        .put(
                                "answer",
                                q.path("answer").isNull()
                                        ? null
                                        : q.path("answer").asText());
                right.forEach(row.putArray("gold")::add);
                answers.forEach(row.putArray("answer_memories")::add);
                com.fasterxml.jackson.databind.node.ArrayNode ev = row.putArray("memories");
                c.memories()
                        .forEach(m -> ev.addObject()
                                .put("id", m.name())
                                .put("cosine", m.cosine())
                                .put("text", m.text()));
                dump.println(row.toString());
            }
        }
        return out;
    }

    /** Words of an answer that say nothing of it. */
    private static final Set<String> ANSWER_STOP = Set.of(
            "a", "an", "the", "of", "to", "in", "on", "at", "for", "with", "and", "or", "but", "is", "are", "was",
            "were", "be", "been", "do", "does", "did", "it", "its", "his", "her", "their", "he", "she", "they", "i",
            "my", "by", "from", "about", "as", "that", "this", "than", "then", "so", "not", "no", "yes");

    /**
     * Whether memory {@code m} holds {@code answer}: at least half of its content words are in the memory's text or
     * session date (the set's README's rough check; "7 May 2023" is held by a memory of a session on "8 May, 2023").
     */
    static boolean holdsAnswer(JsonNode answer, JsonNode m) {
        if (answer.isMissingNode() || answer.isNull()) {
            return false;
        }
        Set<String> want = words(answer.asText());
        if (want.isEmpty()) {
            return false;
        }
        Set<String> have =
                words(m.path("text").asText() + " " + m.path("session_date").asText());
        long held = want.stream().filter(have::contains).count();
        return 2 * held >= want.size();
    }

    private static Set<String> words(String s) {
        Set<String> out = new HashSet<>();
        for (String w : s.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!w.isEmpty() && !ANSWER_STOP.contains(w)) {
                out.add(w);
            }
        }
        return out;
    }

    /** Fails, naming the folder and the file it lacks, unless {@code locomo} is in the set's layout. */
    static void check(Locomo locomo) {
        Path mem = locomo.dir().resolve("normalized/memories.jsonl");
        Path qs = locomo.dir().resolve("normalized/questions.jsonl");
        for (Path f : List.of(mem, qs)) {
            if (!java.nio.file.Files.isRegularFile(f)) {
                throw new IllegalArgumentException("--locomo must be the locomo-memory folder, holding " + f
                        + " (datasets/locomo-memory/README.md), got: " + locomo.dir());
            }
        }
    }

    private void progress(String format, Object... args) {
        err.printf(Locale.ROOT, format + "%n", args);
        err.flush();
    }
}
