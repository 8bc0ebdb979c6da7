package dev.toolscout.eval.calibration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.eval.dataset.DatasetTool;
import dev.toolscout.eval.dataset.NormalizedDataset;
import dev.toolscout.verbs.NovelVerb;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The verb calibration's real paraphrases: etom-mcp's equivalent-function tool sets (docs/VERBS.md, "Calibration").
 * Not thread-safe: one run at a time.
 */
final class EquivalentTools {
    private static final ObjectMapper JSON = new ObjectMapper();

    private EquivalentTools() {}

    /**
     * The equivalent MCP tools: etom-mcp's queries give, per step, a set of tools of different servers that do the
     * same thing ({@code gold_efs}). Each tool of such a set, as a novel verb (its name, description and input
     * names), is resolved in the whole catalog less itself and its copies (same description): right when it
     * substitutes a tool of its sets or one of the same name ({@code present}); and with those left out too
     * ({@code removed}, any substitution wrong: a lower bound, since the sets do not list every equivalent tool).
     * The sets are joined where they share a tool and the groups split at random (seeded) into halves: the first
     * calibrates, the second is held out.
     */
    static void cases(
            Path dir,
            NormalizedDataset ds,
            VerbCalibration.Probe probe,
            List<VerbCalibration.Case> calibration,
            List<VerbCalibration.Case> heldOut,
            BiConsumer<String, Object[]> progress)
            throws IOException {
        Map<String, DatasetTool> byId = new HashMap<>();
        ds.tools().forEach(t -> byId.put(t.id(), t));
        Map<String, Set<String>> mates = new java.util.TreeMap<>();
        Map<String, String> parent = new HashMap<>();
        for (String line : java.nio.file.Files.readAllLines(dir.resolve(NormalizedDataset.QUERIES_FILE))) {
            if (line.isBlank()) {
                continue;
            }
            for (JsonNode step : JSON.readTree(line).path("gold_efs")) {
                List<String> ids = new ArrayList<>();
                step.forEach(i -> {
                    String id = i.asText().strip();
                    if (byId.containsKey(id) && !ids.contains(id)) {
                        ids.add(id);
                    }
                });
                if (ids.size() < 2) {
                    continue;
                }
                for (String id : ids) {
                    mates.computeIfAbsent(id, k -> new java.util.TreeSet<>()).addAll(ids);
                    union(parent, ids.get(0), id);
                }
            }
        }
        Map<String, List<String>> groups = new java.util.TreeMap<>();
        mates.keySet()
                .forEach(id -> groups.computeIfAbsent(find(parent, id), k -> new ArrayList<>())
                        .add(id));
        List<List<String>> shuffled = new ArrayList<>(groups.values());
        java.util.Collections.shuffle(shuffled, new Random(VerbCalibration.SEED));
        Map<String, Set<String>> byName = new HashMap<>();
        Map<String, Set<String>> byDescription = new HashMap<>();
        for (DatasetTool t : ds.tools()) {
            byName.computeIfAbsent(t.displayName(), k -> new HashSet<>())
                    .add(t.spec().fullName());
            byDescription
                    .computeIfAbsent(t.spec().description(), k -> new HashSet<>())
                    .add(t.spec().fullName());
        }
        int calibrating = 0;
        int held = 0;
        for (int g = 0; g < shuffled.size(); g++) {
            boolean calibrates = g < (shuffled.size() + 1) / 2;
            List<VerbCalibration.Case> into = calibrates ? calibration : heldOut;
            String source = calibrates ? VerbCalibration.EQUIVALENTS : VerbCalibration.EQUIVALENTS + " (held out)";
            for (String id : shuffled.get(g)) {
                DatasetTool t = byId.get(id);
                Set<String> copies = byDescription.get(t.spec().description());
                Set<String> right = new HashSet<>();
                for (String m : mates.get(id)) {
                    right.addAll(byName.get(byId.get(m).displayName()));
                    right.add(byId.get(m).spec().fullName());
                }
                right.removeAll(copies);
                if (right.isEmpty()) {
                    continue; // its only mates are copies of it
                }
                NovelVerb verb = new NovelVerb(
                        t.displayName(), t.spec().description(), t.spec().parameterNames());
                Set<String> removed = new HashSet<>(copies);
                removed.addAll(right);
                into.add(probe.run(source, VerbCalibration.Kind.PRESENT, null, verb, copies, right));
                into.add(probe.run(source, VerbCalibration.Kind.REMOVED, null, verb, removed, right));
                if (calibrates) {
                    calibrating++;
                } else {
                    held++;
                }
            }
        }
        progress.accept(
                "etom equivalents: %d groups, %d tools calibrate, %d held out",
                new Object[] {shuffled.size(), calibrating, held});
    }

    private static String find(Map<String, String> parent, String id) {
        String p = parent.getOrDefault(id, id);
        if (p.equals(id)) {
            return id;
        }
        String root = find(parent, p);
        parent.put(id, root);
        return root;
    }

    private static void union(Map<String, String> parent, String a, String b) {
        String ra = find(parent, a);
        String rb = find(parent, b);
        if (!ra.equals(rb)) {
            // the smaller id is the root, so the groups do not depend on the order the sets come in
            if (ra.compareTo(rb) < 0) {
                parent.put(rb, ra);
            } else {
                parent.put(ra, rb);
            }
        }
    }
}
