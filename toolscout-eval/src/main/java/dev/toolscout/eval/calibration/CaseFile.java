package dev.toolscout.eval.calibration;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.verbs.VerbCandidate;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The verb calibration's {@code --cases} file: one JSON line per case and model, for analysis beyond the tables. */
final class CaseFile {
    private static final ObjectMapper JSON = new ObjectMapper();

    private CaseFile() {}

    /** One JSON line per case and model: its label and its top candidates, for analysis beyond the tables. */
    static void write(
            Path file, Map<String, List<VerbCalibration.Case>> dev, Map<String, List<VerbCalibration.Case>> held)
            throws IOException {
        try (java.io.BufferedWriter w = java.nio.file.Files.newBufferedWriter(file)) {
            for (Map<String, List<VerbCalibration.Case>> m : List.of(dev, held)) {
                for (Map.Entry<String, List<VerbCalibration.Case>> e : m.entrySet()) {
                    for (VerbCalibration.Case c : e.getValue()) {
                        com.fasterxml.jackson.databind.node.ObjectNode n = JSON.createObjectNode();
                        n.put("model", e.getKey());
                        n.put("source", c.source());
                        n.put("kind", c.kind().name().toLowerCase(Locale.ROOT));
                        n.put("negative", c.negative());
                        c.right().stream().sorted().forEach(n.putArray("right")::add);
                        com.fasterxml.jackson.databind.node.ArrayNode top = n.putArray("top");
                        com.fasterxml.jackson.databind.node.ArrayNode parts = n.putArray("parts");
                        for (VerbCalibration.Parts pt : c.parts()) {
                            parts.addObject()
                                    .put("name", pt.name())
                                    .put("stored", pt.stored())
                                    .put("description", pt.description())
                                    .put("inputs", pt.inputs());
                        }
                        for (VerbCandidate v :
                                c.ranked().subList(0, Math.min(10, c.ranked().size()))) {
                            top.addObject()
                                    .put("name", v.name())
                                    .put("confidence", v.confidence())
                                    .put("score", v.score())
                                    .put("lexical_rank", v.lexicalRank())
                                    .put("dense_rank", v.denseRank());
                        }
                        w.write(n.toString());
                        w.newLine();
                    }
                }
            }
        }
    }
}
